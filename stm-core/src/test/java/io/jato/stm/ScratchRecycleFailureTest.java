package io.jato.stm;

import io.jato.stm.spi.Scratch;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A pooled scratch object whose {@code recycle} throws (a data-type bug) when its attempt ends:
 * the throwable the caller was getting stays the primary one, and the pool stays consistent, so
 * the thread's next transactions borrow and recycle normally. Before, the recycle failure replaced
 * the body's exception, and the pool kept the use counts of the kinds not yet recycled, so the next
 * attempt found borrowed objects it had never borrowed (and never recycled them again).
 */
class ScratchRecycleFailureTest {

    static final class Faulty implements Scratch.Pooled {
        static final List<Faulty> made = new ArrayList<>();
        boolean throwOnRecycle;
        int recycles;

        Faulty() {
            made.add(this);
        }

        @Override
        public void recycle() {
            recycles++;
            if (throwOnRecycle) {
                throwOnRecycle = false;
                throw new IllegalStateException("recycle failed");
            }
        }
    }

    static final class Other implements Scratch.Pooled {
        int recycles;

        @Override
        public void recycle() {
            recycles++;
        }
    }

    private static final Scratch<Faulty> FAULTY = Scratch.of(Faulty::new);
    private static final Scratch<Other> OTHER = Scratch.of(Other::new);

    @Test
    void aThrowingRecycleNeitherHidesTheBodysExceptionNorCorruptsThePool() {
        Stm stm = Stm.create();
        Other[] other = new Other[1];
        IllegalArgumentException user = new IllegalArgumentException("body");
        Throwable thrown = assertThrows(Throwable.class, () -> stm.run(t -> {
            TxnContext ctx = TxnContext.of(t, stm);
            ctx.borrow(FAULTY).throwOnRecycle = true;
            other[0] = ctx.borrow(OTHER);
            throw user;
        }));
        assertSame(user, thrown, "the body's exception is the primary one");
        assertEquals("recycle failed", thrown.getSuppressed()[0].getMessage());
        int otherRecycles = other[0].recycles;
        // The thread works on, and each attempt recycles exactly what it borrowed, once: the
        // kind the failed recycle did not reach starts again from its first pooled object.
        Other[] again = new Other[1];
        for (int i = 0; i < 3; i++) {
            stm.run(t -> {
                TxnContext ctx = TxnContext.of(t, stm);
                ctx.borrow(FAULTY);
                again[0] = ctx.borrow(OTHER);
            });
            assertSame(other[0], again[0], "the pool handed out a second object of a kind this attempt borrowed once");
        }
        assertEquals(otherRecycles + 3, other[0].recycles, "each attempt that borrowed the object recycles it once");
        Faulty f = Faulty.made.get(0);
        assertEquals(4, f.recycles);
        assertTrue(Faulty.made.size() == 1, "the pool reuses its one object: " + Faulty.made.size());
        StmStatistics s = stm.statistics();
        assertEquals(s.starts(), s.commits() + s.aborts());
    }
}
