package io.jato.stm;

import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;

import static org.junit.jupiter.api.Assertions.assertNull;

/** A store that is no longer referenced can be collected even though a live thread used it. */
class StoreLifetimeTest {
    @Test
    void aStoreUsedByALiveThreadIsCollectable() throws InterruptedException {
        WeakReference<Stm> ref = useAStore();
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertNull(ref.get(), "the thread's transaction context must not keep its store alive");
    }

    private static WeakReference<Stm> useAStore() {
        Stm stm = Stm.create();
        LongItem x = new LongItem(0);
        stm.run(t -> TxnContext.of(t, stm).writeLong(x, 1));
        return new WeakReference<>(stm);
    }
}
