package io.jato.protocols.records;

import io.jato.records.RecordLayout;
import io.jato.stm.Stm;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Which version item each group of a record uses: with the split layout every group has its own
 * (group 0 the record, group 1 a field, groups 2 and up an array), so a commit to one group leaves
 * a reader of any other valid; with the coarse layout they share one, so it does not. Checked
 * for every group of a four-group record.
 */
class RecordGroupItemsTest {

    /** Reads group {@code read}, lets another thread commit to group {@code write}, commits; returns attempts. */
    private static int attemptsOfReaderAcrossAWriteTo(Stm stm, Quad q, int read, int write) {
        int[] attempts = new int[1];
        stm.run(t -> {
            attempts[0]++;
            long seen = get(q, t, read);
            if (attempts[0] == 1) {
                Thread w = new Thread(() -> stm.run(o -> set(q, o, write, get(q, o, write) + 1)));
                w.start();
                try {
                    w.join(10_000);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
            // A write makes the transaction commit, so its read is validated.
            set(q, t, read, seen);
        });
        return attempts[0];
    }

    private static long get(Quad q, io.jato.stm.Txn t, int g) {
        switch (g) {
            case 0: return q.a(t);
            case 1: return q.b(t);
            case 2: return q.c(t);
            default: return q.d(t);
        }
    }

    private static void set(Quad q, io.jato.stm.Txn t, int g, long v) {
        switch (g) {
            case 0: q.setA(t, v); break;
            case 1: q.setB(t, v); break;
            case 2: q.setC(t, v); break;
            default: q.setD(t, v); break;
        }
    }

    @ParameterizedTest
    @EnumSource(RecordLayout.class)
    void eachGroupHasItsOwnItemWhenSplitAndSharesOneWhenCoarse(RecordLayout layout) {
        Stm stm = Stm.create();
        Quad q = Quad.create(stm, layout, new Quad.Image());
        for (int read = 0; read < 4; read++) {
            for (int write = 0; write < 4; write++) {
                int attempts = attemptsOfReaderAcrossAWriteTo(stm, q, read, write);
                boolean conflict = read == write || layout == RecordLayout.COARSE;
                assertEquals(conflict ? 2 : 1, attempts, layout + ": read group " + read + ", write group " + write);
            }
        }
        assertEquals(16, stm.readOnly(q::a) + stm.readOnly(q::b) + stm.readOnly(q::c) + stm.readOnly(q::d),
                "every writer's increment committed once");
        assertNull(q.checkQuiescent());
    }
}
