package io.jato.stm.spi;

/**
 * The protocol slots of a {@link TxItem}, for protocols and the data types' non-transactional
 * paths: a primary word, a secondary word and a reference, whose meaning the store's
 * {@link ConcurrencyControl} defines. Static accessors rather than methods of the item, so that a
 * generated record, which is its first group's item, shows its user none of them. Each call is
 * one {@code VarHandle} access in the mode its name says: {@code ...Acquire}/{@code ...Volatile}/
 * {@code ...Opaque} loads, {@code set...Release}/{@code set...Volatile} stores, {@code cas...} with
 * volatile semantics, {@code setWordPlain} only before the item is reachable by other threads.
 */
public final class Items {
    private Items() {
    }

    public static long wordAcquire(TxItem item) {
        return item.wordAcquire();
    }

    public static long wordVolatile(TxItem item) {
        return item.wordVolatile();
    }

    public static long wordOpaque(TxItem item) {
        return item.wordOpaque();
    }

    public static void setWordRelease(TxItem item, long value) {
        item.setWordRelease(value);
    }

    public static void setWordVolatile(TxItem item, long value) {
        item.setWordVolatile(value);
    }

    /** Plain store: only before the item is reachable by other threads. */
    public static void setWordPlain(TxItem item, long value) {
        item.setWordPlain(value);
    }

    /** CAS of the primary word, volatile semantics. */
    public static boolean casWord(TxItem item, long expected, long value) {
        return item.casWord(expected, value);
    }

    public static long word2Acquire(TxItem item) {
        return item.word2Acquire();
    }

    public static long word2Volatile(TxItem item) {
        return item.word2Volatile();
    }

    public static void setWord2Release(TxItem item, long value) {
        item.setWord2Release(value);
    }

    /** CAS of the secondary word, volatile semantics. */
    public static boolean casWord2(TxItem item, long expected, long value) {
        return item.casWord2(expected, value);
    }

    public static Object extAcquire(TxItem item) {
        return item.extAcquire();
    }

    public static void setExtRelease(TxItem item, Object value) {
        item.setExtRelease(value);
    }

    /** CAS of the reference slot, volatile semantics. */
    public static boolean casExt(TxItem item, Object expected, Object value) {
        return item.casExt(expected, value);
    }

    /**
     * @return the protocol domain {@code item} was created in: the index of the protocol it is
     *         bound to among its store's protocols (0: the store's default; always 0 in a store of
     *         one protocol)
     */
    public static int domain(TxItem item) {
        return item.domain();
    }
}
