package io.jato.jmh.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository's benchmark pages ({@code docs/benchmarks/*.md}) keep their charts: every page
 * but the index has chart directives; every directive reads, its table has the columns and rows it
 * names, and every cell it charts is a number; each chart's PNG is there, 800x500, and linked from
 * its page; no PNG in a page's {@code charts/} folder is left from a directive that is gone. An
 * edit that breaks a charted table fails here, with the page, line and problem.
 */
class BenchmarkPagesTest {
    /** The repository root: the POM passes it; the working directory's parent otherwise. */
    static Path root() {
        return Path.of(System.getProperty("jato.root", "..")).toAbsolutePath().normalize();
    }

    @Test
    void everyPageChartsItsTablesAndShowsTheCharts() throws Exception {
        Path docs = root().resolve("docs/benchmarks");
        List<Path> pages;
        try (Stream<Path> files = Files.list(docs)) {
            pages = files.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> !p.getFileName().toString().equals("README.md")).sorted().toList();
        }
        assertTrue(pages.size() >= 17, "found the benchmark pages: " + pages);

        List<TableCharts.PageCharts> charts = TableCharts.read(pages);

        List<String> without = new ArrayList<>();
        for (TableCharts.PageCharts p : charts) {
            if (p.charts().isEmpty()) {
                without.add(root().relativize(p.page()).toString());
            }
            for (TableChart c : p.charts()) {
                Path png = p.dir().resolve(c.directive().out());
                if (Files.exists(png)) {
                    Pngs.read(png);
                }
            }
        }
        assertEquals(List.of(), without, "pages without a chart directive");
        assertEquals(List.of(), TableCharts.problems(charts), "regenerate with ./jato plot --tables docs/benchmarks");
    }
}
