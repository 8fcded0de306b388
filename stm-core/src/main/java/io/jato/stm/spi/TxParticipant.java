package io.jato.stm.spi;

/**
 * The data-type half of the commit protocol (STO's {@code TObject}): what a transactional object
 * does for one of its {@link Entry entries} beyond versioning. Locking, validating and publishing
 * an item's version belong to the store's {@link ConcurrencyControl}; the participant supplies only
 * what depends on the data type's semantics:
 *
 * <ul>
 *   <li>{@link #check} — an extra validation (flag {@link Entry#CHECK}), e.g. a predicate on a value;</li>
 *   <li>{@link #install} — writing a {@link Entry#KIND_CUSTOM} entry's pending state into the object
 *       while every write item of the transaction is locked (inserting a node into an index,
 *       unlinking a deleted one, applying a commit-time update);</li>
 *   <li>{@link #cleanup} — releasing per-transaction state when the transaction ends (flag
 *       {@link Entry#CLEANUP}).</li>
 * </ul>
 *
 * <p>Simple cells never reach a participant: the commit driver installs {@link Entry#KIND_REF},
 * {@link Entry#KIND_LONG} and {@link Entry#KIND_ADD_LONG} entries itself, so the common commit loop
 * makes no megamorphic call.
 */
public interface TxParticipant {

    /**
     * Validates type-specific state of an entry flagged {@link Entry#CHECK}, after every write item
     * is locked and before anything is installed. Must not block. This is the last phase in which a
     * failure still aborts cleanly (any {@code Throwable} here leaves nothing visible), so whatever
     * the install will need and may fail to get — room in a node, a commit-time updater's result —
     * is allocated or computed here, never in {@link #install}.
     *
     * @return {@code true} if the transaction may commit as far as this entry is concerned
     */
    default boolean check(TxnContext txn, Entry entry) {
        return true;
    }

    /**
     * Installs a {@link Entry#KIND_CUSTOM} entry. Runs with every write item of the transaction
     * locked and before any new version is published; may add {@link Entry#RETIRE} to the entry.
     * Must not allocate or run user code (a key's {@code equals}, an updater): a failure here is
     * not undone, only made visible as a new version of every item still locked.
     *
     * @param commitTimestamp the protocol's commit timestamp (meaning is protocol-specific)
     */
    void install(TxnContext txn, Entry entry, long commitTimestamp);

    /**
     * For an entry flagged {@link Entry#UPDATE}: how many commit-time operations are pending, until
     * {@link #check} applies them. A protocol that stores operations rather than values (an MVCC
     * delta version) reads them before the check phase, e.g. when it locks the item.
     */
    default int operationCount(TxnContext txn, Entry entry) {
        return 0;
    }

    /**
     * @return pending operation {@code index} of an {@link Entry#UPDATE} entry, in program order (a
     *         record's updater object); owned by the transaction until it ends
     * @throws IndexOutOfBoundsException if {@code index} is not below {@link #operationCount}
     */
    default Object operation(TxnContext txn, Entry entry, int index) {
        throw new IndexOutOfBoundsException("operation " + index + " of " + operationCount(txn, entry));
    }

    /**
     * For a multi-version protocol: a new copy of the committed values that the entry's item holds
     * in the data type's own fields (a record's columns of the groups sharing the item), to keep as
     * an old version before the commit overwrites them in place. Called by the protocol with the
     * item locked (in {@link ConcurrencyControl#lock}, not during install: it allocates); the copy
     * is immutable from then on and is what a reader served that version gets in
     * {@link Entry#readRef()} (flag {@link Entry#VERSION}). Default: null, the type keeps no values
     * in place (cells keep theirs in {@link RefItem}/{@link LongItem}, which the protocol copies
     * itself).
     */
    default Object captureVersion(TxnContext txn, Entry entry) {
        return null;
    }

    /**
     * True if a multi-version protocol may keep this type's commutative commit-time operations
     * ({@link Entry#UPDATE} {@link Entry#COMMUTATIVE}, not read) as delta versions: the type then
     * implements {@link #applyOperations}, and {@link #storeVersion} unless its items are cells
     * ({@link RefItem}: the protocol stores their values itself). Default: false, such writes stay
     * exclusive.
     */
    default boolean supportsDeltaVersions() {
        return false;
    }

    /**
     * For delta versions: a new version, {@code version} with {@code operations} (pending operations
     * of one transaction, {@link #operation}) applied in order; {@code version} itself is not changed.
     * A version is what {@link #captureVersion} returns (a record's column copy), or a cell's value,
     * or what this method returned. Runs the operations' code (a record's updater, a map's value
     * updater), which may throw; the protocol calls it before its commit's point of no return, or
     * for a reader that computes an older value. Callable from any thread.
     *
     * @param key the entry's {@link Entry#key()}: the object owning the item, or the map key
     */
    default Object applyOperations(Object key, Object version, Object[] operations) {
        throw new UnsupportedOperationException(getClass().getName() + " keeps no delta versions");
    }

    /**
     * For delta versions of an item that is not a cell: writes {@code version} into the data
     * type's own fields of the item it was captured from, as an install does; called with the item
     * locked by the protocol. Must not allocate, throw or run user code.
     */
    default void storeVersion(Object key, Object version) {
        throw new UnsupportedOperationException(getClass().getName() + " keeps no delta versions");
    }

    /**
     * Unlinks an item whose delete the protocol kept linked ({@link ConcurrencyControl#keepsDeleted}),
     * if it is still deleted: locks it as a non-transactional write does, and unless a later
     * transaction inserted its key again (writing into the same item), unlinks it and gives it a
     * new, retired version — so a transaction that found the key absent through the item before
     * fails validation if the key is inserted anew after the unlink. Called by the protocol once
     * no transaction can read an older version of the item; from any thread, but never while the
     * caller holds item locks (it waits for the item's lock) or runs a transaction of the store.
     *
     * @return true if this call unlinked the item; false if it was inserted again or is unlinked already
     * @throws UnsupportedOperationException if the data type never keeps deleted items (default)
     */
    default boolean unlinkDeleted(TxItem item) {
        throw new UnsupportedOperationException(getClass().getName() + " never deletes items");
    }

    /** Called once per entry flagged {@link Entry#CLEANUP} after the transaction commits or aborts. */
    default void cleanup(TxnContext txn, Entry entry, boolean committed) {
    }
}
