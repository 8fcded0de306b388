package io.jato.jmh.charts;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Charts the tables of benchmark pages ({@code docs/benchmarks/*.md}): every table with a {@code
 * <!-- chart: ... -->} comment above it ({@link ChartDirective}) is drawn as the directive says,
 * its numbers read from its cells ({@link CellNumbers}), as an 800x500 PNG in the page's folder
 * {@code <page>/charts/} (for {@code 2026-11-tpcc.md}, {@code 2026-11-tpcc/charts/}), where the
 * page links it.
 *
 * <pre>
 * java -cp jmh/target/benchmarks.jar io.jato.jmh.charts.TableCharts [--check] PAGE.md|DIR [...]
 * ./jato plot --tables [--check] PAGE.md|DIR [...]
 * </pre>
 *
 * <p>A DIR stands for the {@code *.md} files directly in it. Several directives may stand above
 * one table, each its own chart; blank lines may separate them from the table, nothing else may.
 * Directives inside fenced code blocks are examples, not directives. With {@code --check} nothing
 * is written: the directives are read and checked, and so is what the pages show: every chart's
 * PNG exists and is linked from its page as {@code ![...](<page>/charts/<out>)}, and no PNG in a
 * {@code charts/} folder is left over from a directive that is gone.
 *
 * <p>Guarantees: every page is read and every directive, table and charted cell checked before
 * anything is written, so bad input writes nothing; a refusal names the page, the line and the
 * problem; the PNGs of a page are rendered into a temporary folder inside its {@code charts/}
 * and moved into place only when all are ready; files that no directive names are left alone
 * (and reported). Rendering needs no display. Exit status: 0 done (or checked, all in order); 1
 * writing failed, or {@code --check} found a chart missing, unlinked or left over; 2 a usage
 * error, a missing page, or a directive, table or cell that is refused.
 */
public final class TableCharts {
    static {
        // Before any AWT class loads: the charts are drawn into images, never onto a screen.
        System.setProperty("java.awt.headless", "true");
    }

    static final String TOOL = "TableCharts";
    static final String USAGE = "usage: java -cp benchmarks.jar io.jato.jmh.charts.TableCharts [--check] PAGE.md|DIR"
            + " [PAGE.md|DIR ...]\n"
            + "  draws the tables under <!-- chart: ... --> comments into <page>/charts/*.png (docs/plots.md)";

    /** The start of a directive: an HTML comment whose text starts with the word "chart". */
    private static final Pattern DIRECTIVE = Pattern.compile("^ {0,3}<!--\\s*chart(?![\\w-])(.*)$");
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})");

    private TableCharts() {
    }

    /**
     * The charts of one page.
     *
     * @param page the page
     * @param dir the folder its charts go to: {@code <page without .md>/charts} beside it
     * @param charts its charts, in the order of their directives
     */
    record PageCharts(Path page, Path dir, List<TableChart> charts) {
        PageCharts {
            charts = List.copyOf(charts);
        }

        /** How the page links chart {@code out}: {@code <page without .md>/charts/<out>}. */
        String link(String out) {
            return dir.getParent().getFileName() + "/charts/" + out;
        }
    }

    /** Runs the tool and exits with its status (only where it is not 0). */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /** The command line: returns the status, reports on {@code out} and {@code err}. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        boolean check = args.length > 0 && args[0].equals("--check");
        if (args.length == (check ? 1 : 0)) {
            err.println(args.length == 0 ? USAGE : TOOL + ": no pages given\n" + USAGE);
            return 2;
        }
        // A failure to write (disk, permissions, a rendering bug) leaves each page's charts as they
        // were or all new (StagedOutput), but the pages before it are written.
        return ChartsCommand.status(TOOL, USAGE, err, "failed", () -> {
            List<Path> inputs = new ArrayList<>();
            for (int i = check ? 1 : 0; i < args.length; i++) {
                if (args[i].startsWith("-")) {
                    err.println(TOOL + ": unknown option " + args[i] + "\n" + USAGE);
                    return 2;
                }
                inputs.add(Path.of(args[i]));
            }
            List<PageCharts> pages = read(inputs);
            if (check) {
                List<String> problems = problems(pages);
                problems.forEach(p -> err.println(TOOL + ": " + p));
                int charts = pages.stream().mapToInt(p -> p.charts().size()).sum();
                out.println(TOOL + ": " + pages.size() + (pages.size() == 1 ? " page, " : " pages, ")
                        + chartCount(charts) + ": " + (problems.isEmpty() ? "in order" : problems.size() + " problems"));
                return problems.isEmpty() ? 0 : 1;
            }
            for (PageCharts p : pages) {
                List<Path> written = render(p);
                out.println(TOOL + ": " + p.page() + ": " + (written.isEmpty() ? "no chart directives"
                        : chartCount(written.size()) + " in " + p.dir()));
            }
            problems(pages).forEach(p -> out.println(TOOL + ": note: " + p));
            return 0;
        });
    }

    private static String chartCount(int n) {
        return n + (n == 1 ? " chart" : " charts");
    }

    /**
     * Reads and checks the pages (a folder stands for the {@code *.md} files directly in it): every
     * directive, its table and every cell it charts.
     *
     * @throws ResultsInputException a page is missing, or a directive, table or cell is refused
     */
    static List<PageCharts> read(List<Path> inputs) throws ResultsInputException, IOException {
        List<PageCharts> pages = new ArrayList<>();
        for (Path input : inputs) {
            if (Files.isDirectory(input)) {
                TreeSet<Path> files = new TreeSet<>();
                try (DirectoryStream<Path> dir = Files.newDirectoryStream(input, "*.md")) {
                    dir.forEach(files::add);
                }
                for (Path page : files) {
                    pages.add(readPage(page));
                }
            } else {
                pages.add(readPage(input));
            }
        }
        return pages;
    }

    /** The charts of one page, checked. */
    static PageCharts readPage(Path page) throws ResultsInputException, IOException {
        String name = page.getFileName() == null ? "" : page.getFileName().toString();
        if (!name.endsWith(".md")) {
            throw new ResultsInputException(page, "not a Markdown page (*.md)");
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(page);
        } catch (NoSuchFileException e) {
            throw new ResultsInputException(page, "no such file");
        }
        Path dir = page.resolveSibling(name.substring(0, name.length() - 3)).resolve("charts");
        return new PageCharts(page, dir, charts(page, lines));
    }

    /** The page's charts: each directive with the table under it. */
    private static List<TableChart> charts(Path page, List<String> lines) throws ResultsInputException {
        List<TableChart> charts = new ArrayList<>();
        List<ChartDirective> pending = new ArrayList<>();
        Map<String, Integer> outs = new HashMap<>();
        String fence = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher f = FENCE.matcher(line);
            if (fence != null) {
                if (f.find() && f.group(1).charAt(0) == fence.charAt(0) && f.group(1).length() >= fence.length()
                        && line.strip().length() == f.group(1).length()) {
                    fence = null;
                }
                continue;
            }
            if (f.find()) {
                notBeforeATable(page, pending, i, line);
                fence = f.group(1);
                continue;
            }
            Matcher m = DIRECTIVE.matcher(line);
            if (m.matches()) {
                int end = directiveEnd(page, lines, i);
                ChartDirective d = directive(page, lines, i, end, m.group(1));
                Integer earlier = outs.putIfAbsent(d.out(), d.line());
                if (earlier != null) {
                    throw new ResultsInputException(page + ":" + d.line() + ": chart " + d.out()
                            + ": line " + earlier + " draws a chart of that name too");
                }
                pending.add(d);
                i = end;
            } else if (!pending.isEmpty() && MarkdownTable.isRow(line)) {
                MarkdownTable table;
                try {
                    table = MarkdownTable.parse(lines, i);
                } catch (MarkdownTable.MalformedTable e) {
                    throw new ResultsInputException(page + ":" + e.line() + ": " + e.getMessage()
                            + " (the table of the chart directive on line " + pending.get(0).line() + ")");
                }
                for (ChartDirective d : pending) {
                    charts.add(TableChart.of(page, d, table));
                }
                pending.clear();
                i = table.rows().isEmpty() ? i + 1 : table.rows().get(table.rows().size() - 1).line() - 1;
            } else if (!line.isBlank()) {
                notBeforeATable(page, pending, i, line);
            }
        }
        notBeforeATable(page, pending, lines.size(), null);
        return charts;
    }

    /** Refuses directives that something other than a table follows (line i, 0-based; null: the page's end). */
    private static void notBeforeATable(Path page, List<ChartDirective> pending, int i, String line)
            throws ResultsInputException {
        if (!pending.isEmpty()) {
            ChartDirective d = pending.get(0);
            throw TableChart.refused(page, d.line(), d, "no table follows the directive: "
                    + (line == null ? "the page ends" : "line " + (i + 1) + " is '" + line.strip() + "'")
                    + " (only blank lines and other chart directives may stand between)");
        }
    }

    /** The 0-based line on which the comment that starts on line {@code start} ends. */
    private static int directiveEnd(Path page, List<String> lines, int start) throws ResultsInputException {
        for (int i = start; i < lines.size(); i++) {
            int close = lines.get(i).indexOf("-->");
            if (close >= 0) {
                if (!lines.get(i).substring(close + 3).isBlank()) {
                    throw new ResultsInputException(page + ":" + (i + 1) + ": chart directive: text after '-->'");
                }
                return i;
            }
        }
        throw new ResultsInputException(page + ":" + (start + 1) + ": chart directive: the comment is not closed"
                + " with '-->'");
    }

    /** The directive of lines {@code start..end}; {@code rest} is the first line after "chart". */
    private static ChartDirective directive(Path page, List<String> lines, int start, int end, String rest)
            throws ResultsInputException {
        StringBuilder body = new StringBuilder(rest);
        for (int i = start + 1; i <= end; i++) {
            body.append('\n').append(lines.get(i));
        }
        String text = body.substring(0, body.lastIndexOf("-->")).strip();
        if (!text.startsWith(":")) {
            throw new ResultsInputException(page + ":" + (start + 1) + ": chart directive: 'chart' must be followed"
                    + " by ':' (<!-- chart: bars ... -->)");
        }
        try {
            return ChartDirective.parse(text.substring(1), start + 1);
        } catch (ChartDirective.BadDirective e) {
            throw new ResultsInputException(page + ":" + (start + 1) + ": chart directive: " + e.getMessage());
        }
    }

    /**
     * Renders the charts of {@code page} into its {@code charts/} folder (created if missing),
     * replacing files of the same names.
     *
     * @return the PNGs written, in the order of their directives; none for a page without directives
     */
    static List<Path> render(PageCharts page) throws IOException {
        if (page.charts().isEmpty()) {
            return List.of();
        }
        try (StagedOutput output = StagedOutput.create(page.dir(), ".table-charts-")) {
            for (TableChart c : page.charts()) {
                ChartRenderer.write(TableChartRenderer.draw(c), output.stage(c.directive().out()));
            }
            return output.publish();
        }
    }

    /**
     * What the pages do not show as their directives say: a chart whose PNG is missing, a chart
     * the page does not link, a PNG in a {@code charts/} folder that no directive draws. One line
     * each, naming the page; empty when all is in order.
     */
    static List<String> problems(List<PageCharts> pages) throws IOException {
        List<String> problems = new ArrayList<>();
        for (PageCharts p : pages) {
            String text = Files.readString(p.page());
            TreeSet<String> drawn = new TreeSet<>();
            for (TableChart c : p.charts()) {
                ChartDirective d = c.directive();
                drawn.add(d.out());
                String link = p.link(d.out());
                if (!Files.isRegularFile(p.dir().resolve(d.out()))) {
                    problems.add(p.page() + ":" + d.line() + ": chart " + d.out() + " is not drawn: no "
                            + p.dir().resolve(d.out()) + " (./jato plot --tables " + p.page() + ")");
                }
                if (!Pattern.compile("!\\[[^\\]]*\\]\\(\\s*<?" + Pattern.quote(link) + ">?\\s*\\)").matcher(text).find()) {
                    problems.add(p.page() + ":" + d.line() + ": chart " + d.out() + " is not shown: the page has no"
                            + " image link to " + link + " (![...](" + link + "))");
                }
            }
            if (Files.isDirectory(p.dir())) {
                try (DirectoryStream<Path> dir = Files.newDirectoryStream(p.dir(), "*.png")) {
                    for (Path png : dir) {
                        if (!drawn.contains(png.getFileName().toString())) {
                            problems.add(p.page() + ": " + png + " is drawn by no chart directive of the page");
                        }
                    }
                }
            }
        }
        return problems;
    }
}
