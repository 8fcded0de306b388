package io.jato.stm.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The concurrency-control metadata of one transactional item: the unit a protocol versions,
 * locks and validates (a box, a hash-map entry, an absence stripe, later a record's field group).
 *
 * <p>An item carries three protocol-owned slots whose meaning is defined entirely by the store's
 * {@link ConcurrencyControl}: a primary word (OCC: the TID word; TicToc: {@code wts} and the lock
 * bit; 2PL: the reader/writer lock word), a secondary word (TicToc: {@code rts}) and a reference
 * (MVCC: the head of the version chain; a timestamp history). Data types never interpret them.
 * Values live in subclasses ({@link RefItem}, {@link LongItem}) or in the data type's own fields.
 *
 * <p>Protocols reach the slots through {@link Items} ({@code Items.casWord(item, w, w | LOCKED)}),
 * not through methods of the item: a generated record <em>is</em> its first field group's item, and
 * an application holding a record must not see lock and version operations on it. The accessor
 * names say the memory mode ({@code ...Acquire}, {@code set...Release}, {@code cas...} with
 * volatile semantics, {@code ...Plain} only before the item is published). Writers are the
 * protocol's lock holder or a CAS winner; readers are any thread.
 */
public class TxItem {
    private static final VarHandle WORD;
    private static final VarHandle WORD2;
    private static final VarHandle EXT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            WORD = lookup.findVarHandle(TxItem.class, "word", long.class);
            WORD2 = lookup.findVarHandle(TxItem.class, "word2", long.class);
            EXT = lookup.findVarHandle(TxItem.class, "ext", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Primary protocol word. Written by CAS (lock) or release store (publish/unlock). */
    @SuppressWarnings("unused") // accessed through WORD
    private volatile long word;
    /** Secondary protocol word (e.g. TicToc rts). Written by CAS or by the lock holder. */
    @SuppressWarnings("unused") // accessed through WORD2
    private volatile long word2;
    /** Protocol-owned reference (e.g. an MVCC version chain). Written by CAS or the lock holder. */
    @SuppressWarnings("unused") // accessed through EXT
    private volatile Object ext;

    /** The largest number of protocols one store's objects can be bound to. */
    public static final int MAX_DOMAINS = 16;

    private static final int DOMAIN_SHIFT = 28;
    private static final int HASH_MASK = (1 << DOMAIN_SHIFT) - 1;

    /**
     * Bits 0..27: the hash used by access-set indexes, drawn when the item is created (not the
     * identity hash: the first {@code System.identityHashCode} of an object is a call into the VM,
     * and new items, rows a transaction inserts, are looked up in the access set right after they
     * are created). Bits 28..31: the item's protocol domain, the index of the protocol it is bound
     * to in its store (0: the store's default protocol). Packed into one field so that binding
     * objects to protocols costs no memory per item; final, so every thread that can see the item
     * sees both.
     */
    private final int hash;

    /** Creates an item of the store's default protocol (domain 0) with all protocol slots zero. */
    public TxItem() {
        this(0);
    }

    /**
     * Creates an item bound to protocol domain {@code domain} (the object's
     * {@link io.jato.stm.Stm#protocolDomain()}) with all protocol slots zero; call from the data
     * type before publishing.
     *
     * @throws IllegalArgumentException if {@code domain} is not in {@code [0, MAX_DOMAINS)}
     */
    public TxItem(int domain) {
        if (domain < 0 || domain >= MAX_DOMAINS) {
            throw new IllegalArgumentException("protocol domain must be in [0, " + MAX_DOMAINS + "), was " + domain);
        }
        int h = ThreadLocalRandom.current().nextInt() & HASH_MASK;
        this.hash = (h == 0 ? 1 : h) | domain << DOMAIN_SHIFT;
    }

    /** @return this item's hash for access-set indexes (stable, well mixed in its low 28 bits) */
    final int itemHash() {
        return hash;
    }

    /** @return the protocol domain the item is bound to (0: the store's default protocol) */
    final int domain() {
        return hash >>> DOMAIN_SHIFT;
    }

    final long wordAcquire() {
        return (long) WORD.getAcquire(this);
    }

    final long wordVolatile() {
        return (long) WORD.getVolatile(this);
    }

    final long wordOpaque() {
        return (long) WORD.getOpaque(this);
    }

    final void setWordRelease(long value) {
        WORD.setRelease(this, value);
    }

    final void setWordVolatile(long value) {
        WORD.setVolatile(this, value);
    }

    /** Plain store: only before the item is reachable by other threads. */
    final void setWordPlain(long value) {
        WORD.set(this, value);
    }

    /** CAS with volatile semantics. */
    final boolean casWord(long expected, long value) {
        return WORD.compareAndSet(this, expected, value);
    }

    final long word2Acquire() {
        return (long) WORD2.getAcquire(this);
    }

    final long word2Volatile() {
        return (long) WORD2.getVolatile(this);
    }

    final void setWord2Release(long value) {
        WORD2.setRelease(this, value);
    }

    final boolean casWord2(long expected, long value) {
        return WORD2.compareAndSet(this, expected, value);
    }

    final Object extAcquire() {
        return EXT.getAcquire(this);
    }

    final void setExtRelease(Object value) {
        EXT.setRelease(this, value);
    }

    final boolean casExt(Object expected, Object value) {
        return EXT.compareAndSet(this, expected, value);
    }
}
