package io.jato.stm.internal;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MixedClockTest {

    @Test
    void eachValueExceedsEveryEarlierOneAndMeetsTheProposal() {
        MixedClock c = new MixedClock();
        assertEquals(1, c.next(0));
        assertEquals(2, c.next(2));
        assertEquals(10, c.next(10));
        assertEquals(11, c.next(3));
        assertEquals(11, c.current());
    }

    /** Four threads take 20,000 values each: no value is handed out twice. */
    @Test
    void concurrentCommitsNeverShareAValue() throws InterruptedException {
        MixedClock c = new MixedClock();
        int threads = 4;
        int per = 20_000;
        long[][] got = new long[threads][per];
        CountDownLatch start = new CountDownLatch(1);
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int id = t;
            ts[t] = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                long prev = 0;
                for (int i = 0; i < per; i++) {
                    long v = c.next(i % 7 == 0 ? prev + 3 : 0);
                    assertTrue(v > prev);
                    got[id][i] = prev = v;
                }
            });
            ts[t].start();
        }
        start.countDown();
        for (Thread t : ts) {
            t.join();
        }
        long[] all = Arrays.stream(got).flatMapToLong(Arrays::stream).sorted().toArray();
        for (int i = 1; i < all.length; i++) {
            assertTrue(all[i] > all[i - 1], "value " + all[i] + " handed out twice");
        }
    }
}
