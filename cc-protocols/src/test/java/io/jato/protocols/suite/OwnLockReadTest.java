package io.jato.protocols.suite;

import io.jato.stm.Stm;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxnContext;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The read hooks' contract for an entry the transaction itself holds locked (an eager protocol's
 * write lock, or any read while committing): the hook answers at once with the committed value,
 * never waits for its own lock, and the observation validates. The lock is taken here through the
 * SPI, as an eager protocol's {@code onWrite} would; with one attempt allowed, a hook that waits
 * for its own lock ends the transaction (READ_BUSY) and the test fails.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OwnLockReadTest {

    static Stream<String> protocols() {
        return Protocols.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void aReadOfAnItemThisTransactionLockedAnswersAtOnce(String protocol) {
        Stm stm = Protocols.builder(protocol).maxAttempts(1).build();
        ConcurrencyControl cc = stm.concurrencyControl();
        LongItem n = new LongItem(7);
        RefItem r = new RefItem("old");
        Object[] seen = stm.atomic(txn -> {
            TxnContext c = TxnContext.of(txn, stm);
            c.writeLong(n, 8);
            c.writeRef(r, "new");
            Entry en = c.find(n);
            Entry er = c.find(r);
            assertNull(cc.lock(c, en), "lock " + protocol);
            assertNull(cc.lock(c, er), "lock " + protocol);
            long vn = cc.readLong(c, n, en);
            Object vr = cc.readRef(c, r, er);
            cc.observe(c, n, en);
            return new Object[] {vn, vr};
        });
        assertEquals(7L, seen[0], "the committed value, not the pending one");
        assertEquals("old", seen[1]);
        assertEquals(8, cc.loadLong(n));
        assertEquals("new", cc.loadRef(r));
        assertNull(cc.checkQuiescent(n));
        assertNull(cc.checkQuiescent(r));
        assertEquals(1, stm.statistics().commits());
        assertEquals(0, stm.statistics().aborts());
    }
}
