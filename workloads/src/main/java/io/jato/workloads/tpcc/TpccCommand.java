package io.jato.workloads.tpcc;

import io.jato.stm.Stm;
import io.jato.workloads.Option;
import io.jato.workloads.Options;
import io.jato.workloads.UsageException;
import io.jato.workloads.Workload;
import io.jato.workloads.WorkloadCommand;
import io.jato.workloads.none.NoneProtocol;

import java.util.ArrayList;
import java.util.List;

/** The {@code tpcc} subcommand: validates its options and creates a {@link TpccWorkload}. */
public final class TpccCommand implements WorkloadCommand {
    /** Warehouses are limited by the key layout (12 bits) and, in practice, by heap (~300 MB each). */
    public static final int MAX_WAREHOUSES = 4095;
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
                threads). Each warehouse needs about 300 MB of heap.

                Mix (--mix): standard, or one transaction type alone (new-order, payment,
                order-status, delivery, stock-level), each run by the worker that draws it; the
                consistency conditions are checked the same way after every mix.

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
                (its map) and order-line. Only serializable protocols mix; not with --protocol none.""";
    }

    @Override
    public List<Option> options() {
        return List.of(
                Option.valued("warehouses", "W", "number of warehouses (default 1)"),
                Option.valued("mode", "MODE", "base, ts, cu or cu+ts (default cu+ts)"),
                Option.valued("order-ids", "POLICY", "fast or strict (default fast)"),
                Option.valued("mix", "MIX", "standard, or one type alone: " + String.join(", ",
                        TpccMix.cliNames().subList(1, TpccMix.cliNames().size())) + " (default standard)"),
                Option.valued("table-protocols", "TABLE=PROTOCOL,...", "bind tables (maps and rows) to other"
                        + " serializable protocols, e.g. stock=tictoc (default: all on --protocol); tables: "
                        + TpccTables.tableNames()));
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
        TpccMix.Type only = TpccMix.byCliName(o.choice("mix", TpccMix.STANDARD, TpccMix.cliNames()));
        return new TpccWorkload(stm, warehouses, mode, policy, tables, only, threads, seed);
    }
}
