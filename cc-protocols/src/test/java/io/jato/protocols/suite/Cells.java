package io.jato.protocols.suite;

import io.jato.collections.TxCounter;
import io.jato.collections.TxLong;
import io.jato.collections.TxRef;
import io.jato.stm.Stm;
import io.jato.stm.Txn;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.params.provider.Arguments;

/**
 * A {@code long}-valued transactional cell, implemented over each data type, so that one anomaly
 * scenario (lost update, write skew, torn read, ...) runs against every data type:
 *
 * <ul>
 *   <li>{@code TxLong} — {@code get} / {@code set};</li>
 *   <li>{@code TxRef} — a {@code TxRef<Long>};</li>
 *   <li>{@code TxHashMap}, {@code TxSortedMap}, {@code TxLongSortedMap}, {@code TxLongHashMap} — one
 *       key of a map shared by the scenario's cells ({@link AnyMap});</li>
 *   <li>{@code TxCounter} — {@code get}, and {@code set(v)} as {@code add(v - get())}: the read
 *       makes the commit-time add depend on the value, so the cell behaves like the others.</li>
 * </ul>
 */
public abstract class Cells implements Quiescence.Quiescent {
    /** The data types a cell can be built on. */
    public static final List<String> KINDS = List.of("TxLong", "TxRef", "TxHashMap", "TxSortedMap", "TxLongSortedMap",
            "TxLongHashMap", "TxCounter");

    private Cells() {
    }

    /** @return the value as of {@code txn} */
    public abstract long get(Txn txn);

    /** Sets the value in {@code txn}. */
    public abstract void set(Txn txn, long value);

    /** @return the committed value (non-transactional view) */
    public abstract long committed();

    /** @return every (protocol, cell kind) pair */
    public static Stream<Arguments> protocolsAndKinds() {
        return Protocols.all().flatMap(p -> KINDS.stream().map(k -> Arguments.of(p, k)));
    }

    /** Creates one cell of {@code kind} per initial value, all in {@code stm}. */
    public static Cells[] create(String kind, Stm stm, long... initial) {
        Cells[] cells = new Cells[initial.length];
        AnyMap<Long> map = AnyMap.KINDS.contains(kind) ? AnyMap.create(kind, stm) : null;
        for (int i = 0; i < initial.length; i++) {
            switch (kind) {
                case "TxLong":
                    cells[i] = new LongCell(new TxLong(stm, initial[i]));
                    break;
                case "TxRef":
                    cells[i] = new RefCell(new TxRef<>(stm, initial[i]));
                    break;
                case "TxHashMap":
                case "TxSortedMap":
                case "TxLongSortedMap":
                case "TxLongHashMap":
                    cells[i] = new MapCell(map, "cell-" + i, initial[i]);
                    break;
                case "TxCounter":
                    cells[i] = new CounterCell(new TxCounter(stm, initial[i]));
                    break;
                default:
                    throw new IllegalArgumentException("unknown cell kind " + kind);
            }
        }
        return cells;
    }

    private static final class LongCell extends Cells {
        private final TxLong cell;

        LongCell(TxLong cell) {
            this.cell = cell;
        }

        @Override
        public long get(Txn txn) {
            return cell.get(txn);
        }

        @Override
        public void set(Txn txn, long value) {
            cell.set(txn, value);
        }

        @Override
        public long committed() {
            return cell.single().get();
        }

        @Override
        public String checkQuiescent() {
            return cell.checkQuiescent();
        }
    }

    private static final class RefCell extends Cells {
        private final TxRef<Long> cell;

        RefCell(TxRef<Long> cell) {
            this.cell = cell;
        }

        @Override
        public long get(Txn txn) {
            return cell.get(txn);
        }

        @Override
        public void set(Txn txn, long value) {
            cell.set(txn, value);
        }

        @Override
        public long committed() {
            return cell.single().get();
        }

        @Override
        public String checkQuiescent() {
            return cell.checkQuiescent();
        }
    }

    private static final class MapCell extends Cells {
        private final AnyMap<Long> map;
        private final String key;

        MapCell(AnyMap<Long> map, String key, long initial) {
            this.map = map;
            this.key = key;
            map.singlePut(key, initial);
        }

        @Override
        public long get(Txn txn) {
            Long v = map.get(txn, key);
            if (v == null) {
                throw new IllegalStateException("cell key " + key + " vanished");
            }
            return v;
        }

        @Override
        public void set(Txn txn, long value) {
            map.put(txn, key, value);
        }

        @Override
        public long committed() {
            return map.singleGet(key);
        }

        @Override
        public String checkQuiescent() {
            return map.checkQuiescent();
        }
    }

    private static final class CounterCell extends Cells {
        private final TxCounter cell;

        CounterCell(TxCounter cell) {
            this.cell = cell;
        }

        @Override
        public long get(Txn txn) {
            return cell.get(txn);
        }

        @Override
        public void set(Txn txn, long value) {
            cell.add(txn, value - cell.get(txn));
        }

        @Override
        public long committed() {
            return cell.single().get();
        }

        @Override
        public String checkQuiescent() {
            return cell.checkQuiescent();
        }
    }
}
