package io.jato.stm.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * An item whose committed value is one reference. Writers are the protocol's commit path (with the
 * item locked) using release stores; readers use acquire loads, bracketed by reads of the protocol
 * word so that a value and its version are observed together.
 */
public class RefItem extends TxItem {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(RefItem.class, "value", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Accessed only through {@code VALUE} with explicit modes; plain only in the constructor. */
    private Object value;

    /** @param initial the committed value before the item is published */
    public RefItem(Object initial) {
        this.value = initial;
    }

    /**
     * An item bound to a protocol domain (see {@link TxItem#TxItem(int)}).
     *
     * @param initial the committed value before the item is published
     */
    public RefItem(Object initial, int domain) {
        super(domain);
        this.value = initial;
    }

    public final Object valueAcquire() {
        return VALUE.getAcquire(this);
    }

    public final void setValueRelease(Object v) {
        VALUE.setRelease(this, v);
    }
}
