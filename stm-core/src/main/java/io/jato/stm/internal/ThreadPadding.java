package io.jato.stm.internal;

/**
 * Leading padding for internal objects that one thread writes on every transaction (a protocol's
 * per-transaction state, backoff): see {@code io.jato.stm.spi.ThreadPadding}, which explains why.
 * Extended only by classes of the store and its protocols.
 */
public abstract class ThreadPadding {
    int pad0;
    long pad1, pad2, pad3, pad4, pad5, pad6, pad7, pad8;

    /** For subclasses. */
    protected ThreadPadding() {
    }
}
