package io.jato.protocols.mvcc;

import io.jato.stm.spi.TxParticipant;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The delta versions of one {@code long} item (seed 002 §6.1, MSTO's commit-time updates): a
 * version of the chain that holds the item's value before a group of commutative adds (its
 * {@link #value}, its {@link #wts}) and the adds themselves, each with its own commit timestamp.
 *
 * <p>A transaction whose only write to the item is a commutative add ({@code Entry.UPDATE |
 * COMMUTATIVE}, not read) does not lock the item exclusively: it joins the item's open group.
 * The first one locks the item's word and pushes the group onto the chain; later ones join by a
 * CAS on {@link #state}, so adders wait for each other only when a group is full. While it is open the item
 * stays locked to everything else: readers cannot extend the item's {@code rts}, so every member
 * commits above the {@code rts} the item had when the group began, in any order among themselves
 * (a member may commit below another that committed first: "insert before"). The last member to
 * leave closes the group: it flattens the adds into the value in place, gives the group the end
 * {@code maxTs} and publishes the item at {@code maxTs}. A group admits at most
 * {@link #MAX_JOINS} members, so the item is flattened after a bounded number of deltas.
 *
 * <p>The value of the item at a timestamp {@code t} in {@code [wts, end)} is {@link #value} plus
 * every committed add at or below {@code t} ({@link #sumAt}): a snapshot reads it this way while
 * the group is open or after it closed, never waiting. An add still running commits above every
 * snapshot (it is a running tracked attempt, above the stable point), so the sum is exact.
 *
 * <p>A group of operations ({@link #participant} non-null: a record's {@code @Commutative}
 * updaters, a map value's commutative updaters) holds the value before the group ({@link #ref}: a
 * record's column copy, a map node's value) and each member's operations ({@link Add#ops}).
 * Operations are user code, so they run before a member's point of no return: in its prepare step
 * the member takes the group's {@link #tryTakeToken token}, applies its operations to the running
 * result {@link #acc} (a new value) and keeps that; at publish it makes it the running result and
 * gives the token back. So the closing member only stores {@link #acc} in place: nothing that can
 * fail runs after a commit. A reader at {@code t} applies the operations committed at or below
 * {@code t} to the base ({@link #valueAt}).
 *
 * <p>Who writes what: {@link #state} by CAS of members; the opener's timestamp by the opener
 * (release, before it leaves); the list of joined members' adds by CAS of committing members (each
 * add's fields are written before its CAS); {@link #baseEnd} by the closing member
 * before its release store of {@code end}. Readers use acquire loads and never write.
 */
final class DeltaGroup extends Version {
    /** How many members one group admits before it refuses new ones: the flatten bound. */
    static final int MAX_JOINS = 16;
    /** {@link #state}: the group is closed (or closing): nobody joins, it unlocks the item. */
    static final int CLOSED = -1;

    private static final int HOLDER = 1;
    private static final int JOIN = 1 << 16;
    private static final int HOLDERS_MASK = JOIN - 1;

    private static final VarHandle STATE;
    private static final VarHandle ADDS;
    private static final VarHandle BASE_END;
    private static final VarHandle OPENER_TS;
    private static final VarHandle TOKEN;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(DeltaGroup.class, "state", int.class);
            ADDS = l.findVarHandle(DeltaGroup.class, "adds", Add.class);
            BASE_END = l.findVarHandle(DeltaGroup.class, "baseEnd", long.class);
            OPENER_TS = l.findVarHandle(DeltaGroup.class, "openerTs", long.class);
            TOKEN = l.findVarHandle(DeltaGroup.class, "token", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The item's word before the group locked it: restored if no member commits. */
    final long baseWord;
    /**
     * The add of the member that opened the group, kept here rather than in an {@link Add}: a
     * lone adder (the common case) allocates the group and nothing else.
     */
    final long openerAmount;
    /** The opener's commit timestamp once it committed, else 0; written by the opener before it leaves. */
    @SuppressWarnings("unused") // through OPENER_TS
    private long openerTs;
    /** Joins (high half) and members still in the group (low half), or {@link #CLOSED}. */
    @SuppressWarnings("unused") // through STATE
    private int state = JOIN | HOLDER;
    /** The committed adds, newest push first (not in timestamp order). */
    @SuppressWarnings("unused") // through ADDS
    private Add adds;
    /** Once closed with adds: the smallest add's timestamp, where {@link #value} alone stops being the item's value. */
    @SuppressWarnings("unused") // through BASE_END
    private long baseEnd = PENDING;

    /** A group of operations: the participant that applies them (and stores a record's columns); null for adds. */
    final TxParticipant participant;
    /** A group of operations: the entries' key (the record, the map key), passed to {@link #participant}. */
    final Object key;
    /** A group of operations: 1 while a member holds the right to change {@link #acc}; see the class comment. */
    @SuppressWarnings("unused") // through TOKEN
    private int token;
    /**
     * A group of operations: the base with every committed member's operations applied (an
     * immutable value, replaced whole). Written only by the token holder, read by the next holder
     * and by the closing member, each after the token's or the state's CAS; null once closed.
     */
    Object acc;

    /** A group of adds to a long item holding {@code value}, opened by an add of {@code openerAmount}. */
    DeltaGroup(long wts, long value, Version next, long baseWord, long openerAmount) {
        super(wts, null, value, next);
        this.baseWord = baseWord;
        this.openerAmount = openerAmount;
        this.participant = null;
        this.key = null;
    }

    /**
     * A group of commutative operations on an item whose value was {@code base}: a record group's
     * column copy ({@code participant.captureVersion}) or a cell's value (a map node); every
     * member, the opener included, has an {@link Add}.
     */
    DeltaGroup(long wts, Object base, Version next, long baseWord, TxParticipant participant, Object key) {
        super(wts, base, 0, next);
        this.baseWord = baseWord;
        this.openerAmount = 0;
        this.participant = participant;
        this.key = key;
        this.acc = base;
    }

    /**
     * One member's delta: for a long item, a joined member's add (the opener's lives in the group);
     * for a group of operations, any member's operations. Immutable once pushed, but for {@link #result}.
     */
    static final class Add {
        final long amount;
        /** A group of operations: this member's, in program order; null for a long item's add. */
        final Object[] ops;
        long ts;
        Add next;
        /** Owner only: the running result with this member's updaters applied (prepare to publish). */
        Object result;
        /** Owner only: this member holds the group's token. */
        boolean holdsToken;

        Add(long amount) {
            this.amount = amount;
            this.ops = null;
        }

        Add(Object[] ops) {
            this.amount = 0;
            this.ops = ops;
        }
    }

    /** @return true for a group of operations (a record's updaters, a map value's), false for long adds */
    boolean hasOperations() {
        return participant != null;
    }

    /** A group of operations: takes the right to change {@link #acc}; false if another member holds it. */
    boolean tryTakeToken() {
        return TOKEN.compareAndSet(this, 0, 1);
    }

    /** A group of operations: gives the token back (after {@link #acc} is written). */
    void releaseToken() {
        TOKEN.setRelease(this, 0);
    }

    /**
     * A group of operations: the value at {@code t}, the base with every member's operations
     * committed at or below {@code t} applied (commutative, so in any order); the base itself if
     * none. Allocates and runs the operations' code when there are some.
     */
    Object valueAt(long t) {
        Object v = ref;
        for (Add a = adds(); a != null; a = a.next) {
            if (a.ts <= t) {
                v = participant.applyOperations(key, v, a.ops);
            }
        }
        return v;
    }

    /** @return true unless the group is closed or full (a hint: {@link #tryJoin} decides) */
    boolean admits() {
        int s = (int) STATE.getVolatile(this);
        return s != CLOSED && (s >>> 16) < MAX_JOINS;
    }

    /** Joins the open group as one more member; false if it is closed or full. */
    boolean tryJoin() {
        for (;;) {
            int s = (int) STATE.getVolatile(this);
            if (s == CLOSED || (s >>> 16) >= MAX_JOINS) {
                return false;
            }
            if (STATE.compareAndSet(this, s, s + JOIN + HOLDER)) {
                return true;
            }
        }
    }

    /** Records the opener's add, committed at {@code ts}; before it leaves. */
    void commitOpener(long ts) {
        OPENER_TS.setRelease(this, ts);
    }

    /** @return the opener's commit timestamp, or 0 if it has not committed (or aborted) */
    long openerTs() {
        return (long) OPENER_TS.getAcquire(this);
    }

    /** Records a joined member's add, committed at {@code ts}; never allocates. */
    void commit(Add add, long ts) {
        add.ts = ts;
        for (;;) {
            Add head = (Add) ADDS.getVolatile(this);
            add.next = head;
            if (ADDS.compareAndSet(this, head, add)) {
                return;
            }
        }
    }

    /**
     * Leaves the group. Returns true if the caller was the last member: the group is now
     * {@link #CLOSED} and the caller must flatten it and unlock the item.
     */
    boolean leave() {
        for (;;) {
            int s = (int) STATE.getVolatile(this);
            boolean last = (s & HOLDERS_MASK) == HOLDER;
            if (STATE.compareAndSet(this, s, last ? CLOSED : s - HOLDER)) {
                return last;
            }
        }
    }

    /** @return the committed adds, for the member that closed the group or for readers */
    Add adds() {
        return (Add) ADDS.getAcquire(this);
    }

    /** Closing member: where the base value stops (the first add), written before {@code end}. */
    void setBaseEnd(long ts) {
        BASE_END.setRelease(this, ts);
    }

    /** @return the timestamp of the group's first add once closed with adds, else {@link #PENDING} */
    long baseEnd() {
        return (long) BASE_END.getAcquire(this);
    }

    /** @return the item's value at {@code t}: the base plus every committed add at or below it */
    long sumAt(long t) {
        long v = value;
        long o = openerTs();
        if (o != 0 && o <= t) {
            v += openerAmount;
        }
        for (Add a = adds(); a != null; a = a.next) {
            if (a.ts <= t) {
                v += a.amount;
            }
        }
        return v;
    }

    /** @return the newest committed add at or below {@code t}, or {@link #wts} if none */
    long newestAt(long t) {
        long o = openerTs();
        long n = o != 0 && o <= t ? Math.max(wts, o) : wts;
        for (Add a = adds(); a != null; a = a.next) {
            if (a.ts <= t && a.ts > n) {
                n = a.ts;
            }
        }
        return n;
    }

    /** @return the oldest committed add above {@code t}, or {@code end} if none */
    long nextAfter(long t, long end) {
        long o = openerTs();
        long n = o > t && o < end ? o : end;
        for (Add a = adds(); a != null; a = a.next) {
            if (a.ts > t && a.ts < n) {
                n = a.ts;
            }
        }
        return n;
    }
}
