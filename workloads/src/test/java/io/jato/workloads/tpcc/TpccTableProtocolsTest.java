package io.jato.workloads.tpcc;

import io.jato.collections.TxLongHashMap;
import io.jato.collections.TxLongSortedMap;
import io.jato.records.AbstractRecord;
import io.jato.stm.Stm;
import io.jato.stm.spi.Items;
import io.jato.workloads.Cli;
import io.jato.workloads.Cli.Outcome;
import io.jato.workloads.Main;
import io.jato.workloads.Option;
import io.jato.workloads.Options;
import io.jato.workloads.Report;
import io.jato.workloads.RunResult;
import io.jato.workloads.Runner;
import io.jato.workloads.UsageException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --table-protocols}: a short mixed run (some tables on TicToc, the rest on OCC) passes the
 * consistency check with every row of a table, loaded or inserted by the run, bound to that
 * table's protocol; and bad values are usage errors.
 */
class TpccTableProtocolsTest {

    /** Runs {@code tpcc} as {@link Main} does: the same options, store building, command and runner. */
    private static RunResult run(String tableProtocols, TpccWorkload[] workload, Stm[] store) throws UsageException {
        TpccCommand command = new TpccCommand();
        List<Option> declared = new ArrayList<>(List.of(Option.valued("protocol", "NAME", "protocol"),
                Option.valued("threads", "N", "threads")));
        declared.addAll(command.options());
        Options o = Options.parse(declared, new String[] {"--threads", "2", "--mode", "cu+ts",
                "--table-protocols", tableProtocols}, 0);
        Stm.Builder b = Stm.builder().protocol("occ");
        command.objectProtocols(o).forEach(b::objectProtocol);
        Stm stm = b.build();
        workload[0] = (TpccWorkload) command.create(o, stm, 7);
        store[0] = stm;
        Runner.Settings settings = new Runner.Settings(2, TimeUnit.MILLISECONDS.toNanos(100),
                TimeUnit.MILLISECONDS.toNanos(700), Math.max(1, Runtime.getRuntime().availableProcessors()));
        return new Runner(stm, settings, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                .run(workload[0], 7);
    }

    /** @return the protocol domains of the rows of {@code map} */
    private static TreeSet<Integer> domains(TxLongHashMap<? extends AbstractRecord> map) {
        TreeSet<Integer> d = new TreeSet<>();
        map.single().forEach((key, r) -> d.add(Items.domain(r)));
        return d;
    }

    private static TreeSet<Integer> domains(TxLongSortedMap<? extends AbstractRecord> map) {
        TreeSet<Integer> d = new TreeSet<>();
        map.single().forEach((key, r) -> d.add(Items.domain(r)));
        return d;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "stock=tictoc                     | tictoc for stock",
            "customer=tictoc,order-line=tictoc | tictoc for customer, order-line"})
    void aMixedRunPassesTheCheckWithEachTableOnItsProtocol(String tableProtocols, String summary) throws Exception {
        TpccWorkload[] workload = new TpccWorkload[1];
        Stm[] store = new Stm[1];
        RunResult r = run(tableProtocols, workload, store);
        assertTrue(r.check().passed(), r.check().summary());
        assertTrue(r.commits() > 0, "committed " + r.commits());
        assertEquals(List.of("occ", "tictoc"), store[0].protocols());
        assertEquals("occ (+ " + summary + ")", r.protocolSummary());
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        Report.print(r, new PrintStream(text, true, StandardCharsets.UTF_8));
        assertTrue(text.toString(StandardCharsets.UTF_8).contains("protocol     occ (+ " + summary + ")\n"), text::toString);
        String json = Report.json(r);
        assertTrue(json.contains("\"protocol\": \"occ\""), json);
        assertTrue(json.contains("\"protocols\": [\"occ\", \"tictoc\"]"), json);

        TpccDatabase db = workload[0].database();
        TpccTables tables = TpccTables.parse(tableProtocols);
        int tictoc = store[0].protocols().indexOf("tictoc");
        Map<String, TreeSet<Integer>> actual = new java.util.LinkedHashMap<>();
        actual.put("warehouse", domains(db.warehouse));
        actual.put("district", domains(db.district));
        actual.put("customer", domains(db.customer));
        actual.put("history", domains(db.history));
        actual.put("item", domains(db.item));
        actual.put("stock", domains(db.stock));
        actual.put("order", domains(db.order));
        actual.put("order-line", domains(db.orderLine));
        for (Map.Entry<String, TreeSet<Integer>> e : actual.entrySet()) {
            boolean bound = tables.protocol(TpccTables.Table.byCliName(e.getKey())) != null;
            assertEquals(new TreeSet<>(List.of(bound ? tictoc : 0)), e.getValue(), e.getKey());
        }
        // A row the run inserted (not only the loaded ones) is bound too: the ORDER-LINE rows of the
        // orders new-order created, whose ids follow the 3,000 loaded ones.
        OrderLine inserted = db.orderLine.single().get(TpccKeys.orderLine(1, 1, TpccDatabase.ORDERS_PER_DISTRICT + 1, 1));
        if (inserted != null) {
            assertEquals(tables.protocol(TpccTables.Table.ORDER_LINE) != null ? tictoc : 0, Items.domain(inserted));
        }
        // The record of an ORDER is the same object in the NEW-ORDER and by-customer maps.
        assertEquals(domains(db.order), domains(db.newOrder));
        assertEquals(domains(db.order), domains(db.orderByCustomer));
    }

    @Test
    void directlyAStockRowIsOnTicTocAndACustomerRowIsNot() {
        Stm stm = Stm.builder().protocol("occ").objectProtocol("tictoc").build();
        TpccDatabase db = new TpccDatabase(stm, 1, TpccMode.BASE.layout(), 3, TpccOrderIds.Policy.FAST,
                TpccTables.parse("stock=tictoc"));
        db.load(new ThreadsLoader(2), System.currentTimeMillis());
        assertTrue(Items.domain(db.stock.single().get(TpccKeys.stock(1, 1))) != 0);
        assertEquals(0, Items.domain(db.customer.single().get(TpccKeys.customer(1, 1, 1))));
        assertEquals(Map.of("stock", "tictoc"), db.tables().besides("occ"));
    }

    @Test
    void tablesParseAndPrint() {
        TpccTables t = TpccTables.parse(" stock = tictoc , customer=tictoc,new-order=occ");
        assertEquals("customer=tictoc,stock=tictoc,new-order=occ", t.toString());
        assertEquals(List.of("tictoc", "occ"), t.protocols());
        assertEquals(Map.of("customer", "tictoc", "stock", "tictoc"), t.besides("occ"));
        assertEquals(TpccTables.DEFAULT, TpccTables.parse(""));
        assertTrue(TpccTables.DEFAULT.isDefault());
        assertThrows(IllegalArgumentException.class, () -> TpccTables.parse("stock=tictoc,"));
        assertThrows(IllegalArgumentException.class, () -> TpccTables.parse("=tictoc"));
        // The database refuses a protocol its store was not built with.
        Stm occ = Stm.builder().protocol("occ").build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TpccDatabase(occ, 1,
                TpccMode.BASE.layout(), 3, TpccOrderIds.Policy.FAST, TpccTables.parse("stock=tictoc")));
        assertTrue(e.getMessage().contains("tictoc"), e.getMessage());
    }

    private static Outcome main(String... args) {
        return Cli.run(args);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--table-protocols stocks=tictoc  | --table-protocols: unknown table 'stocks'; tables: warehouse, district,"
                    + " customer, history, item, stock, order, new-order, order-line",
            "--table-protocols stock          | --table-protocols: expected TABLE=PROTOCOL pairs separated by commas,"
                    + " got 'stock'",
            "--table-protocols stock=         | --table-protocols: expected TABLE=PROTOCOL pairs separated by commas,"
                    + " got 'stock='",
            "--table-protocols stock=tictoc,,item=tictoc | got ''",
            "--table-protocols stock=tictoc,stock=occ | --table-protocols: table 'stock' is given twice",
            "--table-protocols stock=nope     | --table-protocols: unknown protocol 'nope' for table 'stock'; known"
                    + " protocols: 2pl, adaptive, global-lock, maat, mvcc, none, occ,",
            "--protocol none --threads 1 --table-protocols stock=tictoc | --table-protocols cannot be combined with"
                    + " --protocol none",
            "--table-protocols stock=none     | protocol 'none' has no concurrency control and cannot be mixed",
            "--table-protocols stock=tictoc-si | protocol 'tictoc-si' declares SNAPSHOT_ISOLATION; only serializable",
            "--protocol tictoc-rr --table-protocols stock=tictoc | protocol 'tictoc-rr' declares REPEATABLE_READ",
    })
    void badTableProtocolsAreUsageErrors(String line, String expected) {
        List<String> args = new ArrayList<>(List.of("tpcc"));
        args.addAll(List.of(line.trim().split("\\s+")));
        Cli.assertUsageError(main(args.toArray(new String[0])), "jato tpcc", expected);
    }

    @Test
    void helpDescribesTheOption() {
        Outcome o = main("tpcc", "--help");
        assertEquals(Main.EXIT_OK, o.status(), o.err());
        assertTrue(o.out().contains("--table-protocols TABLE=PROTOCOL,..."), o.out());
        assertTrue(o.out().contains("new-order, order-line"), o.out());
    }
}
