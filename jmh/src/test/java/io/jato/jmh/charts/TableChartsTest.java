package io.jato.jmh.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;

/**
 * Charts from a page's tables: what each layout charts, where the PNGs go, how a page that does not
 * fit its directives is refused (page, line, problem, and nothing written), and what --check
 * reports.
 */
class TableChartsTest {
    /** A page in the shape of the benchmark pages: prose, a directive, a table, the image link. */
    static final String PAGE = """
            # Results

            Medians of three runs.

            <!-- chart: bars title="Throughput" x=protocol,threads y="txn/s (median; runs)" unit="txn/s"
                 out=throughput.png -->
            <!-- chart: bars title="Aborts" x=protocol,threads y=aborts unit="%" out=aborts.png -->

            | protocol | threads | txn/s (median; runs) | aborts | ratio |
            |---|---:|---|---:|---:|
            | occ | 1 | **238.3K** (237.2K, 306.7K, 238.3K) | 0.00% | 1.00× |
            | occ | 2 | **511.0K** (539.3K, 461.3K, 511.0K) | 1.13% | 2.14× |
            | tictoc | 1 | **249.7K** (248.1K, 251.9K, 249.7K) | 0.00% | 1.05× |
            | tictoc | 2 | **513.7K** (594.1K, 392.1K, 513.7K) | 0.56% | 2.16× |

            ![throughput](results/charts/throughput.png)
            ![aborts](results/charts/aborts.png)

            ```
            <!-- chart: an example in a code block is not a directive -->
            ```
            """;

    @TempDir
    Path dir;

    @Test
    void aPageIsChartedIntoItsFolder() throws Exception {
        Path page = write("results.md", PAGE);

        TableCharts.PageCharts charts = TableCharts.readPage(page);
        List<Path> written = TableCharts.render(charts);

        Path out = dir.resolve("results/charts");
        assertEquals(out, charts.dir());
        assertEquals(List.of(out.resolve("throughput.png"), out.resolve("aborts.png")), written);
        for (Path png : written) {
            Pngs.read(png);
        }
        try (Stream<Path> files = Files.list(out)) {
            assertEquals(List.of("aborts.png", "throughput.png"), files.map(p -> p.getFileName().toString()).sorted()
                    .toList(), "nothing else is left in the folder");
        }
        assertEquals(List.of(), TableCharts.problems(List.of(charts)));
    }

    @Test
    void byDefaultRowsAreCategoriesAndYColumnsSeries() throws Exception {
        TableChart c = only(PAGE, "aborts.png");

        assertEquals(List.of("occ, 1", "occ, 2", "tictoc, 1", "tictoc, 2"), c.categories());
        assertEquals("protocol, threads", c.xTitle());
        assertEquals("aborts", c.series().get(0).name());
        assertEquals(Arrays.asList(0.0, 1.13, 0.0, 0.56), c.series().get(0).values());
    }

    @Test
    void theBoldMedianIsCharted() throws Exception {
        TableChart c = only(PAGE, "throughput.png");

        assertEquals(List.of(238_300.0, 511_000.0, 249_700.0, 513_700.0), c.series().get(0).values());
        assertEquals(List.of(0.0, 0.0, 0.0, 0.0), c.series().get(0).errors());
    }

    @Test
    void seriesMakesASeriesOfEachValueOfAColumn() throws Exception {
        TableChart c = only(PAGE.replace("x=protocol,threads y=aborts", "x=threads series=protocol y=aborts"),
                "aborts.png");

        assertEquals(List.of("1", "2"), c.categories());
        assertEquals(List.of("occ", "tictoc"), c.series().stream().map(TableChart.Series::name).toList());
        assertEquals(List.of(0.0, 1.13), c.series().get(0).values());
        assertEquals(List.of(0.0, 0.56), c.series().get(1).values());
        assertTrue(TableChartRenderer.draw(c) instanceof CategoryChart);
    }

    @Test
    void transposeMakesASeriesOfEachRow() throws Exception {
        String page = """
                <!-- chart: lines title=T x=protocol y=1,2,4 unit=txn/s transpose missing=skip out=t.png -->
                | protocol | 1 | 2 | 4 |
                |---|---|---|---|
                | occ | 10 | 20 | 30 |
                | tictoc | 11 | 19 | — |
                """;
        TableChart c = only(page, "t.png");

        assertEquals(List.of("1", "2", "4"), c.categories());
        assertEquals(List.of("occ", "tictoc"), c.series().stream().map(TableChart.Series::name).toList());
        assertEquals(List.of(10.0, 20.0, 30.0), c.series().get(0).values());
        assertEquals(Arrays.asList(11.0, 19.0, null), c.series().get(1).values());
        assertEquals("", c.xTitle());
        assertEquals(2, TableChartRenderer.lines(c).getSeriesMap().get("tictoc").getXData().length);
    }

    @Test
    void labelsNamesAndRowsReplaceAndSelect() throws Exception {
        TableChart c = only(PAGE.replace("y=aborts", "y=aborts rows=3,1 labels=\"TicToc, 1T\",\"OCC, 1T\" names=a"
                + " x-title=who"), "aborts.png");

        assertEquals(List.of("TicToc, 1T", "OCC, 1T"), c.categories());
        assertEquals("a", c.series().get(0).name());
        assertEquals("who", c.xTitle());
    }

    @Test
    void aRangeAndAnErrorAreErrorBarsAndAMissingCellNoBar() throws Exception {
        String page = """
                <!-- chart: lines title=T x=#1 y=#2 unit=ns out=t.png missing=skip ref=1 -->
                | what | ns |
                |---|---|
                | a | 10 ± 2 |
                | b | — |
                | c | 4–8 |
                """;
        TableChart c = only(page, "t.png");

        assertEquals(Arrays.asList(10.0, null, 6.0), c.series().get(0).values());
        assertEquals(List.of(2.0, 0.0, 2.0), c.series().get(0).errors());
        XYChart chart = TableChartRenderer.lines(c);
        assertEquals(2, chart.getSeriesMap().get("ns").getXData().length, "no point for the missing cell");
        assertEquals("what", c.xTitle());
    }

    @Test
    void everyKindAndAxisRenders() throws Exception {
        Path page = write("kinds.md", """
                <!-- chart: bars title=A x=protocol y=1,2 unit=txn/s log ref=100 out=bars-log.png -->
                <!-- chart: lines title=B x=protocol y=1,2 unit=txn/s log out=lines-log.png -->
                <!-- chart: lines title=C x=protocol y=1,2 unit=txn/s transpose ref=500 out=lines-ref.png -->
                <!-- chart: bars title=D x=protocol y=1,3 unit=txn/s transpose missing=skip out=bars-gap.png -->
                <!-- chart: bars title=E x=protocol y=zero unit=% out=zeros.png -->
                | protocol | 1 | 2 | 3 | zero |
                |---|---|---|---|---|
                | occ | 10 ± 1 | 200–220 | 5 ± 1 | 0% |
                | tictoc | 12 | 300 | — | 0.0% |
                """);
        TableCharts.PageCharts charts = TableCharts.readPage(page);

        List<Path> written = TableCharts.render(charts);

        assertEquals(5, written.size());
        for (Path png : written) {
            Pngs.read(png);
        }
        CategoryChart bars = TableChartRenderer.bars(charts.charts().get(0));
        assertTrue(bars.getStyler().isYAxisLogarithmic());
        assertEquals(10.0, bars.getStyler().getYAxisMin(), "log bars grow from the power of ten below the least value");
        XYChart ref = TableChartRenderer.lines(charts.charts().get(2));
        assertEquals(525.0, ref.getStyler().getYAxisMax(), 1e-9, "the axis reaches past the reference line");
        assertEquals(1.0, TableChartRenderer.bars(charts.charts().get(4)).getStyler().getYAxisMax(),
                "all zeros: a 0..1 axis");
    }

    @Test
    void aColumnThatIsNotThereIsNamedWithTheColumnsThatAre() throws Exception {
        assertRefused(PAGE.replace("y=aborts", "y=abort"), 7,
                "chart aborts.png: y: no column 'abort' in the table (columns: 'protocol', 'threads',"
                        + " 'txn/s (median; runs)', 'aborts', 'ratio')");
        assertRefused(PAGE.replace("y=aborts", "y=#6"), 7, "chart aborts.png: y=#6: the table has columns #1 to #5");
        assertRefused(PAGE.replace("y=aborts", "y=aborts,#4"), 7, "y: column 'aborts' is named twice");
    }

    @Test
    void aCellThatIsNotANumberIsNamedByItsRow() throws Exception {
        assertRefused(PAGE.replace("| 1.13% |", "| high |"), 12,
                "chart aborts.png: column 'aborts', row 'occ, 2': 'high' is not a number: 'high' does not start with"
                        + " a number");
        assertRefused(PAGE.replace("| 1.13% |", "| — |"), 12,
                "column 'aborts', row 'occ, 2': '—' has no number (missing=skip leaves such cells out)");
        assertRefused(PAGE.replace("| 1.13% |", "| 1.13 ns |"), 12,
                "column 'aborts', row 'occ, 2': '1.13 ns' is in 'ns', but column 'aborts', row 'occ, 1' is in '%'");
        assertRefused(PAGE.replace("out=aborts.png", "out=aborts.png log"), 11,
                "column 'aborts', row 'occ, 1': '0.00%' is not positive, and the y axis is logarithmic");
    }

    @Test
    void labelsMustTellRowsApart() throws Exception {
        assertRefused(PAGE.replace("x=protocol,threads y=aborts", "x=protocol y=aborts"), 7,
                "chart aborts.png: two rows are labelled 'occ' (give labels=, or one more column in x=)");
        assertRefused(PAGE.replace("y=aborts", "y=aborts labels=a,b"), 7,
                "labels has 2 items, but there are 4 rows charted");
        assertRefused(PAGE.replace("y=aborts", "y=aborts rows=5"), 7, "rows: no row 5: the table has 4 rows");
        assertRefused(PAGE.replace("x=protocol,threads y=aborts", "x=threads series=protocol y=aborts names=a"), 7,
                "names has 1 items, but there are 2 series (distinct values of protocol)");
        assertRefused("""
                <!-- chart: bars title=T x=threads series=protocol y=txn/s unit=txn/s out=t.png -->
                | protocol | threads | txn/s |
                |---|---|---|
                | occ | 1 | 10 |
                | occ | 2 | 20 |
                | occ | 2 | 21 |
                """, 6, "chart t.png: this row and line 5 both chart '2' of series 'occ'");
    }

    @Test
    void aDirectiveMustStandAboveATable() throws Exception {
        assertRefused(PAGE.replace("out=aborts.png -->\n", "out=aborts.png -->\nSome prose.\n"), 5,
                "chart throughput.png: no table follows the directive: line 8 is 'Some prose.' (only blank lines and"
                        + " other chart directives may stand between)");
        assertRefused("# Page\n\n<!-- chart: bars title=T x=a y=b unit=u out=t.png -->\n", 3,
                "chart t.png: no table follows the directive: the page ends");
        assertRefused("<!-- chart: bars title=T x=a y=b unit=u out=t.png -->\n```\n| a | b |\n```\n", 1,
                "no table follows the directive: line 2 is '```'");
    }

    @Test
    void aMalformedTableOrCommentIsRefused() throws Exception {
        assertRefused(PAGE.replace("| protocol | threads | txn/s (median; runs) | aborts | ratio |\n", ""), 9,
                "the table has no header row: it starts with a delimiter row (the table of the chart directive on"
                        + " line 5)");
        assertRefused(PAGE.replace("|---|---:|---|---:|---:|\n", ""), 10,
                "the table's second line is not a delimiter row (|---|---|)");
        assertRefused(PAGE.replace("| 0.56% | 2.16× |", "| 0.56% |"), 14, "the row has 4 cells, the header 5");
        assertRefused(PAGE.replace("out=aborts.png", "out=throughput.png"), 7,
                "chart throughput.png: line 5 draws a chart of that name too");
        assertRefused(PAGE.replace("<!-- chart: bars title=\"Aborts\"", "<!-- chart bars title=\"Aborts\""), 7,
                "chart directive: 'chart' must be followed by ':' (<!-- chart: bars ... -->)");
        assertRefused("<!-- chart: bars title=T x=a y=b unit=u out=t.png\n| a | b |\n|---|---|\n", 1,
                "chart directive: the comment is not closed with '-->'");
        assertRefused(PAGE.replace("out=aborts.png -->", "out=aborts.png --> and more"), 7,
                "chart directive: text after '-->'");
        assertRefused(PAGE.replace("out=aborts.png -->", "out=aborts.png pie -->"), 7,
                "chart directive: 'pie' is neither an option (NAME=VALUE) nor a flag (log, transpose)");
    }

    @Test
    void otherCommentsAndTablesAreLeftAlone() throws Exception {
        Path page = write("other.md", "<!-- charts come later -->\n<!-- chartreuse -->\n| a |\n|---|\n| x |\n");

        assertEquals(List.of(), TableCharts.readPage(page).charts());
        assertEquals(List.of(), TableCharts.render(TableCharts.readPage(page)));
        assertFalse(Files.exists(dir.resolve("other")), "no charts folder for a page without directives");
    }

    @Test
    void oneRefusedPageWritesNothingForAnyPage() throws Exception {
        Path good = write("good.md", PAGE.replace("results/charts", "good/charts"));
        Path bad = write("bad.md", PAGE.replace("| 1.13% |", "| high |"));
        Streams streams = new Streams();

        int status = TableCharts.run(new String[] {good.toString(), bad.toString()}, streams.out, streams.err);

        assertEquals(2, status);
        assertEquals("TableCharts: " + bad + ":12: chart aborts.png: column 'aborts', row 'occ, 2': 'high' is not a"
                + " number: 'high' does not start with a number" + System.lineSeparator(), streams.err());
        assertEquals("", streams.out());
        assertFalse(Files.exists(dir.resolve("good")));
    }

    @Test
    void theCommandLineRendersAFolderOfPagesAndChecksThem() throws Exception {
        write("results.md", PAGE);
        write("README.md", "# Index\n");
        Streams render = new Streams();

        assertEquals(0, TableCharts.run(new String[] {dir.toString()}, render.out, render.err), render.err());

        String nl = System.lineSeparator();
        assertEquals("TableCharts: " + dir.resolve("README.md") + ": no chart directives" + nl
                + "TableCharts: " + dir.resolve("results.md") + ": 2 charts in " + dir.resolve("results/charts") + nl,
                render.out());
        Streams check = new Streams();
        assertEquals(0, TableCharts.run(new String[] {"--check", dir.toString()}, check.out, check.err), check.err());
        assertEquals("TableCharts: 2 pages, 2 charts: in order" + nl, check.out());
    }

    @Test
    void checkFindsChartsMissingUnlinkedAndLeftOver() throws Exception {
        Path page = write("results.md", PAGE.replace("![aborts](results/charts/aborts.png)", ""));
        TableCharts.render(TableCharts.readPage(page));
        Path charts = dir.resolve("results/charts");
        Files.delete(charts.resolve("throughput.png"));
        Files.writeString(charts.resolve("old.png"), "x");
        Streams check = new Streams();

        int status = TableCharts.run(new String[] {"--check", page.toString()}, check.out, check.err);

        assertEquals(1, status);
        String nl = System.lineSeparator();
        assertEquals("TableCharts: " + page + ":5: chart throughput.png is not drawn: no " + charts.resolve("throughput.png")
                + " (./jato plot --tables " + page + ")" + nl
                + "TableCharts: " + page + ":7: chart aborts.png is not shown: the page has no image link to"
                + " results/charts/aborts.png (![...](results/charts/aborts.png))" + nl
                + "TableCharts: " + page + ": " + charts.resolve("old.png") + " is drawn by no chart directive of the page"
                + nl, check.err());
        assertEquals("TableCharts: 1 page, 2 charts: 3 problems" + nl, check.out());
    }

    @Test
    void usageErrors() throws Exception {
        Streams none = new Streams();
        assertEquals(2, TableCharts.run(new String[0], none.out, none.err));
        assertTrue(none.err().startsWith("usage: "), none.err());

        Streams onlyCheck = new Streams();
        assertEquals(2, TableCharts.run(new String[] {"--check"}, onlyCheck.out, onlyCheck.err));
        assertTrue(onlyCheck.err().startsWith("TableCharts: no pages given\nusage: "), onlyCheck.err());

        Streams option = new Streams();
        assertEquals(2, TableCharts.run(new String[] {"--force", "x.md"}, option.out, option.err));
        assertTrue(option.err().startsWith("TableCharts: unknown option --force\nusage: "), option.err());

        Streams missing = new Streams();
        Path absent = dir.resolve("absent.md");
        assertEquals(2, TableCharts.run(new String[] {absent.toString()}, missing.out, missing.err));
        assertEquals("TableCharts: " + absent + ": no such file" + System.lineSeparator(), missing.err());

        Streams notMarkdown = new Streams();
        Path text = write("notes.txt", "x");
        assertEquals(2, TableCharts.run(new String[] {text.toString()}, notMarkdown.out, notMarkdown.err));
        assertEquals("TableCharts: " + text + ": not a Markdown page (*.md)" + System.lineSeparator(), notMarkdown.err());
        assertEquals("", none.out() + onlyCheck.out() + option.out() + missing.out() + notMarkdown.out());
    }

    private TableChart only(String text, String out) throws Exception {
        Path page = write("results.md", text);
        for (TableChart c : TableCharts.readPage(page).charts()) {
            if (c.directive().out().equals(out)) {
                return c;
            }
        }
        throw new AssertionError("no chart " + out);
    }

    private void assertRefused(String text, int line, String problem) throws Exception {
        Path page = write("results.md", text);
        ResultsInputException e = assertThrows(ResultsInputException.class, () -> TableCharts.readPage(page));
        assertTrue(e.getMessage().startsWith(page + ":" + line + ": "), "names the page and line " + line + ": "
                + e.getMessage());
        assertTrue(e.getMessage().contains(problem), "says " + problem + ": " + e.getMessage());
    }

    private Path write(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }
}
