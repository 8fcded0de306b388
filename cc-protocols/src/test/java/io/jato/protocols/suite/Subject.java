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
 * One transactional object of each data type, seen through what the transaction-lifecycle
 * contracts need: a write that changes its visible state, a read, its non-transactional view, and
 * a check that its committed state is still the initial one.
 */
public abstract class Subject implements Quiescence.Quiescent {
    /** The data types under test. */
    public static final List<String> TYPES = List.of("TxRef", "TxLong", "TxCounter", "TxHashMap", "TxSortedMap",
            "TxLongSortedMap", "TxLongHashMap");

    private final String type;

    private Subject(String type) {
        this.type = type;
    }

    /** @return every (protocol, data type) pair */
    public static Stream<Arguments> protocolsAndTypes() {
        return Protocols.all().flatMap(p -> TYPES.stream().map(t -> Arguments.of(p, t)));
    }

    /** Creates a subject of {@code type} in {@code stm}, loaded with its initial state. */
    public static Subject create(String type, Stm stm) {
        switch (type) {
            case "TxRef":
                return new RefSubject(stm);
            case "TxLong":
                return new LongSubject(stm);
            case "TxCounter":
                return new CounterSubject(stm);
            case "TxHashMap":
            case "TxSortedMap":
            case "TxLongSortedMap":
            case "TxLongHashMap":
                return new MapSubject(type, stm);
            default:
                throw new IllegalArgumentException("unknown type " + type);
        }
    }

    /** Changes the visible state (every kind of write the type has). */
    public abstract void write(Txn txn);

    /** Reads the state. */
    public abstract Object read(Txn txn);

    /** @return true if the committed state is the initial one (checked through the single() view) */
    public abstract boolean pristine();

    /** @return the committed state, for messages (through the single() view) */
    public abstract String describe();

    /** A read through the non-transactional view. */
    public abstract Object singleRead();

    /** A write through the non-transactional view. */
    public abstract void singleWrite();

    @Override
    public String toString() {
        return type;
    }

    private static final class RefSubject extends Subject {
        private final TxRef<String> ref;

        RefSubject(Stm stm) {
            super("TxRef");
            ref = new TxRef<>(stm, "initial");
        }

        @Override
        public void write(Txn txn) {
            ref.set(txn, "written");
        }

        @Override
        public Object read(Txn txn) {
            return ref.get(txn);
        }

        @Override
        public boolean pristine() {
            return "initial".equals(ref.single().get());
        }

        @Override
        public String describe() {
            return String.valueOf(ref.single().get());
        }

        @Override
        public Object singleRead() {
            return ref.single().get();
        }

        @Override
        public void singleWrite() {
            ref.single().set("single");
        }

        @Override
        public String checkQuiescent() {
            return ref.checkQuiescent();
        }
    }

    private static final class LongSubject extends Subject {
        private final TxLong cell;

        LongSubject(Stm stm) {
            super("TxLong");
            cell = new TxLong(stm, 7);
        }

        @Override
        public void write(Txn txn) {
            cell.set(txn, 8);
            cell.addAndGet(txn, 1);
        }

        @Override
        public Object read(Txn txn) {
            return cell.get(txn);
        }

        @Override
        public boolean pristine() {
            return cell.single().get() == 7;
        }

        @Override
        public String describe() {
            return Long.toString(cell.single().get());
        }

        @Override
        public Object singleRead() {
            return cell.single().get();
        }

        @Override
        public void singleWrite() {
            cell.single().set(1);
        }

        @Override
        public String checkQuiescent() {
            return cell.checkQuiescent();
        }
    }

    private static final class CounterSubject extends Subject {
        private final TxCounter counter;

        CounterSubject(Stm stm) {
            super("TxCounter");
            counter = new TxCounter(stm, 100);
        }

        @Override
        public void write(Txn txn) {
            counter.add(txn, 5);
        }

        @Override
        public Object read(Txn txn) {
            return counter.get(txn);
        }

        @Override
        public boolean pristine() {
            return counter.single().get() == 100;
        }

        @Override
        public String describe() {
            return Long.toString(counter.single().get());
        }

        @Override
        public Object singleRead() {
            return counter.single().get();
        }

        @Override
        public void singleWrite() {
            counter.single().add(1);
        }

        @Override
        public String checkQuiescent() {
            return counter.checkQuiescent();
        }
    }

    /** Starts with keys "keep" and "gone"; a write updates one, deletes the other, inserts "new". */
    private static final class MapSubject extends Subject {
        private final AnyMap<String> map;

        MapSubject(String type, Stm stm) {
            super(type);
            map = AnyMap.create(type, stm);
            map.singlePut("keep", "k0");
            map.singlePut("gone", "g0");
        }

        @Override
        public void write(Txn txn) {
            map.put(txn, "keep", "k1");
            map.remove(txn, "gone");
            map.put(txn, "new", "n1");
        }

        @Override
        public Object read(Txn txn) {
            return map.get(txn, "keep") + "," + map.get(txn, "gone") + "," + map.get(txn, "new");
        }

        @Override
        public boolean pristine() {
            return map.contents().equals(java.util.Map.of("keep", "k0", "gone", "g0"));
        }

        @Override
        public String describe() {
            return map.contents().toString();
        }

        @Override
        public Object singleRead() {
            return map.singleGet("keep");
        }

        @Override
        public void singleWrite() {
            map.singlePut("keep", "single");
        }

        @Override
        public String checkQuiescent() {
            return map.checkQuiescent();
        }
    }
}
