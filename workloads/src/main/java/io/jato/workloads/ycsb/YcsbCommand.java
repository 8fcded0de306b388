package io.jato.workloads.ycsb;

import io.jato.stm.Stm;
import io.jato.workloads.DurabilityOptions;
import io.jato.workloads.Option;
import io.jato.workloads.Options;
import io.jato.workloads.UsageException;
import io.jato.workloads.Workload;
import io.jato.workloads.WorkloadCommand;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The {@code ycsb} subcommand: validates its options and creates a {@link YcsbWorkload}. */
public final class YcsbCommand implements WorkloadCommand {
    /** The largest table: keys are ints and each record costs about 200 bytes of heap. */
    public static final int MAX_RECORDS = 1 << 30;
    public static final int MAX_COLUMNS = 1024;

    @Override
    public String name() {
        return "ycsb";
    }

    @Override
    public String summary() {
        return "YCSB-A, YCSB-B and the 16-operation transactions of the seed papers";
    }

    @Override
    public String description() {
        return """
                YCSB over one transactional hash map from record id to a row of long columns (YCSB's
                100-byte string fields are modelled as longs). Keys follow a scrambled Zipf law (--keys). An
                update adds 1 to one column. With --layout rows it installs a copy of the row (one
                version per row); with coarse or split the row is a record updated in place, with one
                version or with even/odd column groups, and --writes updater makes the increment a
                blind commit-time update; the record layouts look a transaction's keys up in one
                batch (TxLongHashMap.getAll) before its operations. After the run the check verifies that the columns grew by
                exactly the number of committed increments, per column.

                Mixes:
                  a       50% read / 50% update, one key per transaction (YCSB-A)
                  b       95% read / 5% update, one key per transaction (YCSB-B)
                  txn16   16 operations on distinct keys; each reads or writes one random column
                          (seed papers 000/001; with theta 0.9 and write ratio 0.5: high contention)

                Durability (--durable DIR): the table is kept in a durable store in DIR (see
                docs/durability.md): each write is logged (a row of the rows layout whole, a
                record's written column group); --durability durable (default) returns from each
                writing transaction once it is on disk, async at once. An empty DIR is loaded and
                checkpointed first, a DIR that holds the table is recovered and the run goes on from
                its values (the check then counts growth from where the run started).""";
    }

    @Override
    public List<Option> options() {
        List<Option> options = new ArrayList<>(List.of(
                Option.valued("mix", "MIX", "a, b or txn16 (default a)"),
                Option.valued("records", "N", "records in the table (default 100000)"),
                Option.valued("theta", "THETA", "Zipf skew in [0, 1), 0 = uniform (default 0.99 for a/b, 0.9 for txn16)"),
                Option.valued("write-ratio", "R", "txn16: fraction of operations that write (default 0.5)"),
                Option.valued("columns", "N", "columns per record (default 10; layout rows only may change it)"),
                Option.valued("layout", "L", "rows, coarse or split (default rows): copy-on-write long[] rows, or a"
                        + " record with one version, or with even/odd column groups"),
                Option.valued("writes", "W", "rmw or updater (default rmw): read-modify-write, or a blind"
                        + " commit-time increment (record layouts)"),
                Option.valued("keys", "K", "scrambled or ranked (default scrambled): Zipf ranks hashed to keys as"
                        + " YCSB does, or rank r is key r (the hottest keys first, as the C++ STO draws them)")));
        options.addAll(DurabilityOptions.options());
        return options;
    }

    @Override
    public Workload create(Options o, Stm stm, long seed) throws UsageException {
        DurabilityOptions durability = DurabilityOptions.parse(o);
        YcsbWorkload w = new YcsbWorkload(stm, config(o, seed));
        if (durability != null) {
            w.durable(durability);
        }
        return w;
    }

    /** @return the validated configuration for the parsed options */
    static YcsbWorkload.Config config(Options o, long seed) throws UsageException {
        YcsbMix mix = YcsbMix.byCliName(o.choice("mix", "a", YcsbMix.cliNames()));
        int records = o.intValue("records", 100_000, 1, MAX_RECORDS);
        double theta = o.doubleValue("theta", mix.defaultTheta(), 0, 1, true);
        if (o.has("write-ratio") && mix != YcsbMix.TXN16) {
            throw new UsageException("--write-ratio applies only to --mix txn16 (YCSB-" + mix.cliName().toUpperCase(Locale.ROOT)
                    + " has a fixed mix)");
        }
        double writeRatio = o.doubleValue("write-ratio", mix.defaultWriteRatio(), 0, 1, false);
        int columns = o.intValue("columns", 10, 1, MAX_COLUMNS);
        YcsbLayout layout = YcsbLayout.byCliName(o.choice("layout", "rows", YcsbLayout.cliNames()));
        if (layout.isRecord() && columns != YcsbColumns.COUNT) {
            throw new UsageException("--layout " + layout.cliName() + " stores exactly " + YcsbColumns.COUNT
                    + " columns; --columns applies to --layout rows");
        }
        boolean blind = o.choice("writes", "rmw", List.of("rmw", "updater")).equals("updater");
        if (blind && !layout.isRecord()) {
            throw new UsageException("--writes updater needs a record layout (--layout coarse or split)");
        }
        boolean scrambled = o.choice("keys", "scrambled", List.of("scrambled", "ranked")).equals("scrambled");
        return new YcsbWorkload.Config(mix, records, theta, writeRatio, columns, layout, blind, scrambled, seed);
    }
}
