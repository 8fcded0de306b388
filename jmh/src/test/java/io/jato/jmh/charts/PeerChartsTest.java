package io.jato.jmh.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;

/**
 * {@link PeerCharts} on small JMH result files shaped like the peer comparison's: the files it
 * writes (real PNGs of the agreed size and a summary whose tables hold the inputs' numbers), how
 * results become transactions and systems, the log axis, the colours, and the input it refuses.
 */
class PeerChartsTest {
    private static final String COUNTER = "io.jato.jmh.PeerCounterBenchmark.";
    private static final String MAP = "io.jato.jmh.PeerMapBenchmark.";
    private static final String RW16 = "io.jato.jmh.PeerReadWrite16Benchmark.";

    @TempDir
    Path dir;

    /** One thread count's results: two transactions, Jato with its protocol param, the peers without. */
    private Path results(String name, int threads, double factor) throws Exception {
        Map<String, String> occ = Map.of("protocol", "occ");
        Map<String, String> map = Map.of("keys", "10000", "writePercent", "20");
        Map<String, String> jatoMap = Map.of("keys", "10000", "writePercent", "20", "protocol", "occ");
        return new JmhJson()
                .add(COUNTER + "globalLock", "avgt", threads, Map.of(), 15 * factor, Map.of())
                .add(COUNTER + "jato", "avgt", threads, occ, 40 * factor, Map.of())
                .add(COUNTER + "scalaStm", "avgt", threads, Map.of(), 1200 * factor, Map.of())
                .add(MAP + "jato", "avgt", threads, jatoMap, 250 * factor, Map.of())
                .add(MAP + "mvstore", "avgt", threads, map, 300 * factor, Map.of())
                .write(dir.resolve(name));
    }

    @Test
    void writesAChartPerThreadCountAndPerTransactionAndTheSummaryLast() throws Exception {
        Path out = dir.resolve("out");
        List<Path> written = PeerCharts.render(out, List.of(results("t1.json", 1, 1), results("t2.json", 2, 3)));

        assertEquals(List.of(out.resolve("peers-t1.png"), out.resolve("peers-t2.png"),
                out.resolve("peers-counter.png"), out.resolve("peers-map.png"), out.resolve(PeerCharts.SUMMARY)),
                written);
        for (Path png : written.subList(0, 4)) {
            Pngs.read(png);
        }
        try (Stream<Path> left = Files.list(out)) {
            assertEquals(5, left.count(), "the staging directory is gone, nothing else is there");
        }
        String summary = Files.readString(out.resolve(PeerCharts.SUMMARY));
        assertTrue(summary.contains("![1 thread](peers-t1.png)\n![2 threads](peers-t2.png)\n"), summary);
        assertTrue(summary.contains("## Counter\n\nBenchmark `io.jato.jmh.PeerCounterBenchmark`.\n\n"
                + "![Counter](peers-counter.png)\n\n"
                + "| system | 1 thread | 2 threads |\n|---|---:|---:|\n"
                + "| jato | 40 | 120 |\n| scalaStm | 1,200 | 3,600 |\n| globalLock | 15 | 45 |\n"), summary);
        assertTrue(summary.contains("## Map\n\nBenchmark `io.jato.jmh.PeerMapBenchmark`, params "
                + "`{keys=10000, writePercent=20}`.\n\n![Map](peers-map.png)\n\n"
                + "| system | 1 thread | 2 threads |\n|---|---:|---:|\n| jato | 250 | 750 |\n| mvstore | 300 | 900 |\n"),
                summary);
        assertTrue(summary.contains("Mode avgt, time per transaction (lower is better)"), summary);
    }

    @Test
    void systemsComeInFamilyOrderWithTheirProtocolOnlyWhereSeveralRan() throws Exception {
        Path in = new JmhJson()
                .add(COUNTER + "mvstore", "avgt", 1, Map.of(), 9000, Map.of())
                .add(COUNTER + "jatoCounter", "avgt", 1, Map.of("protocol", "occ"), 30, Map.of())
                .add(COUNTER + "clojureCommute", "avgt", 1, Map.of(), 4000, Map.of())
                .add(COUNTER + "jato", "avgt", 1, Map.of("protocol", "tictoc"), 45, Map.of())
                .add(COUNTER + "jato", "avgt", 1, Map.of("protocol", "occ"), 40, Map.of())
                .add(COUNTER + "zeta", "avgt", 1, Map.of(), 10, Map.of())
                .add(COUNTER + "clojure", "avgt", 1, Map.of(), 3000, Map.of())
                .write(dir.resolve("protocols.json"));
        PeerBars bars = PeerBars.of(JmhResultReader.read(in));

        assertEquals(List.of("jato (occ)", "jato (tictoc)", "jatoCounter (occ)", "clojure", "clojureCommute",
                "mvstore", "zeta"), bars.systems());
        assertEquals(1, bars.transactions().size());
        assertEquals(45, bars.transactions().get(0).result("jato (tictoc)", 1).score());
    }

    @Test
    void aParamThatDiffersWithinAClassMakesSeparateTransactions() throws Exception {
        Path in = new JmhJson()
                .add(RW16 + "jato", "avgt", 1, Map.of("keys", "10000", "writePercent", "50"), 900, Map.of())
                .add(RW16 + "jato", "avgt", 1, Map.of("keys", "10000", "writePercent", "5"), 500, Map.of())
                .add(RW16 + "scalaStm", "avgt", 1, Map.of("keys", "10000", "writePercent", "50"), 800, Map.of())
                .add(COUNTER + "jato", "avgt", 1, Map.of(), 40, Map.of())
                .write(dir.resolve("params.json"));
        PeerBars bars = PeerBars.of(JmhResultReader.read(in));

        assertEquals(List.of("Counter", "ReadWrite16 writePercent=5", "ReadWrite16 writePercent=50"),
                bars.transactions().stream().map(PeerBars.Transaction::label).toList());
        assertEquals(List.of("peers-counter", "peers-readwrite16-writepercent-5", "peers-readwrite16-writepercent-50"),
                bars.transactions().stream().map(PeerBars.Transaction::slug).toList());
        assertEquals(List.of("jato"), bars.transactions().get(1).systems(bars.systems()));
    }

    @Test
    void theAxisIsLogarithmicOnlyWhereTheValuesSpreadWide() throws Exception {
        PeerBars bars = PeerBars.of(JmhResultReader.readAll(List.of(results("t1.json", 1, 1))));
        // Counter: 15 to 1,200 (80 times); Map: 250 to 300.
        CategoryChart counter = PeerCharts.byThreads(bars, bars.transactions().get(0));
        CategoryChart map = PeerCharts.byThreads(bars, bars.transactions().get(1));
        CategoryChart all = PeerCharts.byTransaction(bars, 1);

        assertTrue(counter.getStyler().isYAxisLogarithmic());
        assertTrue(counter.getStyler().getYAxisMin() < 15, "the shortest bar shows: " + counter.getStyler().getYAxisMin());
        assertFalse(map.getStyler().isYAxisLogarithmic());
        assertEquals(0.0, map.getStyler().getYAxisMin());
        assertTrue(all.getStyler().isYAxisLogarithmic());
        assertTrue(counter.getYAxisTitle().endsWith(", log scale"), counter.getYAxisTitle());
        assertFalse(map.getYAxisTitle().contains("log"), map.getYAxisTitle());
    }

    @Test
    void aSystemHasOneColourOnEveryChart() throws Exception {
        PeerBars bars = PeerBars.of(JmhResultReader.readAll(List.of(results("t1.json", 1, 1))));
        CategoryChart all = PeerCharts.byTransaction(bars, 1);
        CategoryChart map = PeerCharts.byThreads(bars, bars.transactions().get(1));

        assertEquals(List.of("jato", "scalaStm", "mvstore", "globalLock"), List.copyOf(all.getSeriesMap().keySet()));
        assertEquals(List.of("jato", "mvstore"), List.copyOf(map.getSeriesMap().keySet()));
        for (String system : map.getSeriesMap().keySet()) {
            assertEquals(all.getSeriesMap().get(system).getFillColor(), map.getSeriesMap().get(system).getFillColor(),
                    system);
        }
        assertFalse(all.getSeriesMap().get("jato").getFillColor().equals(all.getSeriesMap().get("mvstore").getFillColor()));
    }

    @Test
    void resultsInDifferentModesAreRefusedAndNothingIsWritten() throws Exception {
        Path in = new JmhJson()
                .add(COUNTER + "jato", "avgt", 1, Map.of(), 40, Map.of())
                .add(COUNTER + "scalaStm", "thrpt", 1, Map.of(), 9e5, Map.of())
                .write(dir.resolve("modes.json"));
        Path out = dir.resolve("out");

        ResultsInputException e = assertThrows(ResultsInputException.class, () -> PeerCharts.render(out, List.of(in)));
        assertTrue(e.getMessage().contains("different modes or units"), e.getMessage());
        assertFalse(Files.exists(out));
    }

    @Test
    void theSamePointTwiceIsRefused() throws Exception {
        Path a = results("a.json", 1, 1);
        Path b = results("b.json", 1, 2);

        ResultsInputException e = assertThrows(ResultsInputException.class,
                () -> PeerCharts.render(dir.resolve("out"), List.of(a, b)));
        assertTrue(e.getMessage().contains("two results for the same point"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("out")));
    }

    @Test
    void theCommandLineRefusesAsTheOtherTools() throws Exception {
        Refusals.assertUsageErrors(PeerCharts.COMMAND, dir, results("t1.json", 1, 1));
        Refusals.assertRefused(PeerCharts.COMMAND, dir.resolve("out"), dir.resolve("missing.json"), "no such file");
    }

    @Test
    void transactionNamesDropThePeerAndBenchmarkOfTheClass() {
        assertEquals("ReadOnlySum", PeerBars.transactionName("io.jato.jmh.PeerReadOnlySumBenchmark"));
        assertEquals("Transfer", PeerBars.transactionName("io.jato.jmh.TransferBenchmark"));
        assertEquals("Peer", PeerBars.transactionName("x.Peer"));
        assertEquals("Benchmark", PeerBars.transactionName("x.Benchmark"));
        assertEquals("PeerBenchmark", PeerBars.transactionName("x.PeerBenchmark"));
    }
}
