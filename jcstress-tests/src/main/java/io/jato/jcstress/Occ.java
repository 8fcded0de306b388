package io.jato.jcstress;

import io.jato.stm.internal.occ.OccControl;
import io.jato.stm.internal.occ.OccProtocol;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.RefItem;

import java.util.Map;

/**
 * The default protocol's {@link OccControl}, created the way a store creates it, and the
 * non-transactional write sequence the item-level tests race against (the one stm-collections'
 * non-transactional views use).
 */
final class Occ {
    /**
     * One instance for every test: the non-transactional operations used here ({@code lockNonTx},
     * {@code unlockNonTx}, {@code loadLong}, {@code loadRef}) keep no state outside the item.
     */
    static final OccControl CC = (OccControl) new OccProtocol()
            .create(ProtocolContext.create(new OccProtocol(), 40_000_000L, 256, 1024, Map.of()));

    private Occ() {
    }

    /**
     * A single-item write as a data type's non-transactional view does it: {@code lockNonTx},
     * {@code installLong} (for OCC a {@code setValueRelease}), {@code unlockNonTx(changed)}, which
     * publishes the next version.
     */
    static void write(LongItem item, long value) {
        long lockedWord = CC.lockNonTx(item);
        CC.installLong(item, value);
        CC.unlockNonTx(item, lockedWord, true, false);
    }

    /** {@link #write(LongItem, long)} for a reference item ({@code installRef}). */
    static void write(RefItem item, Object value) {
        long lockedWord = CC.lockNonTx(item);
        CC.installRef(item, value);
        CC.unlockNonTx(item, lockedWord, true, false);
    }
}
