package io.jato.protocols.mvcc;

import io.jato.stm.Stm;
import io.jato.stm.TxnFunction;
import io.jato.stm.TxnRunnable;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The readers' check of the delta-version tests: two writer threads commit {@code each} writes that
 * always change pairs of values together, while a snapshot reader ({@link Stm#readOnly}) and a
 * tracked reader ({@link Stm#atomic}) read the values again and again. Each read must see every
 * pair equal ({@code seen[2i] == seen[2i + 1]}), and the snapshots' {@code seen[0]} must never go
 * back.
 */
final class PairedReaders {
    private PairedReaders() {
    }

    /**
     * @param write the body of writer's {@code i}-th transaction
     * @param read  returns the values, pairs next to each other
     */
    static void run(Stm stm, int each, IntFunction<TxnRunnable> write, TxnFunction<long[]> read) throws Exception {
        AtomicReference<String> bad = new AtomicReference<>();
        AtomicLong reads = new AtomicLong();
        AtomicInteger writersDone = new AtomicInteger();
        Workers.run(4, id -> {
            if (id < 2) {
                for (int i = 0; i < each; i++) {
                    stm.run(write.apply(i));
                }
                writersDone.incrementAndGet();
                return;
            }
            boolean snapshot = id == 2;
            long last = Long.MIN_VALUE;
            while (writersDone.get() < 2 || reads.get() < 100) {
                long[] seen = snapshot ? stm.readOnly(read) : stm.atomic(read);
                reads.incrementAndGet();
                for (int p = 0; p + 1 < seen.length; p += 2) {
                    if (seen[p] != seen[p + 1]) {
                        bad.compareAndSet(null, (snapshot ? "snapshot" : "tracked reader") + " saw pair "
                                + p / 2 + " as " + seen[p] + "/" + seen[p + 1]);
                    }
                }
                if (snapshot && seen[0] < last) {
                    bad.compareAndSet(null, "snapshots went back from " + last + " to " + seen[0]);
                }
                last = Math.max(last, seen[0]);
            }
        });
        assertNull(bad.get());
    }
}
