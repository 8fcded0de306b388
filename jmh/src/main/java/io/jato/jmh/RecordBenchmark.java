package io.jato.jmh;

import io.jato.collections.TxLong;
import io.jato.collections.TxRef;
import io.jato.records.Commutative;
import io.jato.records.RecordLayout;
import io.jato.stm.Stm;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The generated record's accessors against what a user would write by hand without the
 * processor, each inside a one-record transaction:
 *
 * <ul>
 *   <li>{@code record*} — the generated {@link BenchAccount} (split layout: two groups);</li>
 *   <li>{@code immutable*} — a hand-written class: a {@link TxRef} to an immutable row object,
 *       replaced by a copy on every write (one version per row);</li>
 *   <li>{@code cells*} — a hand-written class with one {@link TxLong} per column (one version per
 *       column: the finest split, four entries per transaction);</li>
 *   <li>{@code plain*} — the same reads and writes of plain fields, no transaction (orientation).</li>
 * </ul>
 * Reads take all four columns of the row ({@code Read4}) or the two of one group ({@code Read2});
 * writes set the two hot columns. {@code recordUpdate} schedules a commit-time updater instead.
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar RecordBenchmark -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class RecordBenchmark {

    /** An immutable row for the copy-on-write hand-written variant. */
    static final class Row {
        final long id;
        final String name;
        final long balance;
        final long count;

        Row(long id, String name, long balance, long count) {
            this.id = id;
            this.name = name;
            this.balance = balance;
            this.count = count;
        }
    }

    /** Adds to the balance and counts: the commit-time form of the hot write. */
    @Commutative(record = BenchAccountSpec.class, group = "hot")
    static final class Deposit implements BenchAccount.Updater {
        private final long amount;

        Deposit(long amount) {
            this.amount = amount;
        }

        @Override
        public void apply(BenchAccount.Image r) {
            r.setBalance(r.balance() + amount);
            r.setCount(r.count() + 1);
        }
    }

    /** One thread's store, objects and preallocated bodies (nothing is shared: no contention). */
    @State(Scope.Thread)
    public static class Subject {
        Stm stm;
        BenchAccount record;
        TxRef<Row> immutable;
        TxLong id;
        TxRef<String> name;
        TxLong balance;
        TxLong count;
        long plainId;
        String plainName = "name";
        long plainBalance;
        long plainCount;

        TxnFunction<Long> recordRead4;
        TxnFunction<Long> recordRead2;
        TxnRunnable recordWrite;
        TxnRunnable recordUpdate;
        TxnFunction<Long> immutableRead4;
        TxnRunnable immutableWrite;
        TxnFunction<Long> cellsRead4;
        TxnRunnable cellsWrite;

        @Setup(Level.Trial)
        public void create() {
            stm = Stm.create();
            record = BenchAccount.create(stm, RecordLayout.SPLIT,
                    new BenchAccount.Image().setId(7).setName("name").setBalance(100).setCount(0));
            immutable = new TxRef<>(stm, new Row(7, "name", 100, 0));
            id = new TxLong(stm, 7);
            name = new TxRef<>(stm, "name");
            balance = new TxLong(stm, 100);
            count = new TxLong(stm, 0);
            Deposit deposit = new Deposit(1);

            recordRead4 = t -> record.id(t) + record.name(t).length() + record.balance(t) + record.count(t);
            recordRead2 = t -> record.balance(t) + record.count(t);
            recordWrite = t -> {
                record.setBalance(t, 5);
                record.setCount(t, 6);
            };
            recordUpdate = t -> record.update(t, deposit);
            immutableRead4 = t -> {
                Row r = immutable.get(t);
                return r.id + r.name.length() + r.balance + r.count;
            };
            immutableWrite = t -> {
                Row r = immutable.get(t);
                immutable.set(t, new Row(r.id, r.name, 5, 6));
            };
            cellsRead4 = t -> id.get(t) + name.get(t).length() + balance.get(t) + count.get(t);
            cellsWrite = t -> {
                balance.set(t, 5);
                count.set(t, 6);
            };
        }
    }

    @Benchmark
    public long recordRead4(Subject s) {
        return s.stm.readOnly(s.recordRead4);
    }

    @Benchmark
    public long recordRead2(Subject s) {
        return s.stm.readOnly(s.recordRead2);
    }

    @Benchmark
    public void recordWrite(Subject s) {
        s.stm.run(s.recordWrite);
    }

    @Benchmark
    public void recordUpdate(Subject s) {
        s.stm.run(s.recordUpdate);
    }

    @Benchmark
    public long immutableRead4(Subject s) {
        return s.stm.readOnly(s.immutableRead4);
    }

    @Benchmark
    public void immutableWrite(Subject s) {
        s.stm.run(s.immutableWrite);
    }

    @Benchmark
    public long cellsRead4(Subject s) {
        return s.stm.readOnly(s.cellsRead4);
    }

    @Benchmark
    public void cellsWrite(Subject s) {
        s.stm.run(s.cellsWrite);
    }

    @Benchmark
    public long plainRead4(Subject s) {
        return s.plainId + s.plainName.length() + s.plainBalance + s.plainCount;
    }

    @Benchmark
    public void plainWrite(Subject s) {
        s.plainBalance = 5;
        s.plainCount = 6;
    }
}
