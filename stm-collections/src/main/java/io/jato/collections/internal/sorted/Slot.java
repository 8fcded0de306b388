package io.jato.collections.internal.sorted;

import io.jato.stm.spi.RefItem;

/**
 * One key's versioned value cell. A present key is read, written and deleted through its slot's
 * version, exactly like a hash-map node; the slot of a deleted key is unlinked from its leaf and
 * retired. Keys are immutable; only the value goes through the protocol.
 */
public final class Slot extends RefItem {
    final long lkey;
    final Object okey;
    /** With an object-key prefix layout: the first key of this key's prefix (computed once, at insert). */
    final Object prefix;
    /**
     * The leaf a pending insert belongs in: set by the inserting transaction's thread while the slot
     * is private to it (execution, commit check) and cleared by its install. Never read by others.
     */
    Leaf hint;

    /** @param domain the index's protocol domain */
    Slot(long lkey, Object okey, Object prefix, int domain) {
        super(null, domain);
        this.lkey = lkey;
        this.okey = okey;
        this.prefix = prefix;
    }

    /** @return the key of a long-key map */
    public long longKey() {
        return lkey;
    }

    /** @return the key of an object-key map */
    public Object key() {
        return okey;
    }
}
