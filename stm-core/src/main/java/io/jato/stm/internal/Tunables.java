package io.jato.stm.internal;

/**
 * Every JVM-wide tunable, resolved once from system properties. Per-store settings are builder
 * options on {@code Stm.Builder}; their defaults come from here. An unparsable or out-of-range
 * property fails class initialisation with a message naming the property.
 */
public final class Tunables {
    private Tunables() {
    }

    /**
     * Write-lock attempts per item at commit before suspecting deadlock (default for the builder).
     * OCC spins for the first 1024 and yields for the rest: on 2 cores a holder descheduled in the
     * middle of its commit was the main cause of LOCK_BUSY aborts in TPC-C at 256 (0.6% of
     * payments; 0.03% at 2048, docs/benchmarks/2026-11-tpcc-profiled.md).
     */
    public static final String LOCK_SPINS_PROPERTY = "jato.lockSpins";
    public static final int DEFAULT_LOCK_SPINS = 2048;
    public static final int LOCK_SPINS = intProperty(LOCK_SPINS_PROPERTY, DEFAULT_LOCK_SPINS, 1);

    /**
     * Lock attempts at commit for a transaction that already holds a lock (OCC): it gives up
     * sooner, since waiting while holding can be a deadlock (write sets are locked in access
     * order). Capped by the store's lock spin limit.
     */
    public static final String HELD_LOCK_SPINS_PROPERTY = "jato.heldLockSpins";
    public static final int DEFAULT_HELD_LOCK_SPINS = 128;
    public static final int HELD_LOCK_SPINS = intProperty(HELD_LOCK_SPINS_PROPERTY, DEFAULT_HELD_LOCK_SPINS, 1);

    /** Aborts of one transaction after which it runs escalated (Stm.Builder.escalateAfter); 0: never. */
    public static final String ESCALATE_AFTER_PROPERTY = "jato.escalateAfter";
    public static final int DEFAULT_ESCALATE_AFTER = 16;
    public static final int ESCALATE_AFTER = intProperty(ESCALATE_AFTER_PROPERTY, DEFAULT_ESCALATE_AFTER, 0);

    /** Polls of a locked item by an execution-time read before the attempt aborts. */
    public static final String READ_SPINS_PROPERTY = "jato.readSpins";
    public static final int DEFAULT_READ_SPINS = 1024;
    public static final int READ_SPINS = intProperty(READ_SPINS_PROPERTY, DEFAULT_READ_SPINS, 1);

    /** Initial access-set capacity per thread and store (grows by doubling, never shrinks). */
    public static final String ACCESS_SET_CAPACITY_PROPERTY = "jato.accessSetCapacity";
    public static final int DEFAULT_ACCESS_SET_CAPACITY = 64;
    public static final int ACCESS_SET_CAPACITY =
            intProperty(ACCESS_SET_CAPACITY_PROPERTY, DEFAULT_ACCESS_SET_CAPACITY, 4);

    /** Access-set size up to which lookups scan linearly; above it a hash index is kept. */
    public static final String LINEAR_SCAN_LIMIT_PROPERTY = "jato.linearScanLimit";
    public static final int DEFAULT_LINEAR_SCAN_LIMIT = 16;
    public static final int LINEAR_SCAN_LIMIT = intProperty(LINEAR_SCAN_LIMIT_PROPERTY, DEFAULT_LINEAR_SCAN_LIMIT, 0);

    /** Epoch period in milliseconds (Silo uses 40). */
    public static final String EPOCH_MILLIS_PROPERTY = "jato.epochMillis";
    public static final int DEFAULT_EPOCH_MILLIS = 40;
    public static final int EPOCH_MILLIS = intProperty(EPOCH_MILLIS_PROPERTY, DEFAULT_EPOCH_MILLIS, 1);

    /**
     * Longest wait of a transaction in {@code retry} before its body runs again: writes made
     * outside transactions ({@code single()} views) wake no waiter, so a waiter re-checks this often.
     */
    public static final String RETRY_RECHECK_MILLIS_PROPERTY = "jato.retryRecheckMillis";
    public static final int DEFAULT_RETRY_RECHECK_MILLIS = 50;
    public static final int RETRY_RECHECK_MILLIS = intProperty(RETRY_RECHECK_MILLIS_PROPERTY,
            DEFAULT_RETRY_RECHECK_MILLIS, 1);

    /**
     * Idle transaction contexts a store keeps for virtual threads (rounded up to a power of two).
     * A virtual thread borrows one per outermost transaction; a context given back to a full pool
     * is dropped. Contexts in use are not limited by it: as many exist as virtual threads are
     * inside transactions at once (parked in a backoff or a blocking retry included).
     */
    public static final String CONTEXT_POOL_PROPERTY = "jato.contextPool";
    public static final int DEFAULT_CONTEXT_POOL = Math.max(64, 8 * Runtime.getRuntime().availableProcessors());
    public static final int CONTEXT_POOL = intProperty(CONTEXT_POOL_PROPERTY, DEFAULT_CONTEXT_POOL, 1);

    /** Commits per thread between two checks of the epoch clock (a power of two). */
    public static final int EPOCH_CHECK_MASK = 1023;

    static int intProperty(String name, int defaultValue, int min) {
        String raw = System.getProperty(name);
        if (raw == null) {
            return defaultValue;
        }
        int v;
        try {
            v = Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("system property " + name + " must be an integer, was '" + raw + "'", e);
        }
        if (v < min) {
            throw new IllegalArgumentException("system property " + name + " must be >= " + min + ", was " + v);
        }
        return v;
    }
}
