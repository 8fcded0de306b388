package io.jato.workloads.ycsb;

import io.jato.records.Commutative;
import io.jato.stm.Txn;

/**
 * Column-index access to {@link YcsbRow} (the generated record has one accessor per column) and
 * the commit-time increment updaters, one immutable instance per column.
 */
final class YcsbColumns {
    static final int COUNT = 10;

    private static final YcsbRow.Updater[] INCREMENTS = new YcsbRow.Updater[COUNT];

    static {
        for (int c = 0; c < COUNT; c++) {
            INCREMENTS[c] = (c & 1) == 0 ? new IncrementEven(c) : new IncrementOdd(c);
        }
    }

    private YcsbColumns() {
    }

    /** @return the shared updater that adds 1 to column {@code c} */
    static YcsbRow.Updater increment(int c) {
        return INCREMENTS[c];
    }

    static long get(Txn txn, YcsbRow r, int c) {
        switch (c) {
            case 0: return r.c0(txn);
            case 1: return r.c1(txn);
            case 2: return r.c2(txn);
            case 3: return r.c3(txn);
            case 4: return r.c4(txn);
            case 5: return r.c5(txn);
            case 6: return r.c6(txn);
            case 7: return r.c7(txn);
            case 8: return r.c8(txn);
            case 9: return r.c9(txn);
            default: throw new IndexOutOfBoundsException(c);
        }
    }

    static void set(Txn txn, YcsbRow r, int c, long v) {
        switch (c) {
            case 0: r.setC0(txn, v); break;
            case 1: r.setC1(txn, v); break;
            case 2: r.setC2(txn, v); break;
            case 3: r.setC3(txn, v); break;
            case 4: r.setC4(txn, v); break;
            case 5: r.setC5(txn, v); break;
            case 6: r.setC6(txn, v); break;
            case 7: r.setC7(txn, v); break;
            case 8: r.setC8(txn, v); break;
            case 9: r.setC9(txn, v); break;
            default: throw new IndexOutOfBoundsException(c);
        }
    }

    static long get(YcsbRow.Image r, int c) {
        switch (c) {
            case 0: return r.c0();
            case 1: return r.c1();
            case 2: return r.c2();
            case 3: return r.c3();
            case 4: return r.c4();
            case 5: return r.c5();
            case 6: return r.c6();
            case 7: return r.c7();
            case 8: return r.c8();
            case 9: return r.c9();
            default: throw new IndexOutOfBoundsException(c);
        }
    }

    static void set(YcsbRow.Image r, int c, long v) {
        switch (c) {
            case 0: r.setC0(v); break;
            case 1: r.setC1(v); break;
            case 2: r.setC2(v); break;
            case 3: r.setC3(v); break;
            case 4: r.setC4(v); break;
            case 5: r.setC5(v); break;
            case 6: r.setC6(v); break;
            case 7: r.setC7(v); break;
            case 8: r.setC8(v); break;
            case 9: r.setC9(v); break;
            default: throw new IndexOutOfBoundsException(c);
        }
    }

    /** Adds 1 to one even column: commutative with every other increment. */
    @Commutative(record = YcsbRowSpec.class, group = "even")
    static final class IncrementEven implements YcsbRow.Updater {
        private final int column;

        IncrementEven(int column) {
            this.column = column;
        }

        @Override
        public void apply(YcsbRow.Image r) {
            set(r, column, get(r, column) + 1);
        }
    }

    /** Adds 1 to one odd column. */
    @Commutative(record = YcsbRowSpec.class, group = "odd")
    static final class IncrementOdd implements YcsbRow.Updater {
        private final int column;

        IncrementOdd(int column) {
            this.column = column;
        }

        @Override
        public void apply(YcsbRow.Image r) {
            set(r, column, get(r, column) + 1);
        }
    }
}
