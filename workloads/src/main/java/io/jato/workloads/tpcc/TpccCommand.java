package io.jato.workloads.tpcc;


import io.jato.stm.Stm;
import io.jato.workloads.DurabilityOptions;
import io.jato.workloads.Option;
import io.jato.workloads.Options;
import io.jato.workloads.UsageException;
import io.jato.workloads.Workload;
import io.jato.workloads.WorkloadCommand;
import io.jato.workloads.none.NoneProtocol;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The {@code tpcc} subcommand: validates its options and creates a {@link TpccWorkload}. */
public final class TpccCommand implements WorkloadCommand {
    /** Warehouses are limited by the key layout (12 bits) and, in practice, by heap (about 256 MiB each). */
    public static final int MAX_WAREHOUSES = 4095;
    /*
     * The heap check: a floor that refuses what cannot work, not a promise that a run fits.
     * Measured (cu+ts, the default mode; base needs less) as the live heap after loading and a
     * full GC: 254, 475, 913, 1,789 and 4,397 MiB for 1, 2, 4, 8 and 20 warehouses, i.e. about
     * 218 MiB per warehouse plus 35 MiB; 256 MiB per warehouse leaves room for the loaders'
     * garbage. A run then grows with what it commits, not with the warehouses: about 1.2 KB per
     * committed transaction (new orders and their lines, history rows). A default run (2 threads,
     * 2 s warm-up and 10 s measured) commits 35,000 to 95,000 transactions a second on 2 cores,
     * busy or idle, and grows by 0.5 to 1.3 GiB; 512 MiB for the run covers the busy case and any
     * short run. So, on the 6,028 MiB default heap of a 24 GB machine, the check admits up to 21
     * warehouses (about 4,600 MiB live after loading; a 21-warehouse default run on a busy machine
     * ended with 5,275 MiB in use and passed its check), and refuses 40 at once instead of
     * letting the loaders run out of heap. A run longer or faster than that may still run out of
     * heap while it runs; Main then says so and how to give the JVM more.
     */
    /** The heap each warehouse needs once loaded, with room for the loaders' garbage. */
    static final long HEAP_PER_WAREHOUSE = 256L << 20;
    /** The heap a short run, or a default one on a busy machine, adds to the loaded database. */
    static final long HEAP_FOR_THE_RUN = 512L << 20;
    private static final String TABLE_PROTOCOLS = "table-protocols";

    @Override
    public String name() {
        return "tpcc";
    }

    @Override
    public String summary() {
        return "TPC-C: all five transactions, standard mix, deferred delivery, consistency checks";
    }

    @Override
    public String description() {
        return """
                TPC-C with all nine tables (spec cardinalities, NURand data) and the standard mix:
                new-order 45%, payment 43%, order-status, delivery and stock-level 4% each, with 1%
                new-order rollbacks, remote lines and payments when there are several warehouses, and
                deliveries queued per warehouse and run by that warehouse's owning worker. After the
                run, consistency conditions 1-10 and 12 of clause 3.3.2 are checked; a violation fails
                the run and names the condition, warehouse and district.

                Modes (--mode): base = one version per row; ts = rows split into field groups
                (timestamp splitting); cu = commit-time updaters for YTDs, customer payment and
                delivery, order carrier, order-line delivery date and stock; cu+ts = both.
                A worker serves one warehouse (or several, when there are more warehouses than
                threads). Each warehouse needs about 256 MiB of heap, and the run 512 MiB more: a
                smaller maximum heap is refused before loading (give the JVM more with
                JAVA_OPTS=-Xmx...g). A long run grows by about 1.2 KB per commit.

                Mix (--mix): standard, or one transaction type alone (new-order, payment,
                order-status, delivery, stock-level), each run by the worker that draws it, or
                weights of your own (TYPE=WEIGHT,..., relative to their sum; types not named weigh 0),
                e.g. a mix dominated by read-only transactions: new-order=10,payment=10,
                order-status=40,stock-level=40. Deliveries of a weighted mix are deferred as in the
                standard one. The consistency conditions are checked the same way after every mix.

                Order ids (--order-ids): fast = Silo's fast order id, a per-district counter
                outside the transaction, so new-orders of one district do not conflict on
                D_NEXT_O_ID (ids of rolled-back new-orders become gaps, which the checks of
                conditions 2 and 3 account for exactly); strict = read-modify-write of
                D_NEXT_O_ID inside new-order, contiguous ids, conditions 2 and 3 as written.

                Tables on other protocols (--table-protocols TABLE=PROTOCOL,...): the store is built
                with each protocol named besides --protocol, and each table's maps and rows are
                bound to its protocol, e.g. stock=tictoc,customer=tictoc; transactions span tables
                of both. Tables: warehouse, district, customer (with the by-last-name index),
                history, item, stock, order (its records and the by-customer index), new-order
                (its map) and order-line. Only serializable protocols mix; not with --protocol none.

                Durability (--durable DIR): the tables are kept in a durable store in DIR (see
                docs/durability.md): every insert and every row update is logged by a logger thread
                in epochs (group commit); --durability durable (default) returns from each writing
                transaction once it is on disk, async at once. An empty DIR is loaded and
                checkpointed first; a DIR that holds the tables is recovered and the run goes on from
                its state (the check line reports what was recovered). --checkpoint SECONDS takes
                background checkpoints (default 0: only the one after loading).""";
    }

    @Override
    public List<Option> options() {
        List<Option> options = new ArrayList<>(List.of(
                Option.valued("warehouses", "W", "number of warehouses (default 1)"),
                Option.valued("mode", "MODE", "base, ts, cu or cu+ts (default cu+ts)"),
                Option.valued("order-ids", "POLICY", "fast or strict (default fast)"),
                Option.valued("mix", "MIX", "standard, one type alone (" + String.join(", ",
                        TpccMix.cliNames().subList(1, TpccMix.cliNames().size())) + "), or weights TYPE=W,..."
                        + " (e.g. new-order=10,payment=10,order-status=40,stock-level=40; default standard)"),
                Option.valued("table-protocols", "TABLE=PROTOCOL,...", "bind tables (maps and rows) to other"
                        + " serializable protocols, e.g. stock=tictoc (default: all on --protocol); tables: "
                        + TpccTables.tableNames())));
        options.addAll(DurabilityOptions.options());
        return options;
    }

    /** @return the five transaction types, as they are named on the command line */
    @Override
    public List<String> txnTypes() {
        List<String> names = new ArrayList<>();
        for (TpccMix.Type t : TpccMix.Type.values()) {
            names.add(t.cliName());
        }
        return names;
    }

    /** @return the protocols {@code --table-protocols} names */
    @Override
    public List<String> objectProtocols(Options o) throws UsageException {
        return tables(o).protocols();
    }

    /** Parses and checks {@code --table-protocols}: tables, protocol names, and not with {@code --protocol none}. */
    private static TpccTables tables(Options o) throws UsageException {
        if (!o.has(TABLE_PROTOCOLS)) {
            return TpccTables.DEFAULT;
        }
        TpccTables tables;
        try {
            tables = TpccTables.parse(o.string(TABLE_PROTOCOLS, ""));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--" + TABLE_PROTOCOLS + ": " + e.getMessage());
        }
        List<String> known = Stm.availableProtocols();
        for (TpccTables.Table t : TpccTables.Table.values()) {
            String p = tables.protocol(t);
            if (p != null && !known.contains(p)) {
                throw new UsageException("--" + TABLE_PROTOCOLS + ": unknown protocol '" + p + "' for table '"
                        + t.cliName() + "'; known protocols: " + String.join(", ", known));
            }
        }
        if (!tables.isDefault() && o.string("protocol", "occ").equals(NoneProtocol.NAME)) {
            throw new UsageException("--" + TABLE_PROTOCOLS + " cannot be combined with --protocol "
                    + NoneProtocol.NAME + " (no concurrency control to mix with other protocols)");
        }
        return tables;
    }

    @Override
    public Workload create(Options o, Stm stm, long seed) throws UsageException {
        int warehouses = o.intValue("warehouses", 1, 1, MAX_WAREHOUSES);
        List<String> modes = new ArrayList<>();
        for (TpccMode m : TpccMode.values()) {
            modes.add(m.cliName());
        }
        String modeName = o.choice("mode", TpccMode.CU_TS.cliName(), modes);
        TpccMode mode = null;
        for (TpccMode m : TpccMode.values()) {
            if (m.cliName().equals(modeName)) {
                mode = m;
            }
        }
        List<String> policies = new ArrayList<>();
        for (TpccOrderIds.Policy p : TpccOrderIds.Policy.values()) {
            policies.add(p.cliName());
        }
        String policyName = o.choice("order-ids", TpccOrderIds.Policy.FAST.cliName(), policies);
        TpccOrderIds.Policy policy = TpccOrderIds.Policy.FAST;
        for (TpccOrderIds.Policy p : TpccOrderIds.Policy.values()) {
            if (p.cliName().equals(policyName)) {
                policy = p;
            }
        }
        TpccTables tables = tables(o);
        for (String p : tables.protocols()) {
            if (!stm.protocols().contains(p)) {
                throw new UsageException("--" + TABLE_PROTOCOLS + ": the store has no protocol '" + p
                        + "'; its protocols: " + String.join(", ", stm.protocols()));
            }
        }
        int threads = o.intValue("threads", 2, 1, Integer.MAX_VALUE);
        TpccMix.Type only = null;
        int[] weights = TpccMix.standardWeights();
        String mix = o.string("mix", TpccMix.STANDARD);
        if (mix.contains("=")) {
            try {
                weights = TpccMix.parseWeights(mix);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--mix: " + e.getMessage());
            }
        } else {
            only = TpccMix.byCliName(o.choice("mix", TpccMix.STANDARD, TpccMix.cliNames()));
        }
        DurabilityOptions durability = DurabilityOptions.parse(o);
        // Last, so that a mistyped option is named first; before the workload, which allocates.
        checkHeap(warehouses, Runtime.getRuntime().maxMemory());
        TpccWorkload w = new TpccWorkload(stm, warehouses, mode, policy, tables, only, weights, threads, seed);
        if (durability != null) {
            w.durable(durability.dir(), durability.mode(), durability.checkpointMillis());
        }
        return w;
    }

    /**
     * Refuses a run whose database cannot fit: without the check, loaders run out of heap one
     * after the other, and what the user sees is the JVM's own {@code OutOfMemoryError} lines.
     *
     * @param maxHeap the JVM's maximum heap in bytes ({@code Runtime.maxMemory()}; {@code
     *                Long.MAX_VALUE} when it has no limit)
     * @throws UsageException if {@code maxHeap} is below {@code warehouses * HEAP_PER_WAREHOUSE + HEAP_FOR_THE_RUN};
     *                        the message names both and the {@code -Xmx} that would do
     */
    static void checkHeap(int warehouses, long maxHeap) throws UsageException {
        long needed = warehouses * HEAP_PER_WAREHOUSE + HEAP_FOR_THE_RUN;
        if (maxHeap >= needed) {
            return;
        }
        long gib = (needed + (1L << 30) - 1) >> 30;
        throw new UsageException(warehouses + (warehouses == 1 ? " warehouse needs" : " warehouses need")
                + " about " + size(needed) + " of heap (" + (HEAP_PER_WAREHOUSE >> 20) + " MiB each and "
                + (HEAP_FOR_THE_RUN >> 20) + " MiB for the run), but the JVM's maximum heap is " + size(maxHeap)
                + "; give it more with -Xmx" + gib + "g, e.g. JAVA_OPTS=-Xmx" + gib + "g ./jato tpcc --warehouses "
                + warehouses + " ..." + (warehouses > 1 ? ", or use fewer warehouses" : ""));
    }

    /** @return {@code bytes} in MiB below a GiB, else in GiB with one decimal */
    private static String size(long bytes) {
        return bytes < 1L << 30 ? (bytes >> 20) + " MiB"
                : String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
}
