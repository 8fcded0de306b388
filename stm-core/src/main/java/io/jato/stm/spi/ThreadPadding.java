package io.jato.stm.spi;

/**
 * Leading padding for objects that one thread writes on every transaction: the entries, the access
 * set and counters of a {@link TxnContext}, a protocol's per-transaction state
 * ({@link ConcurrencyControl#newTxnState}), backoff. Subclassing it guarantees 64 bytes (plus the 4
 * after the object header, which would otherwise take a subclass field) between the subclass's
 * fields and whatever object lies before it in memory.
 *
 * <p>Why: such objects are allocated in their thread's allocation buffer, but a garbage collection
 * copies the survivors of all threads side by side; without padding, two threads' hot fields can
 * then share a cache line, and every write of one invalidates the other's (false sharing that
 * varies from run to run with where the copies land; measured in
 * {@code docs/benchmarks/2026-11-core-split.md}). Superclass fields are laid out first, so leading
 * padding is reliable where padding fields inside one class are not.
 */
public abstract class ThreadPadding {
    int pad0;
    long pad1, pad2, pad3, pad4, pad5, pad6, pad7, pad8;

    /** For subclasses only. */
    protected ThreadPadding() {
    }
}
