package io.jato.records;

import io.jato.stm.spi.Scratch;

import java.util.Arrays;

/**
 * A mutable copy of a record's columns, outside any version: the value a transaction will install
 * for a group it writes, what a commit-time updater operates on, and what non-transactional
 * snapshots and initial values are made of. Each generated record has a nested {@code Image}
 * subclass with one field and one getter/setter pair per column.
 *
 * <p>Not thread-safe. An image handed to an updater rejects access to columns outside the
 * updater's group with {@link IllegalStateException}; an image created by the user allows all.
 */
public abstract class RecordImage implements Scratch.Pooled {
    private static final Object[] NO_OPS = new Object[0];
    private static final long[] NO_OPERANDS = new long[0];
    private static final int[] NO_GROUPS = new int[0];
    private static final boolean[] NO_KINDS = new boolean[0];

    /** Columns written by the transaction's setters (bit = column index). */
    private long dirty;
    /** Groups whose committed columns are loaded and whose pending updaters have been applied. */
    private int materialized;
    /** Groups whose columns the running updater may touch; all when no updater runs. */
    private int open = -1;
    /** Groups this image stands for (those sharing the transaction entry's version item). */
    private int groups;
    /** The updater that is running, for error messages. */
    private Object running;
    /** Pending updaters in program order: {@link RecordUpdater}s and {@link RecordLongUpdater}s. */
    private Object[] ops = NO_OPS;
    /** The operand of each pending {@link RecordLongUpdater} (unused for the others). */
    private long[] opOperands = NO_OPERANDS;
    /*
     * The empty arrays are shared: users make an image per inserted row (TPC-C about a dozen per
     * new-order), and each must not cost allocations for updaters it never holds.
     */
    private int[] opGroups = NO_GROUPS;
    /** Per pending updater: true if it was scheduled as a {@link RecordLongUpdater} (with its operand). */
    private boolean[] opLong = NO_KINDS;
    private int opCount;

    protected RecordImage() {
    }

    /** For generated accessors: rejects a column outside the running updater's group. */
    protected final void checkOpen(int groupBit, String column) {
        if ((open & groupBit) == 0) {
            Object r = running instanceof BoundLongUpdater ? ((BoundLongUpdater) running).updater : running;
            throw new IllegalStateException("updater " + r.getClass().getName() + " accessed column '" + column
                    + "' outside the group its annotation declares");
        }
    }

    /** For generated code: true if the transaction's setters wrote the column with bit {@code bit}. */
    protected final boolean isDirty(long bit) {
        return (dirty & bit) != 0;
    }

    /** For generated code: records that a setter wrote the column with bit {@code bit}. */
    protected final void markDirty(long bit) {
        dirty |= bit;
    }

    @Override
    public final void recycle() {
        dirty = 0;
        materialized = 0;
        open = -1;
        groups = 0;
        running = null;
        if (opCount != 0) {
            Arrays.fill(ops, 0, opCount, null);
            opCount = 0;
        }
    }

    // ---- used by AbstractRecord (same package) ----

    /** Copies {@code o}'s marks and pending updaters into this image (its columns are copied apart). */
    final void copyStateOf(RecordImage o) {
        dirty = o.dirty;
        materialized = o.materialized;
        groups = o.groups;
        if (ops.length < o.opCount) {
            ops = new Object[o.ops.length];
            opOperands = new long[o.ops.length];
            opGroups = new int[o.ops.length];
            opLong = new boolean[o.ops.length];
        }
        System.arraycopy(o.ops, 0, ops, 0, o.opCount);
        System.arraycopy(o.opOperands, 0, opOperands, 0, o.opCount);
        System.arraycopy(o.opGroups, 0, opGroups, 0, o.opCount);
        System.arraycopy(o.opLong, 0, opLong, 0, o.opCount);
        opCount = o.opCount;
    }

    final void attach(int groupMask) {
        groups = groupMask;
    }

    final int groups() {
        return groups;
    }

    /** Forgets which columns setters marked, so that {@code load} fills every column it covers. */
    final void clearDirty() {
        dirty = 0;
    }

    final boolean isMaterialized() {
        return materialized == groups;
    }

    final void setMaterialized() {
        materialized = groups;
    }

    final boolean hasOps() {
        return opCount != 0;
    }

    final int opCount() {
        return opCount;
    }

    /**
     * The pending operation at {@code index} as one value, for a protocol that keeps operations
     * (delta versions): a {@link RecordUpdater} as it is, a {@link RecordLongUpdater} bound to its
     * operand (allocated here, on that protocol's path only).
     */
    final RecordUpdater<?> op(int index) {
        if (index < 0 || index >= opCount) {
            throw new IndexOutOfBoundsException("operation " + index + " of " + opCount);
        }
        Object op = ops[index];
        return opLong[index]
                ? new BoundLongUpdater((RecordLongUpdater<?>) op, opOperands[index])
                : (RecordUpdater<?>) op;
    }

    /** @return true if setters wrote a column (the image is then not operations only) */
    final boolean hasSetterWrites() {
        return dirty != 0;
    }

    /**
     * Appends {@code op} to the pending updaters: a {@link RecordLongUpdater} with {@code operand}
     * if {@code longOp}, else a {@link RecordUpdater}.
     */
    final void addOp(Object op, long operand, int groupBit, boolean longOp) {
        if (opCount == ops.length) {
            int cap = Math.max(4, opCount * 2);
            Object[] no = Arrays.copyOf(ops, cap);
            long[] na = Arrays.copyOf(opOperands, cap);
            int[] ng = Arrays.copyOf(opGroups, cap);
            boolean[] nl = Arrays.copyOf(opLong, cap);
            // Assigned after all four are allocated: an OutOfMemoryError leaves the image as it was.
            ops = no;
            opOperands = na;
            opGroups = ng;
            opLong = nl;
        }
        ops[opCount] = op;
        opOperands[opCount] = operand;
        opLong[opCount] = longOp;
        opGroups[opCount++] = groupBit;
    }

    /** Applies the pending updaters in program order, then forgets them. */
    final void applyOps() {
        for (int i = 0, n = opCount; i < n; i++) {
            apply(ops[i], opOperands[i], opGroups[i], opLong[i]);
            ops[i] = null;
        }
        opCount = 0;
    }

    /**
     * Runs updater {@code op} on this image with only the columns of {@code groupBit} open: a
     * {@link RecordLongUpdater} with {@code operand} if {@code longOp}, else a {@link RecordUpdater}
     * (a bound one, {@link #op}, applies its own operand).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    final void apply(Object op, long operand, int groupBit, boolean longOp) {
        running = op;
        open = groupBit;
        try {
            // The kind comes from the call that scheduled the updater, not from instanceof: a
            // failed interface check scans the class's interfaces on every call (HotSpot caches
            // only successes), and testing plain updaters for the long interface that way took
            // ~10% of a one-updater transaction (docs/benchmarks/2026-12-fixed-costs.md). It is
            // also exact for a class that implements both interfaces.
            if (longOp) {
                ((RecordLongUpdater) op).apply(this, operand);
            } else {
                ((RecordUpdater) op).apply(this);
            }
        } finally {
            open = -1;
            running = null;
        }
    }
}
