package io.jato.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * YCSB's own client ({@code site.ycsb.Client}, which ends with {@code System.exit}, so in a JVM of
 * its own) running the binding's workload files a to f briefly on two threads, as the
 * documentation's command does: it must exit normally and print its report with every operation
 * successful, and the store's statistics must show one transaction per operation (or per group of
 * operations).
 */
class YcsbClientTest {
    private static final int RECORDS = 2000;
    private static final int OPERATIONS = 3000;
    private static final Pattern LINE = Pattern.compile("^\\[([A-Z_%()\\-]+)], ([^,]+), (.+)$", Pattern.MULTILINE);

    @TempDir
    Path tmp;

    /** The client's standard output and error, and its exit status. */
    private record Run(int exit, String out, String err) {
        /** @return the report's value for {@code [section], name} or null */
        String value(String section, String name) {
            Matcher m = LINE.matcher(out);
            while (m.find()) {
                if (m.group(1).equals(section) && m.group(2).equals(name)) {
                    return m.group(3).trim();
                }
            }
            return null;
        }

        long count(String section, String name) {
            String v = value(section, name);
            return v == null ? 0 : Long.parseLong(v);
        }

        /** @return the {@code Return=...} counts by section, e.g. {@code READ Return=OK -> 10} */
        Map<String, Long> returns() {
            Map<String, Long> r = new TreeMap<>();
            Matcher m = LINE.matcher(out);
            while (m.find()) {
                if (m.group(2).startsWith("Return=")) {
                    r.put(m.group(1) + " " + m.group(2), Long.parseLong(m.group(3).trim()));
                }
            }
            return r;
        }

        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    private Run client(String... args) throws IOException, InterruptedException {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                "site.ycsb.Client"));
        cmd.addAll(Arrays.asList(args));
        Path out = tmp.resolve("out.txt");
        Path err = tmp.resolve("err.txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("the client ran past 180 s: " + String.join(" ", cmd));
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private static String workloadFile(char w) {
        Path dir = Paths.get(System.getProperty("jato.ycsb.workloads", "workloads"));
        Path f = dir.resolve("workload" + w);
        assertTrue(Files.isRegularFile(f), () -> f + " exists");
        return f.toString();
    }

    private Run run(char workload, String... more) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("-t", "-db", JatoYcsbDb.class.getName(), "-P", workloadFile(workload),
                "-threads", "2", "-p", "recordcount=" + RECORDS, "-p", "operationcount=" + OPERATIONS));
        args.addAll(Arrays.asList(more));
        Run r = client(args.toArray(new String[0]));
        assertEquals(0, r.exit(), r::toString);
        assertTrue(r.out().contains("[OVERALL], RunTime(ms)"), r::toString);
        assertTrue(r.out().contains("[OVERALL], Throughput(ops/sec)"), r::toString);
        assertFalse(r.out().contains("-FAILED]"), r::toString);
        assertFalse(r.err().contains("Exception"), r::toString);
        for (Map.Entry<String, Long> e : r.returns().entrySet()) {
            assertTrue(e.getKey().endsWith(" Return=OK"), () -> e + " in\n" + r);
        }
        assertTrue(r.err().contains("[JATO] loaded " + RECORDS + " records"), r::toString);
        return r;
    }

    /**
     * Every workload, one operation per transaction: the store committed one transaction per
     * database call, and the calls add up to operationcount (a read-modify-write is one operation
     * of two calls, which YCSB reports under READ and UPDATE too).
     */
    @ParameterizedTest(name = "workload {0}")
    @CsvSource({"a, READ UPDATE", "b, READ UPDATE", "c, READ", "d, READ INSERT", "e, SCAN INSERT", "f, READ UPDATE"})
    void eachWorkloadRunsWithoutErrors(char workload, String calls) throws Exception {
        Run r = run(workload);
        long total = 0;
        for (String call : calls.split(" ")) {
            long n = r.count(call, "Return=OK");
            assertTrue(n > 0, () -> call + " ran\n" + r);
            total += n;
        }
        assertEquals(total, r.count("JATO", "Commits"), () -> "one transaction per call\n" + r);
        long readModifyWrites = r.count("READ-MODIFY-WRITE", "Operations");
        assertEquals(OPERATIONS, total - readModifyWrites, r::toString);
        if (workload == 'f') {
            assertEquals(r.count("UPDATE", "Return=OK"), readModifyWrites, r::toString);
        }
    }

    /** Several operations per transaction: the report counts transactions, each a Jato commit. */
    @ParameterizedTest(name = "workload {0}, 4 operations per transaction")
    @CsvSource({"a, READ UPDATE", "d, READ INSERT", "e, SCAN INSERT", "f, READ READ-MODIFY-WRITE"})
    void severalOperationsPerTransaction(char workload, String operations) throws Exception {
        Run r = run(workload, "-p", "jato.opspertxn=4", "-p", "jato.protocol=tictoc");
        assertEquals(OPERATIONS, r.count("TXN", "Return=OK"), r::toString);
        assertEquals(OPERATIONS, r.count("JATO", "Commits"), r::toString);
        assertEquals("tictoc", r.value("JATO", "Protocol"));
        long ops = 0;
        for (String op : operations.split(" ")) {
            ops += r.count(op, "Return=OK");
        }
        assertEquals(4L * OPERATIONS, ops, r::toString);
    }

    /** YCSB's plain CoreWorkload works too; the binding then loads in the first database's init. */
    @Test
    void plainCoreWorkload() throws Exception {
        Run r = run('a', "-p", "workload=site.ycsb.workloads.CoreWorkload");
        assertTrue(r.err().contains("inside YCSB's measured run time"), r::toString);
        assertEquals(OPERATIONS, r.count("READ", "Return=OK") + r.count("UPDATE", "Return=OK"));
    }

    /** A load run inserts recordcount records, one transaction each, and loads nothing before. */
    @Test
    void loadRun() throws Exception {
        Run r = client("-load", "-db", JatoYcsbDb.class.getName(), "-P", workloadFile('a'), "-threads", "2", "-p",
                "recordcount=" + RECORDS);
        assertEquals(0, r.exit(), r::toString);
        assertEquals(RECORDS, r.count("INSERT", "Return=OK"), r::toString);
        assertEquals(RECORDS, r.count("JATO", "Commits"), r::toString);
        assertFalse(r.err().contains("[JATO] loaded"), r::toString);
    }
}
