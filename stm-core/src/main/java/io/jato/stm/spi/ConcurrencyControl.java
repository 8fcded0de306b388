package io.jato.stm.spi;

import io.jato.stm.AbortCause;

/**
 * One store's concurrency-control protocol: it owns the meaning of every {@link TxItem}'s metadata
 * slots, decides what a read observes, and supplies the per-entry steps of the commit driver.
 *
 * <h2>The commit driver</h2>
 * The commit driver (package-private {@code CommitDriver}, run for each {@link TxnContext}) runs the same phases for every protocol, calling these hooks:
 * <ol>
 *   <li><b>lock</b> — {@link #lock} for each {@link Entry#WRITE} entry not already
 *       {@link Entry#LOCKED} (eager protocols lock in {@link #onWrite} instead);</li>
 *   <li><b>timestamp</b> — {@link #commitTimestamp}, once, after every write item is locked;</li>
 *   <li><b>validate</b> — {@link #validate} for each {@link Entry#READ} entry, then the participant's
 *       check for each {@link Entry#CHECK} entry;</li>
 *   <li><b>prepare</b> — {@link #prepare}, once, for every commit (read-only and write-only ones
 *       too): the protocol's last chance to abort; then, for protocols that declare
 *       {@link io.jato.stm.Capabilities.Feature#REMOTE_ABORT}, the point of no return, which a
 *       remote abort ({@link TxnContext#requestAbort}) may win;</li>
 *   <li><b>install</b> — {@link #install} for every write entry, then {@link #publish} for every
 *       write entry: no new version becomes visible before every value is in place;</li>
 *   <li><b>finish</b> — {@link #finish} with the outcome; on abort, {@link #unlock} for each locked
 *       entry first.</li>
 * </ol>
 * A {@code Throwable} from any hook, a participant or an updater before the first install is
 * handled like an abort (locks restored with {@link #unlock}); from the first install on, the
 * entries not yet published are released with {@link #unlockChanged} (a new version, never the old
 * word) and the throwable is rethrown. {@link #finish} and cleanups run either way, and
 * {@link #begin} that throws must leave nothing acquired ({@link #finish} is not called then).
 * Hooks return {@code null} to continue or the {@link AbortCause} that ends the attempt; they never
 * throw on a conflict. A store uses exactly one protocol class, so every hook call is monomorphic.
 *
 * <h2>Execution-time reads</h2>
 * {@link #readRef}, {@link #readLong} and {@link #observe} record what a transaction saw into its
 * entry (setting {@link Entry#READ} and the observation fields). A read that cannot proceed calls
 * {@link TxnContext#rollback(AbortCause)}, which unwinds user code with a preallocated signal.
 *
 * <p><b>Reads of an item the transaction itself holds locked.</b> A read hook may be called for an
 * entry that is {@link Entry#LOCKED} by this very transaction: a protocol that locks at write time
 * (2PL, SwissTM's eager write locks) and a getter after a setter, a first read after a commit-time
 * add, or any read while the transaction commits. The hook must then return the item's current
 * committed value at once and record an observation that validates as long as the lock is held
 * (OCC and TicToc use {@link Entry#lockedWord()}); it must never wait for its own lock.
 *
 * <p>Data types that keep values in their own fields (records with field groups) read in place:
 * {@link #observe}, then plain loads of the fields, then an acquire fence and {@link #isCurrent}
 * ({@link TxnContext#checkRead}). A protocol must make that sequence a consistent read: an item
 * whose values are being installed must not be observed as current (OCC: the lock bit is set while
 * installing, and the publish changes the word). Their installs are {@link Entry#KIND_CUSTOM}
 * writes into the locked item's fields; a multi-version protocol that needs old versions of such
 * items must capture them in {@link #lock}.
 *
 * <p>Implementations are thread-safe: one instance serves every thread of the store.
 */
public abstract class ConcurrencyControl {

    /**
     * The answer of {@link #readRef} when no version of the item is visible to the transaction: a
     * multi-version reader whose snapshot is older than the item's first version (a map entry
     * inserted after it), or newer than its delete. Data types treat the item's key as absent in
     * this transaction without looking it up again — the item is still linked, unlike one whose
     * delete unlinked it, which a data type marks with its own sentinel and looks up again. Maps
     * honour it in lookups, updates and scans; a commit-time update of such a key must
     * materialize it and rolls the attempt back ({@link AbortCause#DELETED}). Compared by identity.
     */
    public static final Object NO_VERSION = new Object() {
        @Override
        public String toString() {
            return "NO_VERSION";
        }
    };

    protected ConcurrencyControl() {
    }

    /** @return the protocol name this instance was created for */
    public abstract String name();

    /**
     * How the protocol orders transactions, which decides how it joins a transaction spanning
     * several protocols ({@code docs/mixed-protocols.md}). False (the default): by the real-time
     * order of commit points, as OCC and lock-based protocols do, where the commit timestamp is
     * the protocol's own business and nothing else reads it. True: by commit timestamps (TicToc,
     * MVCC, timestamp ranges) — the protocol then accepts, in {@link #validate}, {@link #prepare},
     * {@link #install}, {@link #publish} and the unlock hooks, any commit timestamp at least the
     * one its {@link #commitTimestamp} proposed, and orders the transaction by it: a spanning
     * transaction commits at a timestamp that every timestamp-ordered protocol in it agreed to and
     * that exceeds every earlier spanning commit's.
     */
    public boolean ordersByTimestamp() {
        return false;
    }

    /**
     * Whether the commit validates every read entry at one serialization point (OCC; TicToc at
     * serializable and snapshot isolation), so that a transaction may hold several read entries for
     * one item, each observed on its own: two that saw different versions cannot both pass. The
     * core then keeps a declared read-only transaction's reads as a log, with no lookup before each
     * read, as TL2 and SwissTM do ({@code docs/protocol-spi.md}, "Read logs"). False, the default,
     * keeps one entry per item: a protocol that serves a repeated read from its entry without
     * validating it (repeatable read), takes a lock or counts per read (2PL), or otherwise needs
     * to see each item once, leaves it false. Asked once per thread and store.
     */
    public boolean validatesEveryRead() {
        return false;
    }

    /** What {@link #stableWord} answers for an item it cannot read without waiting. */
    public static final long UNSTABLE_WORD = Long.MIN_VALUE;

    /**
     * Whether a declared read-only attempt may log its reads of {@link LongItem}s and
     * {@link RefItem}s as (item, word) pairs instead of access-set entries (docs/protocol-spi.md,
     * "Word-logged reads"). A protocol answering true promises that such an item's value lives in
     * the item ({@code valueAcquire}), that every install changes the word to one it never held
     * before, and that the value read between {@link #stableWord} and an equal later load of the
     * word is the committed value as of that word. The core then reads the value itself (an
     * acquire load after the word's), records the pair, and validates it with
     * {@link #validateWord} at commit (and when a body throws), without calling
     * {@code readRef}/{@code readLong}/{@code validate} for it: that validation is the second
     * word load of a seqlock read, so a value newer than its logged word fails there. Only an
     * opaque store loads the word again right after the value, since its reads must be consistent
     * while the body runs. It implies {@link #validatesEveryRead()}. Asked once per thread and
     * store; false by default.
     */
    public boolean logsReadWords() {
        return false;
    }

    /**
     * For {@link #logsReadWords} protocols: the item's primary word if the item can be read now
     * (not locked, not retired), else {@link #UNSTABLE_WORD}, and the core then reads it through
     * {@code readRef}/{@code readLong} with an entry. An acquire load.
     */
    public long stableWord(TxItem item) {
        throw new UnsupportedOperationException(name() + " does not log read words");
    }

    /**
     * For {@link #logsReadWords} protocols: null if {@code item}'s version is still the one
     * {@code word} ({@link #stableWord}) named, else why not (the cause {@code validate} would
     * give). Called at commit, once per logged read, and to check a snapshot when a body throws.
     */
    public AbortCause validateWord(TxItem item, long word) {
        throw new UnsupportedOperationException(name() + " does not log read words");
    }

    /**
     * Creates the protocol's per-transaction state, once per {@link TxnContext}; may be null. A
     * context is a platform thread's for life, or one of the store's pool that virtual threads
     * borrow a transaction at a time ({@link TxnContext#isPooled()}): the state then serves many
     * threads in turn, and must hold nothing back while idle ({@code docs/protocol-spi.md}).
     */
    public Object newTxnState(TxnContext txn) {
        return null;
    }

    /**
     * A context's platform thread died, or a full pool dropped a pooled context, and the store
     * dropped it: {@code state} (from
     * {@link #newTxnState}) has left {@link ProtocolContext#txnStates()} and will not be used again.
     * Protocols that index states elsewhere drop it here. Called by whichever thread noticed.
     */
    public void retireTxnState(Object state) {
    }

    /** Called when a transaction attempt starts (e.g. to take a snapshot timestamp). */
    public void begin(TxnContext txn) {
    }

    /** Reads a reference item consistently with its version and records the observation in {@code e}. */
    public abstract Object readRef(TxnContext txn, RefItem item, Entry e);

    /** Reads a long item consistently with its version and records the observation in {@code e}. */
    public abstract long readLong(TxnContext txn, LongItem item, Entry e);

    /**
     * Reads, with no entry, the committed value of a reference item that no transaction will ever
     * overwrite, delete or retire once it is committed: a key of an insert-only map
     * ({@code TxLongHashMap.insertOnly}, docs/protocol-spi.md "Unchanging items"). A protocol that
     * serializes every transaction at a commit point in real time (OCC, a global lock) may answer
     * with the value: the key was published before this read, so before the reader's
     * serialization point, and no later commit can invalidate the read, so there is nothing to
     * validate. A protocol that orders transactions by timestamps must record the dependency
     * some other way or keep the default: a transaction could otherwise commit below the insert
     * it saw (TicToc and MVCC answer and keep the attempt's commit timestamp at or above the item's
     * wts; MaaT keeps the default). The core has already ruled out snapshot reads and re-checks an
     * opaque store after a non-null answer.
     *
     * @return the committed value, or null to have the caller read the item as usual, with an
     *         entry: the default, and the answer while the item is locked (its insert is still
     *         being installed and could fail) or retired
     */
    public Object readUnchangingRef(TxnContext txn, RefItem item) {
        return null;
    }

    /** Records the item's version in {@code e} without a value (absence and structure versions). */
    public abstract void observe(TxnContext txn, TxItem item, Entry e);

    /**
     * Reads a reference item at the attempt's snapshot, with no entry: called instead of
     * {@link #readRef} for every cell read of an attempt whose {@link #begin} called
     * {@link TxnContext#readCellsAtSnapshot()} (a declared read-only attempt that the protocol
     * serves from a fixed snapshot, which needs no validation and sees no own writes). Answers
     * {@link #NO_VERSION} when no version is visible at the snapshot. Protocols that never call
     * {@code readCellsAtSnapshot} need not override it.
     *
     * @throws UnsupportedOperationException by default
     */
    public Object readRefAtSnapshot(TxnContext txn, RefItem item) {
        throw new UnsupportedOperationException("protocol " + name() + " does not read cells at a snapshot");
    }

    /**
     * As {@link #readRefAtSnapshot}, for a long item.
     *
     * @throws UnsupportedOperationException by default
     */
    public long readLongAtSnapshot(TxnContext txn, LongItem item) {
        throw new UnsupportedOperationException("protocol " + name() + " does not read cells at a snapshot");
    }

    /**
     * Called when an entry first becomes a write during execution. Lazy protocols do nothing; eager
     * ones lock here and set {@link Entry#LOCKED}.
     *
     * @return null, or the cause that aborts the transaction
     */
    public AbortCause onWrite(TxnContext txn, Entry e) {
        return null;
    }

    /**
     * Side-effect-free check that what {@code e} observed is still current (no lock taken, no
     * timestamp extended). Used to decide whether an exception thrown by user code came from an
     * inconsistent snapshot.
     */
    public abstract boolean isCurrent(TxnContext txn, Entry e);

    /** Commit phase 1: locks a write item. On success sets {@link Entry#LOCKED}. */
    public abstract AbortCause lock(TxnContext txn, Entry e);

    /**
     * Chooses the commit timestamp after every write item is locked.
     *
     * @param readOnly true if the transaction wrote nothing (protocols may skip work)
     */
    public abstract long commitTimestamp(TxnContext txn, boolean readOnly);

    /**
     * Commit phase 2: checks that what {@code e} observed still holds at {@code commitTimestamp}.
     * Called only for read entries; a check that must run for every commit belongs in {@link #prepare}.
     */
    public abstract AbortCause validate(TxnContext txn, Entry e, long commitTimestamp);

    /**
     * The protocol's last step before the point of no return, called once per commit after every
     * read validated and every participant check passed — for read-only and write-only
     * transactions too (a timestamp-range protocol fixes its commit timestamp here and aborts if
     * its range became empty; a protocol with soft locks or a commit-time registration does that
     * here). The write set is {@link TxnContext#writeCount()}/{@link TxnContext#writeAt(int)}, the
     * read set {@link TxnContext#readCount()}/{@link TxnContext#readAt(int)}. Default: nothing.
     *
     * @return null to commit, or the cause that aborts the attempt (locks are then released with
     *         {@link #unlock}, nothing having been installed)
     */
    public AbortCause prepare(TxnContext txn, long commitTimestamp) {
        return null;
    }

    /**
     * Commit phase 3a: writes the entry's pending value. The default installs in place (the kind
     * switch of {@link Entry#installInPlace}); multi-version protocols override it.
     */
    public void install(TxnContext txn, Entry e, long commitTimestamp) {
        e.installInPlace(txn, commitTimestamp);
    }

    /**
     * Stores {@code value} as the item's new value; the caller holds the item's lock (commit or
     * non-transactional). Every value write of every data type goes through here, so a protocol
     * that keeps versions elsewhere (MVCC) can capture them. Default: store in place.
     */
    public void installRef(RefItem item, Object value) {
        item.setValueRelease(value);
    }

    /** The {@code long} form of {@link #installRef}. */
    public void installLong(LongItem item, long value) {
        item.setValueRelease(value);
    }

    /** @return the latest value of an item the caller holds locked (for commit-time updates). */
    public Object lockedRef(RefItem item) {
        return item.valueAcquire();
    }

    /** The {@code long} form of {@link #lockedRef}. */
    public long lockedLong(LongItem item) {
        return item.valueAcquire();
    }

    /**
     * Decides who unlinks an item that a committing transaction deletes (a map entry whose key it
     * removed). Called by the data type's install, with the item locked, before anything of the
     * delete is installed. {@code false} (the default): the data type unlinks the item now, in
     * the install, after {@link #retire}. {@code true}: the protocol keeps it — the data type
     * installs {@link #NO_VERSION} as the item's value (through {@link #installRef}) and leaves it
     * linked, so later lookups find the key absent without looking it up again, a later insert of
     * the key writes into the same item, and a multi-version protocol can still serve the
     * pre-delete version to older snapshots. The protocol takes the entry's participant and item
     * ({@link Entry#participant()}, {@link Entry#item()}) and calls
     * {@link TxParticipant#unlinkDeleted} once no transaction can read an older version. Must not
     * allocate or throw (it runs in the install phase; note the pair in a structure prepared
     * earlier, e.g. in {@link #lock}).
     */
    public boolean keepsDeleted(TxnContext txn, Entry e) {
        return false;
    }

    /**
     * Called by a data type's install right before it unlinks the entry's locked item (a delete
     * makes the item unreachable, so later lookups find its key absent). Marks the entry
     * {@link Entry#RETIRE}. Protocols whose timestamps are not commit instants (TicToc) override it
     * to order every transaction that will see the item missing after this commit: the absence is
     * visible before {@link #publish}, and no version of another item records it.
     */
    public void retire(TxnContext txn, Entry e, long commitTimestamp) {
        e.addFlags(Entry.RETIRE);
    }

    /** Commit phase 3b: publishes the item's new version and releases its lock. */
    public abstract void publish(TxnContext txn, Entry e, long commitTimestamp);

    /**
     * Abort path before anything was installed: releases a lock taken by {@link #lock} or
     * {@link #onWrite}, restoring the version the item had (the locked word).
     */
    public abstract void unlock(TxnContext txn, Entry e);

    /**
     * Failure path once the install phase has begun (a participant, the protocol or the VM threw
     * during install or publish): called for every write entry not yet published, locked or not,
     * instead of {@link #unlock}. Must release the item's lock, if held, and leave it a version
     * that no observation taken before this commit matches, so every transaction that read the
     * item before fails validation: what was installed may be partial, and restoring the old word
     * would let such a reader commit on a value that is no longer there. Retiring is kept if the
     * entry is flagged {@link Entry#RETIRE}. Must not allocate or throw. The default publishes the
     * entry at the commit timestamp, which every protocol whose {@link #publish} gives a new
     * version satisfies.
     */
    public void unlockChanged(TxnContext txn, Entry e, long commitTimestamp) {
        publish(txn, e, commitTimestamp);
    }

    /**
     * Called last, after a commit or after the abort path released every lock.
     *
     * @param committed true if the attempt committed
     * @param cause     null if it committed, else why it ended: a conflict (retried), a remote
     *                  abort, {@link AbortCause#USER_ABORT}, {@link AbortCause#USER_EXCEPTION} or
     *                  {@link AbortCause#INTERNAL_FAILURE} (a contention manager weighs them: seed
     *                  000 counts only conflict aborts toward a transaction's priority)
     */
    public void finish(TxnContext txn, boolean committed, AbortCause cause) {
    }

    // ---- non-transactional single operations (loading, set-up) ----

    /** Returned by {@link #lockNonTx} for a retired item, which is not locked. */
    public static final long RETIRED_ITEM = -1L;

    /**
     * Locks an item for a non-transactional write, waiting as long as needed.
     *
     * @return the word to hand back to {@link #unlockNonTx}, or {@link #RETIRED_ITEM} if the item
     *         was retired (it is then not locked and the caller must look it up again)
     */
    public abstract long lockNonTx(TxItem item);

    /**
     * Returned by {@link #tryLockNonTx} when another holder has the item (nothing was taken). The
     * words {@link #lockNonTx} returns are never negative, like {@link #RETIRED_ITEM}'s sentinel.
     */
    public static final long NON_TX_BUSY = -2L;

    /**
     * Locks an item for a non-transactional write if that takes no wait for another holder: an
     * operation that already holds locks of other items (a record's groups, taken one by one)
     * takes the rest with this, and on {@link #NON_TX_BUSY} releases what it holds and starts
     * again waiting for the busy one, so it never waits while holding. Every protocol in which a
     * transaction can hold one item's lock while it waits for another's should override this:
     * otherwise such a transaction (2PL's execution-time locks; a committer's write locks while
     * an escalated attempt waits for its reads' holders) and the operation wait for each other
     * until the transaction's wait bound runs out (milliseconds, or 250 ms for an escalated
     * committer, every time). Every built-in protocol does; the default waits
     * ({@link #lockNonTx}), which is right only where no transaction waits while holding.
     *
     * @return as {@link #lockNonTx}, or {@link #NON_TX_BUSY} if the item is held (then nothing
     *         was taken)
     */
    public long tryLockNonTx(TxItem item) {
        return lockNonTx(item);
    }

    /**
     * Releases a non-transactional lock.
     *
     * @param changed give the item a new version (its value or presence changed)
     * @param retire  mark the item retired (unlinked)
     */
    public abstract void unlockNonTx(TxItem item, long lockedWord, boolean changed, boolean retire);

    /** Reads a reference item's committed value outside any transaction (a one-item snapshot). */
    public abstract Object loadRef(RefItem item);

    /** Reads a long item's committed value outside any transaction. */
    public abstract long loadLong(LongItem item);

    // ---- diagnostics, used by tests after concurrent runs ----

    /** @return true if some transaction holds the item's lock */
    public abstract boolean isLocked(TxItem item);

    /** @return null if the item's metadata satisfies the protocol's invariants, else what is wrong */
    public abstract String checkQuiescent(TxItem item);

    /** @return true if the item was retired (unlinked) by a committed delete */
    public abstract boolean isRetired(TxItem item);
}
