package io.jato.stm.spi;

/**
 * One access-set entry: everything a transaction knows about one {@link TxItem} it touched. At
 * most one entry exists per item per transaction, so a read followed by a write shares an entry
 * (read-your-writes needs no second lookup, validation knows the item is locked by us).
 *
 * <p>Entries are owned by a single {@link TxnContext} and pre-allocated; they are reused across
 * transactions and never escape their thread. Nothing here is thread-safe.
 *
 * <h2>Flags</h2>
 * The low 16 bits are defined here; the high 16 bits ({@link #PROTOCOL_FLAG_0} and up) belong to
 * the store's protocol (e.g. "read lock held" for 2PL).
 *
 * <h2>Install kinds</h2>
 * How the commit driver writes the pending value of a {@link #WRITE} entry. The built-in kinds are
 * dispatched with a switch, without a virtual call; only {@link #KIND_CUSTOM} calls the entry's
 * {@link TxParticipant}.
 */
public final class Entry extends ThreadPadding {
    /** The observed version must be validated at commit. */
    public static final int READ = 1;
    /** The item must be locked at commit and get a new version; its value is installed per kind. */
    public static final int WRITE = 1 << 1;
    /** This transaction holds the item's write lock (set and cleared by the protocol). */
    public static final int LOCKED = 1 << 2;
    /** The install retires the item: it is unlinked and its word never changes again. */
    public static final int RETIRE = 1 << 3;
    /** The item was created by this transaction and is published by the participant's install. */
    public static final int INSERT = 1 << 4;
    /** Call {@link TxParticipant#check} during validation. */
    public static final int CHECK = 1 << 5;
    /** Call {@link TxParticipant#cleanup} when the transaction ends, committed or not. */
    public static final int CLEANUP = 1 << 6;
    /**
     * Set by the driver's in-place install of a built-in kind once the item's previous value is
     * saved in the entry: if the commit fails later in its install phase, that value is put back.
     */
    public static final int UNDO = 1 << 7;
    /**
     * The write is commit-time operations only — a counter's adds, a record's updaters — applied at
     * commit to whatever value is then current; no value was written blindly. Set by the data type
     * (counters: {@link TxnContext#addLong}; others: {@link TxnContext#markUpdate}), cleared when a
     * blind write or a read of the pending value replaces the operations. A protocol may take the
     * operations without a read dependency (an MVCC delta version, a shared update lock); they are
     * listed by the participant's {@link TxParticipant#operationCount}/{@link TxParticipant#operation}
     * until its check phase applies them ({@link #KIND_ADD_LONG}: the one operation is the sum of
     * the adds, {@link #pendingLong()}). {@link #READ} is independent: set if the transaction also
     * read the item.
     */
    public static final int UPDATE = 1 << 8;
    /**
     * With {@link #UPDATE}: every operation is declared commutative ({@code @Commutative}, counter
     * adds), so concurrent transactions' operations on the item give the same result in any order.
     */
    public static final int COMMUTATIVE = 1 << 9;
    /**
     * The protocol served this read from an older version it keeps (a multi-version protocol
     * reading in the past): {@link #readRef()} holds that version's value — for an item whose data
     * type keeps values in its own fields, the copy its participant made with
     * {@link TxParticipant#captureVersion} — and the data type reads it instead of the fields.
     * Set by the protocol's {@link ConcurrencyControl#observe} together with {@link #READ}.
     * Records honour it ({@code AbstractRecord}); a later write of the item starts from the item's
     * fields, so the protocol's {@link ConcurrencyControl#isCurrent} must then fail unless they are
     * the version that was read.
     */
    public static final int VERSION = 1 << 10;
    /**
     * The read needs no commit-time validation: the protocol served it from the transaction's
     * snapshot, consistent by construction (a multi-version protocol reading for a transaction
     * declared read-only as a whole). Set through {@link TxnContext#untrack} by the protocol's read
     * hook ({@link ConcurrencyControl#readRef}, {@link ConcurrencyControl#readLong},
     * {@link ConcurrencyControl#observe}), before the driver marks the entry {@link #READ}: the
     * entry then stays out of the read list, so the commit never validates, extends or unlocks it
     * and the protocol must hold nothing for it. The transaction's later reads of the item return
     * the same cached value, as for any read.
     */
    public static final int UNTRACKED = 1 << 11;
    /**
     * In the write list without a write: the item was locked at its first write by a nested block
     * that then rolled back ({@code Savepoints}), and stays locked until the transaction ends.
     * The commit treats it as a version-only write (a new version, the same value); data types
     * see no write ({@link #WRITE} is clear). A later write of the item clears it and writes as
     * usual, without listing the entry again.
     */
    public static final int HELD = 1 << 12;
    /**
     * With {@link #UPDATE}: the protocol keeps this write's operations as a delta version and
     * applies them itself, to copies ({@link TxParticipant#applyOperations}), storing the result
     * without the participant's install ({@link TxParticipant#storeVersion}, or its own store of a
     * cell's value). The participant's
     * check must then leave the operations unapplied (they would run on a value the write does not
     * replace). Set by the protocol's {@link ConcurrencyControl#lock}, before the check phase.
     */
    public static final int DELTA = 1 << 13;
    /** First flag bit reserved for the protocol. */
    public static final int PROTOCOL_FLAG_0 = 1 << 16;
    /** Second flag bit reserved for the protocol. */
    public static final int PROTOCOL_FLAG_1 = 1 << 17;

    /** Bump the version only (absence stripes, structure versions). */
    public static final int KIND_NONE = 0;
    /** Store {@link #pendingRef()} into a {@link RefItem}. */
    public static final int KIND_REF = 1;
    /** Store {@link #pendingLong()} into a {@link LongItem}. */
    public static final int KIND_LONG = 2;
    /** Add {@link #pendingLong()} to a {@link LongItem} at commit: a commit-time update. */
    public static final int KIND_ADD_LONG = 3;
    /** Call the entry's {@link TxParticipant#install}. */
    public static final int KIND_CUSTOM = 4;

    /** This entry's fixed position in its access set (entries are permanent and never move). */
    final int position;
    TxItem item;
    TxParticipant participant;
    Object key;
    int flags;
    int kind;
    long observed;
    long observed2;
    long lockedWord;
    Object readRef;
    long readLong;
    Object pendingRef;
    long pendingLong;
    /** The value a built-in install replaced (valid while {@link #UNDO} is set). */
    Object undoRef;
    long undoLong;
    /**
     * The serial of the nested block ({@link Savepoints}) that last saved this entry's pending
     * state in its undo trail; 0 when none in this attempt. Owner thread only.
     */
    int savedIn;

    Entry(int position) {
        this.position = position;
    }

    /**
     * Prepares a recycled entry for {@code item}. Only the identity, flags and kind are reset: the
     * references were dropped by {@link #clearRefs} when the entry's last transaction ended, and
     * every primitive field is written before it is read (a read sets the observation, a write the
     * pending value, a lock the locked word).
     */
    void reset(TxItem item) {
        this.item = item;
        this.flags = 0;
        this.kind = KIND_NONE;
        this.savedIn = 0;
    }

    /** Drops references so a finished transaction retains no user objects. */
    void clearRefs() {
        item = null;
        participant = null;
        key = null;
        readRef = null;
        pendingRef = null;
        undoRef = null;
    }

    public TxItem item() {
        return item;
    }

    public int flags() {
        return flags;
    }

    public boolean has(int flag) {
        return (flags & flag) != 0;
    }

    public void addFlags(int f) {
        flags |= f;
    }

    public void clearFlags(int f) {
        flags &= ~f;
    }

    public int kind() {
        return kind;
    }

    public TxParticipant participant() {
        return participant;
    }

    public Object key() {
        return key;
    }

    /** Protocol-defined observation (OCC: the TID word seen by the read). */
    public long observed() {
        return observed;
    }

    public void setObserved(long v) {
        observed = v;
    }

    /** Second protocol-defined observation (TicToc: the rts seen by the read). */
    public long observed2() {
        return observed2;
    }

    public void setObserved2(long v) {
        observed2 = v;
    }

    /** The word the protocol replaced when it locked the item; restored on abort. */
    public long lockedWord() {
        return lockedWord;
    }

    public void setLockedWord(long v) {
        lockedWord = v;
    }

    /** The value the first read returned; later reads of the item in the transaction return it. */
    public Object readRef() {
        return readRef;
    }

    public void setReadRef(Object v) {
        readRef = v;
    }

    public long readLong() {
        return readLong;
    }

    public void setReadLong(long v) {
        readLong = v;
    }

    public Object pendingRef() {
        return pendingRef;
    }

    public long pendingLong() {
        return pendingLong;
    }

    /** Marks the entry a write of {@code value} with install kind {@link #KIND_REF}. */
    void writeRef(Object value) {
        pendingRef = value;
        kind = KIND_REF;
        flags = (flags | WRITE) & ~(UPDATE | COMMUTATIVE);
    }

    /** Marks the entry a write of {@code value} with install kind {@link #KIND_LONG}. */
    void writeLong(long value) {
        pendingLong = value;
        kind = KIND_LONG;
        flags = (flags | WRITE) & ~(UPDATE | COMMUTATIVE);
    }

    /** Adds {@code delta} to a commit-time add, or to the pending value of an absolute write. */
    void addLong(long delta) {
        if ((flags & WRITE) != 0 && (kind == KIND_LONG || kind == KIND_ADD_LONG)) {
            pendingLong += delta;
        } else {
            pendingLong = delta;
            kind = KIND_ADD_LONG;
            flags |= WRITE | UPDATE | COMMUTATIVE;
        }
    }

    /** Marks the entry a custom write installed by {@code p}. */
    void writeCustom(TxParticipant p, Object key, Object value) {
        participant = p;
        this.key = key;
        pendingRef = value;
        kind = KIND_CUSTOM;
        flags = (flags | WRITE) & ~(UPDATE | COMMUTATIVE);
    }

    /** Marks the entry a version-only write (a structure or absence version bump). */
    void writeVersionOnly() {
        flags |= WRITE;
    }

    /**
     * Writes the pending value into the item in place: the built-in kinds by a switch, a custom
     * entry through its participant. Called with the item locked, before its version is published.
     */
    public void installInPlace(TxnContext txn, long commitTimestamp) {
        switch (kind) {
            case KIND_NONE:
                break;
            case KIND_REF: {
                ConcurrencyControl cc = txn.cc();
                RefItem cell = (RefItem) item;
                undoRef = cc.lockedRef(cell);
                flags |= UNDO;
                cc.installRef(cell, pendingRef);
                break;
            }
            case KIND_LONG: {
                ConcurrencyControl cc = txn.cc();
                LongItem cell = (LongItem) item;
                undoLong = cc.lockedLong(cell);
                flags |= UNDO;
                cc.installLong(cell, pendingLong);
                break;
            }
            case KIND_ADD_LONG: {
                ConcurrencyControl cc = txn.cc();
                LongItem cell = (LongItem) item;
                long old = cc.lockedLong(cell);
                undoLong = old;
                flags |= UNDO;
                cc.installLong(cell, old + pendingLong);
                break;
            }
            case KIND_CUSTOM:
                participant.install(txn, this, commitTimestamp);
                break;
            default:
                throw new IllegalStateException("unknown install kind " + kind);
        }
    }

    /**
     * Failure path of a commit whose install phase began: puts back the value a built-in install
     * replaced ({@link #UNDO}), while the item is still locked. Custom installs are not undone.
     */
    void undoInstall(TxnContext txn) {
        if ((flags & UNDO) == 0) {
            return;
        }
        ConcurrencyControl cc = txn.cc();
        if (kind == KIND_REF) {
            cc.installRef((RefItem) item, undoRef);
        } else {
            cc.installLong((LongItem) item, undoLong);
        }
        flags &= ~UNDO;
    }

    /** Replaces the pending {@code long} of a write entry (e.g. a participant's computed result). */
    public void setPendingLong(long v) {
        pendingLong = v;
    }

    /** Replaces the pending reference of a write entry. */
    public void setPendingRef(Object v) {
        pendingRef = v;
    }
}
