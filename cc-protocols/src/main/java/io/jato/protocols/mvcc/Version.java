package io.jato.protocols.mvcc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One old version of an item, a link of the chain that hangs off the item's {@code ext} slot
 * (newest first). The item's own value (its fields, for a record) is the newest committed version,
 * Cicada's inlined version; a version here is what the item held before a later commit replaced it.
 *
 * <p>Guarantees: {@link #wts} and the value are final (safely published through the release store
 * of the {@code ext} slot), so a reader that reached a version reads a value some commit published
 * whole. The version was the item's committed version for the timestamps {@code [wts, end)}, and
 * versions along the chain are sorted by decreasing {@code wts} with each one's {@code end} equal
 * to the {@code wts} of the one before it (the item's own {@code wts} for the first).
 *
 * <p>Who writes what: only the holder of the item's lock pushes, ends or pops a version and cuts
 * the chain's tail ({@link #next}); {@link #end} goes once from {@link #PENDING} (its replacement is
 * being committed) to the replacing commit's timestamp, by a release store before the item's word
 * is published. Readers use acquire loads and never write.
 *
 * <p>A {@link DeltaGroup} is a version whose value at a timestamp adds the commutative adds, or
 * applies the commutative updaters, committed at or below it (delta versions).
 */
sealed class Version permits DeltaGroup {
    /** {@link #end} of the version a locked item's commit is replacing: not yet known. */
    static final long PENDING = Long.MAX_VALUE;

    private static final VarHandle END;
    private static final VarHandle NEXT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            END = l.findVarHandle(Version.class, "end", long.class);
            NEXT = l.findVarHandle(Version.class, "next", Version.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The write timestamp: the commit that made this version. */
    final long wts;
    /**
     * The value of a reference item, {@code NO_VERSION} for an item inserted by the replacing
     * commit (no version before it), a record's column copy ({@code captureVersion}), or null for
     * an item without a value of its own (an absence stripe, a sorted-map leaf).
     */
    final Object ref;
    /** The value of a {@code long} item. */
    final long value;
    /** The timestamp of the version that replaced this one, or {@link #PENDING}; see the class comment. */
    @SuppressWarnings("unused") // through END
    private long end;
    /** The next older version, or null; cut by the lock holder once no snapshot can reach the rest. */
    @SuppressWarnings("unused") // through NEXT
    private Version next;

    Version(long wts, Object ref, long value, Version next) {
        this.wts = wts;
        this.ref = ref;
        this.value = value;
        this.end = PENDING;
        this.next = next;
    }

    long end() {
        return (long) END.getAcquire(this);
    }

    void setEnd(long ts) {
        END.setRelease(this, ts);
    }

    Version next() {
        return (Version) NEXT.getAcquire(this);
    }

    void cut() {
        NEXT.setRelease(this, (Version) null);
    }

    /** @return true if this version was the item's committed version at {@code ts} */
    boolean covers(long ts) {
        return wts <= ts && ts < end();
    }

    /** @return the version of this chain that covers {@code ts}, or null if none is reachable */
    static Version at(Version head, long ts) {
        for (Version v = head; v != null; v = v.next()) {
            if (v.wts <= ts) {
                return ts < v.end() ? v : null;
            }
        }
        return null;
    }

    /** @return the version of this chain written at {@code wts}, or null if none is reachable */
    static Version written(Version head, long wts) {
        for (Version v = head; v != null; v = v.next()) {
            if (v.wts <= wts) {
                return v.wts == wts ? v : null;
            }
        }
        return null;
    }

    /**
     * Cuts the chain after its last version that a snapshot at or above {@code horizon} may still
     * read (one whose {@code end} is above it). Caller holds the item's lock.
     *
     * @return how many versions stay linked
     */
    static int trim(Version head, long horizon) {
        int kept = 0;
        for (Version v = head; v != null; v = v.next()) {
            kept++;
            Version older = v.next();
            if (older != null && older.end() <= horizon) {
                v.cut();
                return kept;
            }
        }
        return kept;
    }

    /** @return the number of versions linked from {@code head} (diagnostics and tests) */
    static int length(Version head) {
        int n = 0;
        for (Version v = head; v != null; v = v.next()) {
            n++;
        }
        return n;
    }
}
