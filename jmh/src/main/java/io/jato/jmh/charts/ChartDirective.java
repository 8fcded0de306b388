package io.jato.jmh.charts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One {@code <!-- chart: ... -->} comment of a benchmark page: which chart to draw from the table
 * under it. The grammar (docs/plots.md has it with examples):
 *
 * <pre>
 * &lt;!-- chart: KIND OPTION... --&gt;          may span lines; nothing may follow the --&gt;
 * KIND    := bars | lines
 * OPTION  := NAME=VALUE | log | transpose
 * VALUE   := a word without spaces or quotes, or "text in double quotes";
 *            a list (x, y, labels, names) is such items separated by commas
 * </pre>
 *
 * <p>Required: {@code title}, {@code out} (the PNG's file name: lower case letters, digits and
 * hyphens, ending in {@code .png}), {@code x} (the columns that label a row), {@code y} (the
 * columns charted) and {@code unit} (the y axis's title). Optional: {@code series} (a column
 * whose values name the series: rows that agree in it form one series, the x columns name the
 * categories, and y names one column), {@code labels} and {@code names} (replace the categories'
 * labels and the series' names, see {@link TableChart}), {@code rows} (which data rows,
 * 1-based: {@code 1-4,7}), {@code take} ({@code value}, {@code mean}, {@code median}: see {@link
 * CellNumbers.Take}), {@code missing=skip} (a cell without a number is left out instead of
 * refused), {@code ref} (a dashed reference line at that value), {@code x-title}, and the flags
 * {@code log} (a logarithmic y axis) and {@code transpose} (each row a series, each y column a
 * category). A column is named by its header as it stands (backticks and bold dropped), or by its
 * position, {@code #1} for the first.
 *
 * <p>Guarantees: every required option is present and no option is given twice or unknown; the
 * lists are not empty and have no empty item; {@code rows} are positive ranges; a refusal says
 * which option is wrong and how.
 *
 * @param line the page line the comment starts on
 * @param kind bars or lines
 * @param title the chart's title
 * @param out the PNG's file name
 * @param unit the y axis's title
 * @param x the label columns
 * @param y the value columns
 * @param series the column whose values name the series (each row then charts one value); null for none
 * @param labels the rows' labels, replacing those from {@code x}; empty for none
 * @param names the series' names, replacing the y columns' headers; empty for none
 * @param rows the data rows to chart, 1-based, in this order; empty for all
 * @param take what a cell without a bold span gives
 * @param skipMissing whether a cell without a number is left out (else refused)
 * @param ref the value of a reference line; NaN for none
 * @param xTitle the x axis's title; null for the default (the x columns' names)
 * @param log whether the y axis is logarithmic
 * @param transpose whether rows are series and y columns categories
 */
record ChartDirective(int line, Kind kind, String title, String out, String unit, List<String> x, List<String> y,
        String series, List<String> labels, List<String> names, List<Integer> rows, CellNumbers.Take take,
        boolean skipMissing, double ref, String xTitle, boolean log, boolean transpose) {

    /** The kinds of chart. */
    enum Kind {
        /** Grouped bars: one group per category, one bar per series. */
        BARS,
        /** Lines across the categories, evenly spaced, one line per series. */
        LINES
    }

    /** A directive that cannot be read: what is wrong with it. */
    static final class BadDirective extends Exception {
        private static final long serialVersionUID = 1L;

        BadDirective(String message) {
            super(message);
        }
    }

    private static final Pattern OUT = Pattern.compile("[a-z0-9][a-z0-9-]*\\.png");
    private static final Pattern ROWS = Pattern.compile("(\\d+)(?:-(\\d+))?");
    private static final List<String> REQUIRED = List.of("title", "out", "x", "y", "unit");
    private static final List<String> OPTIONS = List.of("title", "out", "x", "y", "unit", "series", "labels", "names",
            "rows", "take", "missing", "ref", "x-title");
    private static final List<String> FLAGS = List.of("log", "transpose");

    ChartDirective {
        x = List.copyOf(x);
        y = List.copyOf(y);
        labels = List.copyOf(labels);
        names = List.copyOf(names);
        rows = List.copyOf(rows);
    }

    /**
     * The directive whose text after {@code chart:} (up to {@code -->}) is {@code body}.
     *
     * @param line the page line the comment starts on
     * @throws BadDirective the text does not follow the grammar
     */
    static ChartDirective parse(String body, int line) throws BadDirective {
        List<String> tokens = tokens(body);
        if (tokens.isEmpty()) {
            throw new BadDirective("no kind: a chart directive starts with 'bars' or 'lines'");
        }
        Kind kind = switch (tokens.get(0)) {
            case "bars" -> Kind.BARS;
            case "lines" -> Kind.LINES;
            default -> throw new BadDirective("'" + tokens.get(0) + "' is not a kind of chart: bars or lines");
        };
        Map<String, String> options = new LinkedHashMap<>();
        List<String> flags = new ArrayList<>();
        for (String token : tokens.subList(1, tokens.size())) {
            int eq = token.indexOf('=');
            int quote = token.indexOf('"');
            if (eq < 0 || (quote >= 0 && quote < eq)) {
                if (!FLAGS.contains(token)) {
                    throw new BadDirective("'" + token + "' is neither an option (NAME=VALUE) nor a flag ("
                            + String.join(", ", FLAGS) + ")");
                }
                if (flags.contains(token)) {
                    throw new BadDirective("'" + token + "' is given twice");
                }
                flags.add(token);
                continue;
            }
            String name = token.substring(0, eq);
            if (!OPTIONS.contains(name)) {
                throw new BadDirective("no option '" + name + "' (options: " + String.join(", ", OPTIONS) + ")");
            }
            if (options.put(name, token.substring(eq + 1)) != null) {
                throw new BadDirective("'" + name + "' is given twice");
            }
        }
        for (String name : REQUIRED) {
            if (!options.containsKey(name)) {
                throw new BadDirective("'" + name + "' is missing (required: " + String.join(", ", REQUIRED) + ")");
            }
        }
        String out = text(options, "out");
        if (!OUT.matcher(out).matches()) {
            throw new BadDirective("out=" + out + ": a file name of lower-case letters, digits and '-', ending in"
                    + " .png");
        }
        String series = options.containsKey("series") ? text(options, "series") : null;
        if (series != null && flags.contains("transpose")) {
            throw new BadDirective("series= and transpose do not go together: each picks what the series are");
        }
        List<String> y = list(options, "y");
        if (series != null && y.size() != 1) {
            throw new BadDirective("with series=, y names one column (it has " + y.size() + ")");
        }
        return new ChartDirective(line, kind, text(options, "title"), out, text(options, "unit"),
                list(options, "x"), y, series, list(options, "labels"), list(options, "names"),
                rows(options.get("rows")), take(options.get("take")), missing(options.get("missing")),
                ref(options.get("ref")), options.containsKey("x-title") ? text(options, "x-title") : null,
                flags.contains("log"), flags.contains("transpose"));
    }

    /** The body split at spaces outside double quotes. */
    private static List<String> tokens(String body) throws BadDirective {
        List<String> tokens = new ArrayList<>();
        StringBuilder token = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            }
            if (Character.isWhitespace(c) && !quoted) {
                if (token.length() > 0) {
                    tokens.add(token.toString());
                    token.setLength(0);
                }
            } else {
                token.append(c);
            }
        }
        if (quoted) {
            throw new BadDirective("a '\"' is not closed");
        }
        if (token.length() > 0) {
            tokens.add(token.toString());
        }
        return tokens;
    }

    /** A one-item option's text, unquoted; not empty. */
    private static String text(Map<String, String> options, String name) throws BadDirective {
        List<String> items = items(name, options.get(name), false);
        return items.get(0);
    }

    /** A list option's items, unquoted; empty when the option is absent. */
    private static List<String> list(Map<String, String> options, String name) throws BadDirective {
        String value = options.get(name);
        return value == null ? List.of() : items(name, value, true);
    }

    /**
     * The items of {@code value}: quoted or bare, separated by commas outside quotes where {@code
     * list}; each not empty.
     */
    private static List<String> items(String name, String value, boolean list) throws BadDirective {
        List<String> items = new ArrayList<>();
        int i = 0;
        while (true) {
            String item;
            if (i < value.length() && value.charAt(i) == '"') {
                int close = value.indexOf('"', i + 1);   // there is one: tokens() checked
                item = value.substring(i + 1, close);
                i = close + 1;
                if (i < value.length() && !(list && value.charAt(i) == ',')) {
                    throw new BadDirective(name + "=" + value + ": a quote must enclose a whole "
                            + (list ? "item" : "value"));
                }
            } else {
                int comma = list ? value.indexOf(',', i) : -1;
                int end = comma < 0 ? value.length() : comma;
                item = value.substring(i, end);
                if (item.contains("\"")) {
                    throw new BadDirective(name + "=" + value + ": a quote must enclose a whole "
                            + (list ? "item" : "value"));
                }
                i = end;
            }
            if (item.isBlank()) {
                throw new BadDirective(name + "=" + value + ": an empty " + (list ? "item" : "value"));
            }
            items.add(item);
            if (i >= value.length()) {
                return items;
            }
            i++;   // the comma
            if (i == value.length()) {
                throw new BadDirective(name + "=" + value + ": an empty item after the last comma");
            }
        }
    }

    private static List<Integer> rows(String value) throws BadDirective {
        List<Integer> rows = new ArrayList<>();
        if (value == null) {
            return rows;
        }
        for (String range : value.split(",", -1)) {
            var m = ROWS.matcher(range);
            if (!m.matches()) {
                throw new BadDirective("rows=" + value + ": '" + range + "' is not a row number or a range N-M");
            }
            int from = Integer.parseInt(m.group(1));
            int to = m.group(2) == null ? from : Integer.parseInt(m.group(2));
            if (from < 1 || to < from) {
                throw new BadDirective("rows=" + value + ": '" + range + "' is not a range of rows from 1 up");
            }
            for (int r = from; r <= to; r++) {
                if (rows.contains(r)) {
                    throw new BadDirective("rows=" + value + ": row " + r + " is named twice");
                }
                rows.add(r);
            }
        }
        return rows;
    }

    private static CellNumbers.Take take(String value) throws BadDirective {
        if (value == null) {
            return CellNumbers.Take.VALUE;
        }
        return switch (value) {
            case "value", "mean", "median" -> CellNumbers.Take.valueOf(value.toUpperCase(Locale.ROOT));
            default -> throw new BadDirective("take=" + value + ": value, mean or median");
        };
    }

    private static boolean missing(String value) throws BadDirective {
        if (value == null || value.equals("error")) {
            return false;
        }
        if (value.equals("skip")) {
            return true;
        }
        throw new BadDirective("missing=" + value + ": error (the default) or skip");
    }

    private static double ref(String value) throws BadDirective {
        if (value == null) {
            return Double.NaN;
        }
        try {
            double v = Double.parseDouble(value);
            if (Double.isFinite(v)) {
                return v;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new BadDirective("ref=" + value + ": a number, such as 1 or 0.8");
    }
}
