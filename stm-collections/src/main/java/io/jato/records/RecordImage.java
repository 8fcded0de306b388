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
    private static final RecordUpdater<?>[] NO_OPS = new RecordUpdater<?>[0];

    /** Columns written by the transaction's setters (bit = column index). */
    private long dirty;
    /** Groups whose committed columns are loaded and whose pending updaters have been applied. */
    private int materialized;
    /** Groups whose columns the running updater may touch; all when no updater runs. */
    private int open = -1;
    /** Groups this image stands for (those sharing the transaction entry's version item). */
    private int groups;
    /** The updater that is running, for error messages. */
    private RecordUpdater<?> running;
    private RecordUpdater<?>[] ops = NO_OPS;
    private int[] opGroups = new int[0];
    private int opCount;

    protected RecordImage() {
    }

    /** For generated accessors: rejects a column outside the running updater's group. */
    protected final void checkOpen(int groupBit, String column) {
        if ((open & groupBit) == 0) {
            throw new IllegalStateException("updater " + running.getClass().getName() + " accessed column '" + column
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
            ops = new RecordUpdater<?>[o.ops.length];
            opGroups = new int[o.ops.length];
        }
        System.arraycopy(o.ops, 0, ops, 0, o.opCount);
        System.arraycopy(o.opGroups, 0, opGroups, 0, o.opCount);
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

    final RecordUpdater<?> op(int index) {
        if (index < 0 || index >= opCount) {
            throw new IndexOutOfBoundsException("operation " + index + " of " + opCount);
        }
        return ops[index];
    }

    /** @return true if setters wrote a column (the image is then not operations only) */
    final boolean hasSetterWrites() {
        return dirty != 0;
    }

    final void addOp(RecordUpdater<?> op, int groupBit) {
        if (opCount == ops.length) {
            int cap = Math.max(4, opCount * 2);
            ops = Arrays.copyOf(ops, cap);
            opGroups = Arrays.copyOf(opGroups, cap);
        }
        ops[opCount] = op;
        opGroups[opCount++] = groupBit;
    }

    /** Applies the pending updaters in program order, then forgets them. */
    final void applyOps() {
        for (int i = 0, n = opCount; i < n; i++) {
            apply(ops[i], opGroups[i]);
            ops[i] = null;
        }
        opCount = 0;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    final void apply(RecordUpdater op, int groupBit) {
        running = op;
        open = groupBit;
        try {
            op.apply(this);
        } finally {
            open = -1;
            running = null;
        }
    }
}
