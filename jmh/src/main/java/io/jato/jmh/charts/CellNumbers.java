package io.jato.jmh.charts;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The numbers of a benchmark page's table cells, as {@link TableCharts} charts them. A cell is
 * read as one {@link CellValue}: a value, an error (the half-width of an error bar, 0 for none)
 * and a unit, or as missing. The grammar (docs/plots.md has it with examples):
 *
 * <pre>
 * quantity := [+ - −] digits [. digits] [ [space] K|M|G ] [ [space] unit ]
 *             digits: 1234, or grouped by commas in threes: 1,234,567
 *             unit:   %  ×  x (= ×)  ns  µs  us (= µs)  ms  B  B/op  ns/op  txn/s  ops/s
 * value    := quantity                      the quantity
 *           | quantity ± quantity           the quantity with an error bar of that half-width
 *           | quantity – quantity           a range (en dash): its midpoint, with an error bar
 *                                           reaching both ends; "2.15–2.96M" and "1.40–1.83 M"
 *                                           give the first end the second's multiplier and unit
 * </pre>
 *
 * <p>Backticks are dropped first. A cell that starts with a bold span ({@code **...**}) is read
 * from the bold span alone, which must be one value: the pages mark their headline figure (a
 * median among runs) so, and what follows is a note. A cell with an arrow is read from what
 * follows its last arrow, its leading value: the pages write "runs → median" ({@code 1.03, 0.88,
 * 1.06 → **1.03**}). Bold elsewhere is emphasis and is dropped. Otherwise what is read depends on
 * {@link Take}: the leading value, with anything after it a note; or a list of values whose mean
 * or median is charted. A cell that is empty or holds only
 * "—", "–", "-" or "n/a" (optionally followed by a parenthesised note) is missing ({@code null});
 * any other cell without a number is refused.
 *
 * <p>Guarantees: a value is finite; an error is finite and not negative; the unit is "" or one of
 * the units above, spelled as listed (× for x, µs for us); a refused cell is named in the
 * exception's message as it stands in the table.
 */
final class CellNumbers {
    /** What to read from a cell without a bold span. */
    enum Take {
        /** The leading value; what follows it is a note (separated by a space or one of {@code ( , ; : / →}). */
        VALUE,
        /**
         * A list of values (separated by commas, slashes, semicolons, middle dots or spaces, each
         * optionally followed by a parenthesised note): their mean, without an error bar.
         */
        MEAN,
        /** A list as for {@link #MEAN}: its median (the mean of the middle two for an even count). */
        MEDIAN
    }

    /**
     * A cell's number.
     *
     * @param value the value (for a range its midpoint, for a list its mean or median)
     * @param error the half-width of its error bar; 0 for none
     * @param unit its unit, "" for none
     */
    record CellValue(double value, double error, String unit) {
    }

    /** A cell that has no number where one is needed, or whose number is malformed. */
    static final class NotANumber extends Exception {
        private static final long serialVersionUID = 1L;

        NotANumber(String message) {
            super(message);
        }
    }

    private static final Pattern LEADING_BOLD = Pattern.compile("\\*\\*(.+?)\\*\\*");
    private static final Set<String> MISSING = Set.of("", "—", "–", "-", "n/a");
    /** A parenthesised note after a missing mark: "— (same as above)". */
    private static final Pattern MISSING_NOTE = Pattern.compile("^(—|–|-|n/a)\\s+\\(.*\\)$");
    /** Longest first, so that "ns/op" is not read as "ns" with a note "/op". */
    private static final List<String> UNITS = List.of("ns/op", "B/op", "txn/s", "ops/s", "ns", "µs", "us", "ms",
            "%", "×", "x", "B");
    /** What may follow a leading value and start its note. */
    private static final String NOTE_STARTS = "(,;:/→";
    /** What separates the values of a list, besides spaces. */
    private static final String LIST_SEPARATORS = ",/;·";

    private CellNumbers() {
    }

    /**
     * The number of {@code cell} (a table cell's text as it stands in the page), or null where the
     * cell is missing.
     *
     * @throws NotANumber the cell has no number where {@code take} needs one, or a malformed one
     */
    static CellValue parse(String cell, Take take) throws NotANumber {
        String text = cell.replace("`", "").strip();
        Matcher bold = LEADING_BOLD.matcher(text);
        if (bold.lookingAt()) {
            Scanner s = new Scanner(bold.group(1).strip(), cell);
            CellValue v = s.value();
            s.expectEnd("its bold part '" + bold.group(1).strip() + "' is more than one value");
            return v;
        }
        text = text.replace("**", "");
        int arrow = text.lastIndexOf('→');
        if (arrow >= 0) {
            Scanner s = new Scanner(text.substring(arrow + 1).strip(), cell);
            CellValue v = s.value();
            s.expectNoteOrEnd();
            return v;
        }
        if (MISSING.contains(MISSING_NOTE.matcher(text).replaceFirst("$1"))) {
            return null;
        }
        Scanner s = new Scanner(text, cell);
        if (take == Take.VALUE) {
            CellValue v = s.value();
            s.expectNoteOrEnd();
            return v;
        }
        List<CellValue> items = new ArrayList<>();
        items.add(s.value());
        s.skipParenthesis();
        while (!s.atEnd()) {
            s.separator();
            items.add(s.value());
            s.skipParenthesis();
        }
        return aggregate(items, take, cell);
    }

    /** The mean or median of a list's values, in their common unit. */
    private static CellValue aggregate(List<CellValue> items, Take take, String cell) throws NotANumber {
        String unit = "";
        for (CellValue v : items) {
            if (!v.unit().isEmpty() && !unit.isEmpty() && !unit.equals(v.unit())) {
                throw new NotANumber("'" + cell + "' mixes units '" + unit + "' and '" + v.unit() + "'");
            }
            unit = v.unit().isEmpty() ? unit : v.unit();
        }
        double[] values = items.stream().mapToDouble(CellValue::value).sorted().toArray();
        double result;
        if (take == Take.MEAN) {
            result = Arrays.stream(values).average().orElseThrow();
        } else {
            int n = values.length;
            result = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
        }
        return new CellValue(result, 0, unit);
    }

    /** A left-to-right reader of one cell's text. */
    private static final class Scanner {
        private final String text;
        private final String cell;
        private int pos;

        Scanner(String text, String cell) {
            this.text = text;
            this.cell = cell;
        }

        boolean atEnd() {
            return pos >= text.length();
        }

        /** A value: a quantity, with an error after '±' or as a range to a second quantity after '–'. */
        CellValue value() throws NotANumber {
            Quantity q = quantity();
            int mark = pos;
            skipSpaces();
            if (peek('±')) {
                pos++;
                skipSpaces();
                Quantity e = quantity();
                if (!e.unit.isEmpty() && !q.unit.isEmpty() && !e.unit.equals(q.unit)) {
                    throw refused("its error is in '" + e.unit + "', its value in '" + q.unit + "'");
                }
                if (e.value() < 0) {
                    throw refused("its error is negative");
                }
                return new CellValue(q.value(), e.value(), q.unit.isEmpty() ? e.unit : q.unit);
            }
            if (peek('–')) {
                pos++;
                skipSpaces();
                Quantity hi = quantity();
                if (q.multiplier == 0 && q.unit.isEmpty()) {
                    q = new Quantity(q.number, hi.multiplier, hi.unit);
                }
                if (!q.unit.equals(hi.unit) && !hi.unit.isEmpty()) {
                    throw refused("its range runs from '" + q.unit + "' to '" + hi.unit + "'");
                }
                if (q.value() > hi.value()) {
                    throw refused("its range runs from high to low");
                }
                return new CellValue((q.value() + hi.value()) / 2, (hi.value() - q.value()) / 2, q.unit);
            }
            pos = mark;
            return new CellValue(q.value(), 0, q.unit);
        }

        private Quantity quantity() throws NotANumber {
            int start = pos;
            boolean negative = false;
            if (peek('+')) {
                pos++;
            } else if (peek('-') || peek('−')) {
                negative = true;
                pos++;
            }
            Matcher m = NUMBER.matcher(text).region(pos, text.length());
            if (!m.lookingAt()) {
                throw refused(atEnd() ? "it ends where a number should follow"
                        : "'" + text.substring(start) + "' does not start with a number");
            }
            pos = m.end();
            if (pos + 1 < text.length() && text.charAt(pos) == ',' && Character.isDigit(text.charAt(pos + 1))) {
                throw refused("digits after a comma come in threes (1,234,567), and the values of a list are"
                        + " separated by ', '");
            }
            BigDecimal number = new BigDecimal(m.group().replace(",", ""));
            int multiplier = multiplier();
            String unit = unit();
            if (!atEnd() && Character.isLetterOrDigit(text.charAt(pos))) {
                throw refused("'" + text.substring(start) + "' is not a number with a known unit");
            }
            return new Quantity(negative ? number.negate() : number, multiplier, unit);
        }

        /** K, M or G right after the number or after one space, standing alone: its power of ten (0 for none). */
        private int multiplier() {
            int at = pos + (peek(' ') ? 1 : 0);
            int k = at < text.length() ? "KMG".indexOf(text.charAt(at)) : -1;
            if (k >= 0 && boundary(at + 1)) {
                pos = at + 1;
                return 3 * (k + 1);
            }
            return 0;
        }

        /** One of {@link #UNITS}, attached or after one space ("x" and "×" attached only). */
        private String unit() {
            for (int gap = 0; gap <= 1; gap++) {
                int at = pos + gap;
                if (gap == 1 && !peek(' ')) {
                    break;
                }
                for (String u : UNITS) {
                    boolean attachedOnly = u.equals("x") || u.equals("×");
                    if (text.startsWith(u, at) && boundary(at + u.length()) && !(attachedOnly && gap == 1)) {
                        pos = at + u.length();
                        return switch (u) {
                            case "x" -> "×";
                            case "us" -> "µs";
                            default -> u;
                        };
                    }
                }
            }
            return "";
        }

        private boolean boundary(int at) {
            return at >= text.length() || !Character.isLetterOrDigit(text.charAt(at));
        }

        /** After a leading value: the end, or a note that starts with a space or one of NOTE_STARTS. */
        void expectNoteOrEnd() throws NotANumber {
            if (!atEnd() && !Character.isWhitespace(text.charAt(pos)) && NOTE_STARTS.indexOf(text.charAt(pos)) < 0) {
                throw refused("'" + text.substring(pos) + "' follows its number without a space");
            }
        }

        void expectEnd(String problem) throws NotANumber {
            skipSpaces();
            if (!atEnd()) {
                throw refused(problem);
            }
        }

        /** A parenthesised note after a list's value, if there is one (nesting allowed). */
        void skipParenthesis() throws NotANumber {
            int mark = pos;
            skipSpaces();
            if (!peek('(')) {
                pos = mark;
                return;
            }
            int depth = 0;
            for (; pos < text.length(); pos++) {
                char c = text.charAt(pos);
                depth += c == '(' ? 1 : c == ')' ? -1 : 0;
                if (depth == 0) {
                    pos++;
                    return;
                }
            }
            throw refused("a '(' is not closed");
        }

        /** Between two values of a list: spaces, or one separator with optional spaces around it. */
        void separator() throws NotANumber {
            int start = pos;
            skipSpaces();
            if (!atEnd() && LIST_SEPARATORS.indexOf(text.charAt(pos)) >= 0) {
                pos++;
                skipSpaces();
            }
            if (pos == start) {
                throw refused("'" + text.substring(pos) + "' follows a value of the list without a separator");
            }
        }

        private void skipSpaces() {
            while (!atEnd() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        private boolean peek(char c) {
            return !atEnd() && text.charAt(pos) == c;
        }

        private NotANumber refused(String problem) {
            return new NotANumber("'" + cell.strip() + "' is not a number: " + problem);
        }
    }

    /** Digits grouped by commas in threes (1,234,567) or not, then an optional fraction. */
    private static final Pattern NUMBER = Pattern.compile("(?:\\d{1,3}(?:,\\d{3})+(?!\\d)|\\d+)(?:\\.\\d+)?");

    /**
     * A number as written, the power of ten of the multiplier after it (0, or 3, 6, 9 for K, M, G)
     * and its unit ("" for none). Decimal, so that 513.7K is 513700, not 513700.00000000006.
     */
    private record Quantity(BigDecimal number, int multiplier, String unit) {
        double value() {
            return number.scaleByPowerOfTen(multiplier).doubleValue();
        }
    }
}
