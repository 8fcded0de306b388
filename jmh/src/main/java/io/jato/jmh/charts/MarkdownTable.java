package io.jato.jmh.charts;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A GitHub-flavoured Markdown pipe table of a page, as {@link TableCharts} reads it: a header
 * row, a delimiter row ({@code |---|:---:|---:|}) with as many cells, then the data rows, each
 * with as many cells, up to the first line that does not start with {@code |}. Cells are split at
 * every {@code |} that is not escaped ({@code \|}, as GFM splits them, in code spans too) and
 * trimmed; an escaped pipe is kept as {@code |}.
 *
 * <p>Guarantees: the header has at least one cell; every row has exactly as many cells as the
 * header; line numbers are 1-based lines of the page.
 *
 * @param line the header's line
 * @param header the header cells
 * @param rows the data rows, in order
 */
record MarkdownTable(int line, List<String> header, List<MarkdownTable.Row> rows) {
    private static final Pattern DELIMITER_CELL = Pattern.compile(":?-+:?");

    MarkdownTable {
        header = List.copyOf(header);
        rows = List.copyOf(rows);
    }

    /**
     * A data row.
     *
     * @param line its line in the page
     * @param cells its cells, as many as the header's
     */
    record Row(int line, List<String> cells) {
        Row {
            cells = List.copyOf(cells);
        }
    }

    /** A table that is not one: the problem and the line it is on. */
    static final class MalformedTable extends Exception {
        private static final long serialVersionUID = 1L;
        private final int line;

        MalformedTable(int line, String message) {
            super(message);
            this.line = line;
        }

        int line() {
            return line;
        }
    }

    /** Whether {@code line} is a table row: it starts with '|' (after at most three spaces). */
    static boolean isRow(String line) {
        String trimmed = line.stripLeading();
        return line.length() - trimmed.length() <= 3 && trimmed.startsWith("|");
    }

    /**
     * The table whose header is {@code lines.get(start)}.
     *
     * @throws MalformedTable no delimiter row under the header, or a row of another width
     */
    static MarkdownTable parse(List<String> lines, int start) throws MalformedTable {
        List<String> header = cells(lines.get(start));
        if (start + 1 >= lines.size() || !isRow(lines.get(start + 1))) {
            throw new MalformedTable(start + 1, "the table has no delimiter row (|---|---|) under its header");
        }
        if (header.stream().allMatch(c -> DELIMITER_CELL.matcher(c).matches())) {
            throw new MalformedTable(start + 1, "the table has no header row: it starts with a delimiter row");
        }
        List<String> delimiter = cells(lines.get(start + 1));
        if (!delimiter.stream().allMatch(c -> DELIMITER_CELL.matcher(c).matches())) {
            throw new MalformedTable(start + 2, "the table's second line is not a delimiter row (|---|---|)");
        }
        if (delimiter.size() != header.size()) {
            throw new MalformedTable(start + 2, "the delimiter row has " + delimiter.size() + " cells, the header "
                    + header.size());
        }
        List<Row> rows = new ArrayList<>();
        for (int i = start + 2; i < lines.size() && isRow(lines.get(i)); i++) {
            List<String> cells = cells(lines.get(i));
            if (cells.size() != header.size()) {
                throw new MalformedTable(i + 1, "the row has " + cells.size() + " cells, the header " + header.size());
            }
            rows.add(new Row(i + 1, cells));
        }
        return new MarkdownTable(start + 1, header, rows);
    }

    /** The cells of a row: split at unescaped pipes, the outer pipes dropped, trimmed. */
    static List<String> cells(String line) {
        String s = line.strip();
        List<String> out = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length() && s.charAt(i + 1) == '|') {
                cell.append('|');
                i++;
            } else if (c == '|') {
                out.add(cell.toString().strip());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        out.add(cell.toString().strip());
        // The row's opening pipe leaves an empty first cell, a closing pipe an empty last one.
        if (s.startsWith("|")) {
            out.remove(0);
        }
        if (s.endsWith("|") && !s.endsWith("\\|") && !out.isEmpty()) {
            out.remove(out.size() - 1);
        }
        return out;
    }
}
