package io.jato.jmh.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which results share a chart: every param but the protocol splits groups, a thread-tied warehouse count does not. */
class ScalingChartsGroupingTest {
    private static final String READS = "io.jato.jmh.MapReadBenchmark.read";
    private static final Map<String, Double> COUNTS = Map.of("commits", 9000.0, "aborts", 1000.0);

    @TempDir
    Path dir;

    @Test
    void twoModeParamsGiveTwoGroupsWithAllProtocolsInEach() throws Exception {
        JmhJson json = new JmhJson();
        for (String mode : List.of("read", "write")) {
            for (String protocol : List.of("occ", "tictoc")) {
                for (int threads : List.of(1, 2, 4)) {
                    json.add(READS, "thrpt", threads, Map.of("mode", mode, "protocol", protocol, "size", "100"),
                            1000.0 * threads, COUNTS);
                }
            }
        }
        List<ScalingGroup> groups = groups(json);

        assertEquals(2, groups.size());
        assertEquals(List.of(Map.of("mode", "read", "size", "100"), Map.of("mode", "write", "size", "100")),
                groups.stream().map(ScalingGroup::params).toList());
        for (ScalingGroup g : groups) {
            assertEquals(List.of("occ", "tictoc"), g.series().stream().map(ScalingGroup.Series::protocol).toList());
            assertEquals(Set.of(1, 2, 4), g.threadCounts());
        }

        List<Path> written = ScalingCharts.render(dir.resolve("out"), List.of(dir.resolve("in.json")));
        assertEquals(5, written.size(), "two charts per group and the summary: " + written);
        assertEquals(Set.of(
                        "mapreadbenchmark-read-thrpt-mode-read-size-100-throughput.png",
                        "mapreadbenchmark-read-thrpt-mode-read-size-100-aborts.png",
                        "mapreadbenchmark-read-thrpt-mode-write-size-100-throughput.png",
                        "mapreadbenchmark-read-thrpt-mode-write-size-100-aborts.png",
                        ScalingCharts.SUMMARY),
                names(dir.resolve("out")));
        String summary = Files.readString(dir.resolve("out").resolve(ScalingCharts.SUMMARY));
        assertEquals(2, summary.lines().filter(l -> l.startsWith("## ")).count(), summary);
    }

    @Test
    void warehousesTiedToThreadsDoesNotSplitGroupsButACountDoes() throws Exception {
        JmhJson json = new JmhJson();
        for (int threads : List.of(1, 2, 4, 8)) {
            json.add("io.jato.jmh.TpccBenchmark.newOrder", "thrpt", threads,
                    Map.of("protocol", "occ", "warehouses", "threads"), 500.0 * threads, COUNTS);
            json.add("io.jato.jmh.TpccBenchmark.payment", "thrpt", threads,
                    Map.of("protocol", "occ", "warehouses", threads <= 2 ? "1" : "4"), 500.0 * threads, COUNTS);
        }
        List<ScalingGroup> groups = groups(json);

        assertEquals(3, groups.size(), groups.toString());
        ScalingGroup tied = groups.get(0);
        assertEquals("io.jato.jmh.TpccBenchmark.newOrder", tied.benchmark());
        assertEquals(Map.of(), tied.params(), "warehouses=threads is not a group param");
        assertEquals(Set.of(1, 2, 4, 8), tied.series().get(0).points().keySet());
        assertEquals(List.of(Map.of("warehouses", "1"), Map.of("warehouses", "4")),
                groups.subList(1, 3).stream().map(ScalingGroup::params).toList());
    }

    @Test
    void jmhModesAreSeparateGroups() throws Exception {
        JmhJson json = new JmhJson();
        for (int threads : List.of(1, 2)) {
            json.add(READS, "thrpt", threads, Map.of("protocol", "occ"), 1e6, Map.of());
            json.add(READS, "avgt", threads, Map.of("protocol", "occ"), 120.0, Map.of());
        }
        List<ScalingGroup> groups = groups(json);

        assertEquals(List.of("avgt", "thrpt"), groups.stream().map(ScalingGroup::mode).toList());
        assertEquals(List.of("ns/op", "ops/s"), groups.stream().map(ScalingGroup::scoreUnit).toList());
    }

    @Test
    void aGroupWithoutAbortCountersGetsNoAbortsChart() throws Exception {
        JmhJson json = new JmhJson();
        for (int threads : List.of(1, 2, 4)) {
            // A baseline: no protocol param, no @AuxCounters.
            json.add("io.jato.jmh.MapReadBenchmark.hashMap", "thrpt", threads, Map.of("size", "100"), 2e7 * threads,
                    Map.of());
            json.add(READS, "thrpt", threads, Map.of("protocol", "occ", "size", "100"), 1e7 * threads, COUNTS);
        }
        json.write(dir.resolve("in.json"));

        ScalingCharts.render(dir.resolve("out"), List.of(dir.resolve("in.json")));

        Set<String> names = names(dir.resolve("out"));
        assertTrue(names.contains("mapreadbenchmark-hashmap-thrpt-size-100-throughput.png"), names.toString());
        assertFalse(names.contains("mapreadbenchmark-hashmap-thrpt-size-100-aborts.png"), names.toString());
        assertTrue(names.contains("mapreadbenchmark-read-thrpt-size-100-aborts.png"), names.toString());
        String summary = Files.readString(dir.resolve("out").resolve(ScalingCharts.SUMMARY));
        assertFalse(summary.contains("hashmap-thrpt-size-100-aborts.png"), summary);
        // The baseline's one series is named after its method; its cells carry no abort rate.
        assertTrue(summary.contains("| benchmark | 1 thread | 2 threads | 4 threads |"), summary);
        assertTrue(summary.contains("| hashMap | 20,000,000 ops/s | 40,000,000 ops/s | 80,000,000 ops/s |"), summary);
        assertTrue(summary.contains("| occ | 10,000,000 ops/s (10.0% aborts) |"), summary);
    }

    @Test
    void aGroupWithoutProtocolHasOneUnnamedSeries() throws Exception {
        JmhJson json = new JmhJson();
        json.add("io.jato.jmh.MapReadBenchmark.hashMap", "thrpt", 1, Map.of(), 5.0, Map.of());
        ScalingGroup g = groups(json).get(0);

        assertEquals(1, g.series().size());
        assertNull(g.series().get(0).protocol());
        assertEquals("hashMap", g.series().get(0).label(g.benchmark()));
        // One thread count only still renders.
        ScalingCharts.render(dir.resolve("out"), List.of(dir.resolve("in.json")));
        assertTrue(Files.isRegularFile(dir.resolve("out/mapreadbenchmark-hashmap-thrpt-throughput.png")));
    }

    @Test
    void theSamePointInTwoFilesIsRefusedNamingBoth() throws Exception {
        Path a = new JmhJson().add(READS, "thrpt", 2, Map.of("protocol", "occ"), 1.0, Map.of()).write(dir.resolve("a.json"));
        Path b = new JmhJson().add(READS, "thrpt", 2, Map.of("protocol", "occ"), 2.0, Map.of()).write(dir.resolve("b.json"));

        ResultsInputException e = assertThrows(ResultsInputException.class,
                () -> ScalingCharts.render(dir.resolve("out"), List.of(a, b)));
        assertTrue(e.getMessage().contains(a.toString()) && e.getMessage().contains(b.toString()), e.getMessage());
        assertFalse(Files.exists(dir.resolve("out")), "nothing written");
    }

    private List<ScalingGroup> groups(JmhJson json) throws Exception {
        return ScalingGroup.of(JmhResultReader.read(json.write(dir.resolve("in.json"))));
    }

    private static Set<String> names(Path dir) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        }
    }
}
