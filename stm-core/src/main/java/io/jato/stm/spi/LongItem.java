package io.jato.stm.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An item whose committed value is one primitive {@code long} (no boxing on any path). Ordering as
 * in {@link RefItem}: release stores by the lock holder, acquire loads by readers.
 */
public class LongItem extends TxItem {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(LongItem.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Accessed only through {@code VALUE} with explicit modes; plain only in the constructor. */
    private long value;

    /** @param initial the committed value before the item is published */
    public LongItem(long initial) {
        this.value = initial;
    }

    /**
     * An item bound to a protocol domain (see {@link TxItem#TxItem(int)}).
     *
     * @param initial the committed value before the item is published
     */
    public LongItem(long initial, int domain) {
        super(domain);
        this.value = initial;
    }

    public final long valueAcquire() {
        return (long) VALUE.getAcquire(this);
    }

    public final void setValueRelease(long v) {
        VALUE.setRelease(this, v);
    }
}
