package io.jato.jmh.charts;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one chart directive draws from its table: the categories along the x axis and one series
 * of values per bar colour or line, each value read from its cell by {@link CellNumbers}. Three
 * layouts:
 *
 * <ul>
 *   <li>by default the categories are the rows, labelled by their x columns' cells (joined by
 *       ", "), and the series are the y columns, named by their headers;
 *   <li>with {@code transpose}, the other way round: a series per row, a category per y column;
 *   <li>with {@code series=COLUMN}, a series per distinct value of that column and a category per
 *       distinct label of the x columns, both in order of first appearance; each row gives the
 *       value of its category in its series (a long table: protocol, threads, throughput).
 * </ul>
 *
 * <p>{@code labels=} replaces, in order, the labels the x columns give (one per row, or per
 * category with {@code series}); {@code names=} the names the y headers give (or, with {@code
 * series}, the series column's values).
 *
 * <p>Guarantees: every series has one value per category (null where a cell was missing and the
 * directive skips such cells) and one error per category (0 for none); at least one value is
 * present; categories and series names are unique and not empty; all values share one unit (or
 * have none); on a log chart every value is positive. A refusal names the page, the line (of the
 * directive, or of the row whose cell is refused), the chart and the problem.
 *
 * @param directive the directive
 * @param categories the categories, in order
 * @param series the series, in order
 * @param xTitle the x axis's title
 */
record TableChart(ChartDirective directive, List<String> categories, List<TableChart.Series> series, String xTitle) {

    TableChart {
        categories = List.copyOf(categories);
        series = List.copyOf(series);
    }

    /**
     * A series: its name and, per category, a value (null: none) and an error (0: none).
     *
     * @param name the legend's name for it
     * @param values the values, one per category
     * @param errors the error bars' half-widths, one per category
     */
    record Series(String name, List<Double> values, List<Double> errors) {
        Series {
            values = Collections.unmodifiableList(new ArrayList<>(values));
            errors = List.copyOf(errors);
        }

        /** Whether some value has an error bar. */
        boolean hasErrors() {
            return errors.stream().anyMatch(e -> e > 0);
        }
    }

    /**
     * The chart that {@code d} draws from {@code table} of {@code page}.
     *
     * @throws ResultsInputException a column, row, label or cell does not fit the directive
     */
    static TableChart of(Path page, ChartDirective d, MarkdownTable table) throws ResultsInputException {
        List<String> header = table.header().stream().map(TableChart::plain).toList();
        List<Integer> xColumns = columns(page, d, "x", d.x(), header);
        List<Integer> yColumns = columns(page, d, "y", d.y(), header);
        Integer seriesColumn = d.series() == null ? null : columns(page, d, "series", List.of(d.series()), header).get(0);
        List<MarkdownTable.Row> rows = rows(page, d, table);

        // What the x columns say of each row, and the series column.
        List<String> rowLabels = new ArrayList<>();
        List<String> rowSeries = new ArrayList<>();
        for (MarkdownTable.Row row : rows) {
            List<String> parts = new ArrayList<>();
            for (int c : xColumns) {
                parts.add(plain(row.cells().get(c)));
            }
            rowLabels.add(String.join(", ", parts));
            rowSeries.add(seriesColumn == null ? null : plain(row.cells().get(seriesColumn)));
        }
        List<String> yNames = yColumns.stream().map(header::get).toList();

        // Where the cell of row r, y column c goes: category k of series s.
        List<String> categories;
        List<String> seriesNames;
        int[] categoryOf = new int[rows.size()];
        int[] seriesOf = new int[rows.size()];
        if (seriesColumn != null) {
            categories = distinct(rowLabels, categoryOf);
            seriesNames = distinct(rowSeries, seriesOf);
            categories = replaced(page, d, "labels", d.labels(), categories, "categories (distinct x values)");
            seriesNames = replaced(page, d, "names", d.names(), seriesNames, "series (distinct values of "
                    + header.get(seriesColumn) + ")");
            unique(page, d, categories, "category", "labelled", "labels=");
            unique(page, d, seriesNames, "series", "named", "names=");
        } else {
            List<String> labels = replaced(page, d, "labels", d.labels(), rowLabels, "rows charted");
            List<String> names = replaced(page, d, "names", d.names(), yNames, "y columns");
            unique(page, d, labels, "row", "labelled", "labels=, or one more column in x=");
            unique(page, d, names, "y column", "named", "names=");
            categories = d.transpose() ? names : labels;
            seriesNames = d.transpose() ? labels : names;
        }

        Double[][] values = new Double[seriesNames.size()][categories.size()];
        double[][] errors = new double[seriesNames.size()][categories.size()];
        int[][] fromLine = new int[seriesNames.size()][categories.size()];
        String unit = "";
        String unitWhere = "";
        boolean any = false;
        for (int r = 0; r < rows.size(); r++) {
            MarkdownTable.Row row = rows.get(r);
            for (int c = 0; c < yColumns.size(); c++) {
                int k = seriesColumn != null ? categoryOf[r] : d.transpose() ? c : r;
                int s = seriesColumn != null ? seriesOf[r] : d.transpose() ? r : c;
                String cell = row.cells().get(yColumns.get(c));
                String where = "column '" + yNames.get(c) + "', row '" + rowLabels.get(r) + "'";
                if (fromLine[s][k] != 0) {
                    throw refused(page, row.line(), d, "this row and line " + fromLine[s][k] + " both chart '"
                            + categories.get(k) + "' of series '" + seriesNames.get(s) + "'");
                }
                fromLine[s][k] = row.line();
                CellNumbers.CellValue v;
                try {
                    v = CellNumbers.parse(cell, d.take());
                } catch (CellNumbers.NotANumber e) {
                    throw refused(page, row.line(), d, where + ": " + e.getMessage());
                }
                if (v == null) {
                    if (!d.skipMissing()) {
                        throw refused(page, row.line(), d, where + ": '" + cell + "' has no number"
                                + " (missing=skip leaves such cells out)");
                    }
                    continue;
                }
                if (!v.unit().isEmpty()) {
                    if (!unit.isEmpty() && !unit.equals(v.unit())) {
                        throw refused(page, row.line(), d, where + ": '" + cell + "' is in '" + v.unit()
                                + "', but " + unitWhere + " is in '" + unit + "'");
                    }
                    unit = v.unit();
                    unitWhere = where;
                }
                if (d.log() && v.value() <= 0) {
                    throw refused(page, row.line(), d, where + ": '" + cell + "' is not positive, and the y axis"
                            + " is logarithmic");
                }
                values[s][k] = v.value();
                errors[s][k] = v.error();
                any = true;
            }
        }
        if (!any) {
            throw refused(page, d.line(), d, "no cell of the chart has a number");
        }
        List<Series> series = new ArrayList<>();
        for (int s = 0; s < seriesNames.size(); s++) {
            List<Double> e = new ArrayList<>();
            for (double error : errors[s]) {
                e.add(error);
            }
            series.add(new Series(seriesNames.get(s), Arrays.asList(values[s]), e));
        }
        String xTitle = d.xTitle() != null ? d.xTitle()
                : d.transpose() ? "" : String.join(", ", xColumns.stream().map(header::get).toList());
        return new TableChart(d, categories, series, xTitle);
    }

    /** The distinct items of {@code items} in order of appearance; {@code index[i]} is where item i is among them. */
    private static List<String> distinct(List<String> items, int[] index) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            int at = out.indexOf(items.get(i));
            if (at < 0) {
                at = out.size();
                out.add(items.get(i));
            }
            index[i] = at;
        }
        return out;
    }

    /** A cell's or header's text without Markdown's code and bold marks. */
    static String plain(String cell) {
        return cell.replace("`", "").replace("**", "").strip();
    }

    /** The 0-based columns that {@code refs} name: a header as it stands, or #N. */
    private static List<Integer> columns(Path page, ChartDirective d, String option, List<String> refs,
            List<String> header) throws ResultsInputException {
        Map<Integer, String> seen = new HashMap<>();
        List<Integer> out = new ArrayList<>();
        for (String ref : refs) {
            int column;
            if (ref.matches("#\\d+")) {
                column = Integer.parseInt(ref.substring(1)) - 1;
                if (column < 0 || column >= header.size()) {
                    throw refused(page, d.line(), d, option + "=" + ref + ": the table has columns #1 to #"
                            + header.size());
                }
            } else {
                column = header.indexOf(ref);
                if (column < 0) {
                    throw refused(page, d.line(), d, option + ": no column '" + ref + "' in the table (columns: '"
                            + String.join("', '", header) + "')");
                }
                if (header.lastIndexOf(ref) != column) {
                    throw refused(page, d.line(), d, option + ": two columns are named '" + ref + "': name one"
                            + " by its position, #" + (column + 1) + " or #" + (header.lastIndexOf(ref) + 1));
                }
            }
            if (seen.put(column, ref) != null) {
                throw refused(page, d.line(), d, option + ": column '" + header.get(column) + "' is named twice");
            }
            out.add(column);
        }
        return out;
    }

    /** The rows that the directive names, or all. */
    private static List<MarkdownTable.Row> rows(Path page, ChartDirective d, MarkdownTable table)
            throws ResultsInputException {
        if (table.rows().isEmpty()) {
            throw refused(page, table.line(), d, "the table has no data rows");
        }
        if (d.rows().isEmpty()) {
            return table.rows();
        }
        List<MarkdownTable.Row> out = new ArrayList<>();
        for (int r : d.rows()) {
            if (r > table.rows().size()) {
                throw refused(page, d.line(), d, "rows: no row " + r + ": the table has " + table.rows().size()
                        + " rows");
            }
            out.add(table.rows().get(r - 1));
        }
        return out;
    }

    /** {@code given} in place of {@code derived}, which it must match in number; {@code derived} if none. */
    private static List<String> replaced(Path page, ChartDirective d, String option, List<String> given,
            List<String> derived, String what) throws ResultsInputException {
        if (given.isEmpty()) {
            return derived;
        }
        if (given.size() != derived.size()) {
            throw refused(page, d.line(), d, option + " has " + given.size() + " items, but there are "
                    + derived.size() + " " + what);
        }
        return given;
    }

    /** Refuses an empty or repeated label: categories and series must tell apart what they chart. */
    private static void unique(Path page, ChartDirective d, List<String> names, String what, String verb, String fix)
            throws ResultsInputException {
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).isEmpty()) {
                throw refused(page, d.line(), d, what + " " + (i + 1) + " of the chart is " + verb
                        + " with nothing (give " + fix + ")");
            }
            if (names.indexOf(names.get(i)) != i) {
                throw refused(page, d.line(), d, "two " + what + "s are " + verb + " '" + names.get(i) + "' (give "
                        + fix + ")");
            }
        }
    }

    /** "PAGE:LINE: chart OUT: problem". */
    static ResultsInputException refused(Path page, int line, ChartDirective d, String problem) {
        return new ResultsInputException(page + ":" + line + ": chart " + d.out() + ": " + problem);
    }
}
