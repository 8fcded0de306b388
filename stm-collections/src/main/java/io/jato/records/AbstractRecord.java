package io.jato.records;

import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.Scratch;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxParticipant;
import io.jato.stm.spi.TxnContext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/*
 * Design. Columns live in the generated subclass's own plain fields, one copy, updated in place at
 * commit. Each group has a version item: group 0 is the record object itself (a record with one
 * group costs no extra object), the others are plain TxItems; in the COARSE layout every group
 * maps to the record itself. Versions are owned by the record's protocol like any other item:
 * every group's item is made in the one protocol domain the store gave the record.
 *
 * Reading a column: observe the group's item (OCC: wait for it to be unlocked, record the word),
 * load the field, then TxnContext.checkRead — an acquire fence and the protocol's isCurrent. If
 * the group changed since the transaction first observed it the attempt aborts at once, so all
 * columns a transaction reads from one group come from one committed version.
 *
 * Writing: the first setter or updater on a group borrows a pooled image (TxnContext.borrow) and
 * makes the group's entry a custom write whose pending value is the image. Setters write the
 * image's field and mark the column dirty; updaters are appended to the image in program order
 * without reading anything. At commit, with the group locked, the participant's check phase
 * loads the columns the setters did not write, runs the updaters (user code runs before any value
 * is installed, so an updater that throws cannot leave a partial write), and the install copies
 * the image into the fields before the protocol publishes the new version.
 *
 * Reading after an update. A getter or setter on a group with pending updaters first materializes
 * the image: it observes the group (a read dependency, which is what the value depends on), loads
 * the columns, applies the updaters and forgets them. From then on the group behaves as an
 * ordinary read followed by a write, and later updaters apply to the image immediately.
 */

/**
 * The runtime half of a generated {@link TxRecord} class; not for direct use. Supplies the
 * transactional protocol for reading, writing and updating column groups; the generated subclass
 * supplies typed columns and copies them to and from its {@link RecordImage}.
 *
 * <p>Guarantees, for every protocol of the store: reads of one group within a transaction see one
 * committed version; a transaction that read a group conflicts only with transactions that write
 * that group (or, in the {@link RecordLayout#COARSE} layout, the record); updaters take no read
 * dependency unless the transaction also reads the group; a committed transaction's writes to all
 * groups become visible atomically.
 */
public abstract class AbstractRecord extends TxItem {
    private static final Participant PARTICIPANT = new Participant();
    private static final VarHandle OBSERVER;

    static {
        try {
            OBSERVER = MethodHandles.lookup().findVarHandle(AbstractRecord.class, "observer", RecordObserver.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Stm stm;
    /**
     * Group 1's version item when groups have their own items (split layout, two or more
     * groups); null when every group shares this record's own item (coarse layout, or a single
     * group): most rows of a large table then cost one object. Group 0's item is the record.
     */
    private final TxItem item1;
    /**
     * The items of groups 2 and up, or null with fewer than three split groups. A field for group
     * 1 rather than an array for all: most split records have two groups, and the array cost 24
     * bytes per row (7% of a TPC-C heap, docs/protocol-spi.md "Item layout").
     */
    private final TxItem[] more;
    /*
     * The number of declared groups (1 to 32) and the layout, in two bytes rather than a mask int
     * and a RecordLayout reference: the observer's reference below fits in the bytes saved, so a
     * row costs what it cost before observers (a TPC-C ORDER-LINE: 88 bytes).
     */
    private final byte groupCount;
    private final boolean coarse;
    /**
     * Who is told of this record's writes (a durable store), or null (almost always). Written by
     * whoever attaches it ({@link #setObserver}) with a release store; read with an opaque load by
     * writing transactions (a record reaches other threads through a transactional publication, a
     * map put, that orders the attachment before it) and with a volatile load by its owner.
     */
    private volatile RecordObserver observer;

    /**
     * @param groupCount the number of declared groups, 1 to 32
     */
    protected AbstractRecord(Stm stm, RecordLayout layout, int groupCount) {
        this(stm, domainOf(stm), layout, groupCount);
    }

    /**
     * @param domain the record's protocol domain, asked of the store once ({@link #domainOf}) and
     *               passed down because the record is itself group 0's item: {@code super} needs
     *               the domain before the other groups' items are made, and all of them must be
     *               bound to the same protocol (asking again could bind them to another one)
     */
    private AbstractRecord(Stm stm, int domain, RecordLayout layout, int groupCount) {
        super(domain);
        this.stm = stm;
        this.coarse = Objects.requireNonNull(layout, "layout") == RecordLayout.COARSE;
        if (groupCount < 1 || groupCount > 32) {
            throw new IllegalArgumentException("a record has 1 to 32 groups, got " + groupCount);
        }
        this.groupCount = (byte) groupCount;
        if (layout == RecordLayout.COARSE || groupCount == 1) {
            this.item1 = null;
            this.more = null;
        } else {
            TxItem[] rest = null;
            if (groupCount > 2) {
                rest = new TxItem[groupCount - 2];
                for (int g = 2; g < groupCount; g++) {
                    rest[g - 2] = new TxItem(domain);
                }
            }
            this.more = rest;
            this.item1 = new TxItem(domain);
        }
    }

    /** @return the protocol domain of a new record of {@code stm}; checks {@code stm} first */
    private static int domainOf(Stm stm) {
        return Objects.requireNonNull(stm, "stm").protocolDomain();
    }

    /** @return the version item of group {@code g} */
    private TxItem item(int g) {
        // g is a constant in generated accessors: after inlining only the null test remains.
        TxItem i1 = item1;
        return i1 == null || g == 0 ? this : g == 1 ? i1 : more[g - 2];
    }

    /** @return the groups sharing group {@code g}'s item: itself when split, all when coarse */
    private int itemGroups(int g) {
        return item1 == null ? allGroups() : 1 << g;
    }

    /** @return the number of declared groups */
    private int groupCount() {
        return groupCount;
    }

    /** @return the mask of all declared groups; an item of the coarse layout covers all of them */
    private int allGroups() {
        return -1 >>> (32 - groupCount);
    }

    // ---------------------------------------------------------------- generated-code contract

    /** Copies the columns of {@code groupMask}'s groups that {@code image} has not marked dirty. */
    protected abstract void load(RecordImage image, int groupMask);

    /** Copies every column of {@code groupMask}'s groups from {@code image} into this record. */
    protected abstract void store(RecordImage image, int groupMask);

    /** @return the pool kind of this record class's images */
    protected abstract Scratch<? extends RecordImage> imageKind();

    /**
     * Copies the columns of the groups in {@code groupMask} from image {@code from} into image
     * {@code to} (both of this record's type); the other columns of {@code to} stay as they are.
     */
    protected abstract void copy(RecordImage from, RecordImage to, int groupMask);

    /**
     * Writes the columns of the groups in {@code groupMask} held in {@code image} (of this
     * record's type) to {@code out}: group by group in group-index order, each group's columns in
     * declaration order, one call per column. Writes nothing else, and changes neither
     * {@code image} nor this record.
     */
    protected abstract void writeColumns(RecordImage image, int groupMask, ColumnOutput out);

    /**
     * Reads into {@code image} (of this record's type) what {@link #writeColumns} wrote for the
     * same {@code groupMask}, in the same order: every column of those groups is set, the other
     * columns of {@code image} stay as they are, and this record is not changed.
     */
    protected abstract void readColumns(ColumnInput in, int groupMask, RecordImage image);

    /** @return a new, empty image of this record class */
    protected abstract RecordImage newImage();

    /** @return the specification class annotated {@link TxRecord} */
    protected abstract Class<?> specification();

    /** @return the index of the group named {@code name}, or -1 */
    protected abstract int groupIndex(String name);

    // ---------------------------------------------------------------- for generated accessors

    /** @return the store this record belongs to */
    public final Stm stm() {
        return stm;
    }

    /** @return how this instance maps groups to versions */
    public final RecordLayout layout() {
        return coarse ? RecordLayout.COARSE : RecordLayout.SPLIT;
    }

    /** @return the transaction context for {@code txn}, checked for thread, state and store */
    protected final TxnContext context(Txn txn) {
        return TxnContext.of(txn, stm);
    }

    /**
     * Starts an in-place read of group {@code g}: returns the observed entry, to be passed to
     * {@link #endRead} after the field loads, or null if the transaction writes the group or the
     * protocol served an older version of it ({@link Entry#VERSION}); then read the image from
     * {@link #readImage}.
     */
    protected final Entry beginRead(TxnContext c, int g) {
        Entry e = c.entry(item(g));
        int f = e.flags();
        if ((f & Entry.WRITE) != 0) {
            return null;
        }
        if ((f & Entry.READ) == 0) {
            c.observe(e);
            f = e.flags();
        }
        // A multi-version protocol may serve an older version: then the getter reads its image.
        return (f & Entry.VERSION) == 0 ? e : null;
    }

    /** Ends an in-place read; aborts the attempt if the group changed since it was observed. */
    protected final void endRead(TxnContext c, Entry e) {
        c.checkRead(e);
    }

    /**
     * Copies group {@code g}'s columns as of the transaction into {@code into}: one access-set
     * lookup, one observation and one validation of the group's version for all of them, where a
     * getter per column pays each once. Bad input throws before anything is read.
     */
    protected final void readGroupInto(TxnContext c, int g, RecordImage into) {
        int n = groupCount();
        if (g < 0 || g >= n) {
            throw new IllegalArgumentException("no group " + g + " in " + getClass().getSimpleName()
                    + ": its groups are numbered 0 to " + (n - 1) + " (use its GROUP_ constants)");
        }
        Objects.requireNonNull(into, "into");
        // load() skips columns an updater has set; a caller's image has no such marks to keep.
        into.clearDirty();
        Entry e = beginRead(c, g);
        if (e == null) {
            copy(readImage(c, g), into, 1 << g);
            return;
        }
        load(into, 1 << g);
        endRead(c, e);
    }

    /**
     * @return the transaction's image of group {@code g}: its pending image, materialized, if it
     *         writes the group, else the older version the protocol served
     */
    protected final RecordImage readImage(TxnContext c, int g) {
        Entry e = c.find(item(g));
        if ((e.flags() & Entry.WRITE) == 0) {
            return (RecordImage) e.readRef();
        }
        RecordImage im = (RecordImage) e.pendingRef();
        if (!im.isMaterialized()) {
            materialize(c, e, keptImage(c, e, im));
            im = (RecordImage) e.pendingRef();
        }
        return im;
    }

    /**
     * @return the image a setter of group {@code g} writes into: created on the first write,
     *         materialized first if updaters are pending (a set after an update reads the group)
     */
    protected final RecordImage writeImage(TxnContext c, int g) {
        Entry e = c.entry(item(g));
        RecordImage im = imageForWrite(c, e, g);
        if (im.hasOps()) {
            materialize(c, e, im);
        }
        // A setter writes blindly: the group's write is no longer operations only.
        c.clearUpdate(e);
        return im;
    }

    /** Schedules {@code updater} on its group: applied at commit, or now if the group is materialized. */
    protected final void scheduleUpdate(TxnContext c, RecordUpdater<?> updater) {
        schedule(c, updater, 0L, false);
    }

    /**
     * Schedules {@code updater} with {@code operand} on its group, as {@link #scheduleUpdate(TxnContext,
     * RecordUpdater)}: the operand is kept beside the updater in the pooled image, so nothing is
     * allocated per call.
     */
    protected final void scheduleUpdate(TxnContext c, RecordLongUpdater<?> updater, long operand) {
        schedule(c, updater, operand, true);
    }

    private void schedule(TxnContext c, Object updater, long operand, boolean longOp) {
        UpdaterInfo info = UpdaterInfo.of(updater);
        int g = info.group(this);
        Entry e = c.entry(item(g));
        RecordImage im = imageForWrite(c, e, g);
        if (im.isMaterialized()) {
            im.apply(updater, operand, 1 << g, longOp);
        } else {
            if (!im.hasOps()) {
                c.requestCheck(e, PARTICIPANT);
            }
            im.addOp(updater, operand, 1 << g, longOp);
            if (im.hasSetterWrites()) {
                c.clearUpdate(e);
            } else {
                // Operations only, so far: the protocol may take them without a read dependency.
                c.markUpdate(e, info.commutative);
            }
        }
    }

    private RecordImage imageForWrite(TxnContext c, Entry e, int g) {
        if ((e.flags() & Entry.WRITE) != 0) {
            return keptImage(c, e, (RecordImage) e.pendingRef());
        }
        RecordImage im = c.borrow(imageKind());
        im.attach(itemGroups(g));
        c.writeCustom(e, PARTICIPANT, this, im);
        RecordObserver o = (RecordObserver) OBSERVER.getOpaque(this);
        if (o != null) {
            o.written(c, this, itemGroups(g));
        }
        return im;
    }

    /**
     * @return {@code im}, the pending image of {@code e}, ready to change: inside a nested block that
     *         has not changed it yet, a copy that replaces it, so that a rollback of the block gets
     *         the original back unchanged
     */
    private RecordImage keptImage(TxnContext c, Entry e, RecordImage im) {
        if (!c.keepPending(e)) {
            return im;
        }
        RecordImage copy = c.borrow(imageKind());
        copy(im, copy, im.groups());
        copy.copyStateOf(im);
        e.setPendingRef(copy);
        return copy;
    }

    private void materialize(TxnContext c, Entry e, RecordImage im) {
        if ((e.flags() & Entry.READ) == 0) {
            c.observe(e);
        }
        load(im, im.groups());
        c.checkRead(e);
        im.applyOps();
        im.setMaterialized();
        c.clearUpdate(e);
    }

    // ---------------------------------------------------------------- observers (SPI)

    /** @return the observer told of this record's writes, or null */
    public final RecordObserver observer() {
        return observer;
    }

    /**
     * Attaches {@code o} (or, with null, detaches the observer): from then on every transaction's
     * first write to a group's item calls it. Only the owner of the record's durability (a durable
     * store) calls this.
     */
    public final void setObserver(RecordObserver o) {
        OBSERVER.setRelease(this, o);
    }

    /** @return the mask of every declared group (bit g set for group g) */
    public final int groupMask() {
        return allGroups();
    }

    /**
     * Check phase of {@code c}'s commit: writes the columns of {@code groupMask}'s groups (group by
     * group in index order, as {@link #writeColumns} does) as the commit will install them — for a
     * group {@code c} writes, its pending image with the setters' values and the updaters applied
     * (run here if the record's own check has not run yet: it runs them once); for any other
     * group, its committed columns.
     *
     * <p>Call only while {@code c} holds the locks of the groups it writes and no other
     * transaction can be installing the others (a durable store orders every writer of a row
     * through one lock of its own).
     *
     * @throws IllegalStateException if a group's write is a delta version (MVCC's
     *                               {@code updaterDeltas}): its value is the protocol's to compute
     *                               at install, so it cannot be written here
     */
    public final void writeCommitColumns(TxnContext c, int groupMask, ColumnOutput out) {
        RecordImage committed = null;
        for (int g = 0, n = groupCount(); g < n; g++) {
            int bit = 1 << g;
            if ((groupMask & bit) == 0) {
                continue;
            }
            Entry e = c.find(item(g));
            if (e != null && (e.flags() & Entry.WRITE) != 0 && e.pendingRef() instanceof RecordImage) {
                if (e.has(Entry.DELTA)) {
                    throw new IllegalStateException("group " + g + " of a " + getClass().getSimpleName()
                            + " is written as a delta version, whose value only its protocol computes; a"
                            + " durable record needs delta versions off (mvcc's updaterDeltas)");
                }
                RecordImage im = (RecordImage) e.pendingRef();
                prepareAtCommit(im);
                writeColumns(im, bit, out);
            } else {
                if (committed == null) {
                    committed = c.borrow(imageKind());
                    committed.attach(allGroups());
                    load(committed, groupMask);
                }
                writeColumns(committed, bit, out);
            }
        }
    }

    /**
     * Check phase, the image's groups locked: loads the columns the setters did not write and
     * runs the pending updaters, once (whoever comes first: the record's own check or an
     * observer's {@link #writeCommitColumns}). User updater code runs here, before any install,
     * so one that throws rolls the commit back with nothing written.
     */
    private void prepareAtCommit(RecordImage im) {
        if (!im.isMaterialized()) {
            load(im, im.groups());
            im.applyOps();
            im.setMaterialized();
        }
    }

    /**
     * Writes the committed columns of {@code groupMask}'s groups, read outside any transaction
     * as one consistent snapshot of the record (each group locked while it is copied).
     */
    public final void writeColumnsNonTx(int groupMask, ColumnOutput out) {
        RecordImage im = newImage();
        im.attach(allGroups());
        snapshotNonTx(im);
        writeColumns(im, groupMask, out);
    }

    /**
     * Reads columns that {@link #writeColumns} wrote for {@code encodedMask} and stores those of
     * {@code storeMask}'s groups (a subset of {@code encodedMask}) into this record as new committed
     * versions, outside any transaction (recovery builds rows with it).
     */
    public final void readColumnsNonTx(ColumnInput in, int encodedMask, int storeMask) {
        if ((storeMask & ~encodedMask) != 0) {
            throw new IllegalArgumentException("storeMask " + Integer.toBinaryString(storeMask)
                    + " names groups that encodedMask " + Integer.toBinaryString(encodedMask) + " does not hold");
        }
        RecordImage im = newImage();
        im.attach(allGroups());
        readColumns(in, encodedMask, im);
        if (storeMask == 0) {
            return;
        }
        ConcurrencyControl cc = stm.concurrencyControl();
        long[] words = lockAll(cc);
        try {
            store(im, storeMask);
        } finally {
            unlockAll(cc, words, true);
        }
    }

    // ---------------------------------------------------------------- non-transactional

    /** Fills {@code image} with a consistent snapshot of every column, outside any transaction. */
    protected final void snapshotNonTx(RecordImage image) {
        ConcurrencyControl cc = stm.concurrencyControl();
        long[] words = lockAll(cc);
        try {
            load(image, -1);
        } finally {
            unlockAll(cc, words, false);
        }
    }

    /** Stores every column of {@code image}, outside any transaction, as one new version per group. */
    protected final void storeNonTx(RecordImage image) {
        ConcurrencyControl cc = stm.concurrencyControl();
        long[] words = lockAll(cc);
        try {
            store(image, -1);
        } finally {
            unlockAll(cc, words, true);
        }
    }

    /** Applies {@code updater} to the latest columns of its group, outside any transaction. */
    protected final void updateNonTx(RecordUpdater<?> updater, RecordImage scratch) {
        applyNonTx(updater, 0L, scratch, false);
    }

    /** Applies {@code updater} with {@code operand} to the latest columns of its group, outside any transaction. */
    protected final void updateNonTx(RecordLongUpdater<?> updater, long operand, RecordImage scratch) {
        applyNonTx(updater, operand, scratch, true);
    }

    private void applyNonTx(Object updater, long operand, RecordImage scratch, boolean longOp) {
        int g = UpdaterInfo.groupOf(updater, this);
        ConcurrencyControl cc = stm.concurrencyControl();
        TxItem item = item(g);
        long w = cc.lockNonTx(item);
        boolean changed = false;
        try {
            scratch.attach(itemGroups(g));
            load(scratch, scratch.groups());
            scratch.apply(updater, operand, 1 << g, longOp);
            store(scratch, scratch.groups());
            changed = true;
        } finally {
            cc.unlockNonTx(item, w, changed, false);
        }
    }

    /** Checks that no transaction of the store runs on this thread (non-transactional views). */
    protected final void checkOutsideTransaction() {
        if (stm.inTransaction()) {
            throw new IllegalStateException("non-transactional record operation inside a transaction of store '"
                    + stm.name() + "'; use the transactional accessors");
        }
    }

    /**
     * Locks every group's item without ever waiting while holding one: it waits for one group
     * holding nothing, takes the others with {@link ConcurrencyControl#tryLockNonTx}, and if one
     * is busy releases what it took and starts again, waiting for that one. A protocol whose
     * transactions hold locks while they run (2PL, SwissTM) may have one holding a group and
     * waiting for another that this operation holds; a wait while holding would keep both until
     * the transaction's wait bound ran out (RecordInPlaceReadStressTest: about 250 operations a
     * second under 2PL with a split record, instead of about 50,000).
     */
    private long[] lockAll(ConcurrencyControl cc) {
        int n = groupCount();
        long[] words = new long[n];
        int waitFor = 0;
        for (;;) {
            words[waitFor] = cc.lockNonTx(item(waitFor));
            int busy = -1;
            int taken = -1; // groups below this index (besides waitFor) are held
            try {
                for (int g = 0; g < n; g++) {
                    if (g != waitFor && firstUse(g)) {
                        long w = cc.tryLockNonTx(item(g));
                        if (w == ConcurrencyControl.NON_TX_BUSY) {
                            busy = g;
                            break;
                        }
                        words[g] = w;
                    }
                    taken = g;
                }
            } catch (Throwable t) {
                releaseTaken(cc, words, waitFor, taken);
                throw t;
            }
            if (busy < 0) {
                return words;
            }
            releaseTaken(cc, words, waitFor, taken);
            waitFor = busy;
        }
    }

    /** Releases, unchanged, {@code waitFor}'s item and those of the groups up to {@code taken}. */
    private void releaseTaken(ConcurrencyControl cc, long[] words, int waitFor, int taken) {
        for (int g = taken; g >= 0; g--) {
            if (g != waitFor && firstUse(g)) {
                cc.unlockNonTx(item(g), words[g], false, false);
            }
        }
        cc.unlockNonTx(item(waitFor), words[waitFor], false, false);
    }

    private void unlockAll(ConcurrencyControl cc, long[] words, boolean changed) {
        for (int g = words.length - 1; g >= 0; g--) {
            if (firstUse(g)) {
                cc.unlockNonTx(item(g), words[g], changed, false);
            }
        }
    }

    /** @return true if group {@code g} is the first group using its item */
    private boolean firstUse(int g) {
        for (int h = 0; h < g; h++) {
            if (item(h) == item(g)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Diagnostics for tests: null if the protocol finds every group's metadata quiescent (no lock
     * held, version sane), else what is wrong. Call only while no transaction runs.
     */
    public final String checkQuiescent() {
        ConcurrencyControl cc = stm.concurrencyControl();
        for (int g = 0, n = groupCount(); g < n; g++) {
            if (!firstUse(g)) {
                continue;
            }
            String problem = cc.checkQuiescent(item(g));
            if (problem != null) {
                return "group " + g + ": " + problem;
            }
        }
        return null;
    }

    /** Installs pending images; prepares (loads and runs updaters) in the check phase. */
    private static final class Participant implements TxParticipant {
        @Override
        public boolean check(TxnContext txn, Entry entry) {
            // Runs with every write item locked and before any install: user updater code runs
            // here so that if it throws, nothing has been written in place yet. A delta version's
            // updaters are the protocol's to apply (to its copies, before its point of no return).
            if (entry.has(Entry.DELTA)) {
                return true;
            }
            ((AbstractRecord) entry.key()).prepareAtCommit((RecordImage) entry.pendingRef());
            return true;
        }

        /** A copy of the committed columns of every group that shares the entry's item. */
        @Override
        public Object captureVersion(TxnContext txn, Entry entry) {
            AbstractRecord r = (AbstractRecord) entry.key();
            int groups = 0;
            for (int g = 0, n = r.groupCount(); g < n; g++) {
                if (r.item(g) == entry.item()) {
                    groups |= 1 << g;
                }
            }
            RecordImage version = r.newImage();
            version.attach(groups);
            r.load(version, groups);
            version.setMaterialized();
            return version;
        }

        /** Commutative updaters may become delta versions (docs/mvcc.md, "Delta versions"). */
        @Override
        public boolean supportsDeltaVersions() {
            return true;
        }

        /** A copy of the column copy {@code version} with the updaters applied, in order. */
        @Override
        public Object applyOperations(Object key, Object version, Object[] operations) {
            AbstractRecord r = (AbstractRecord) key;
            RecordImage from = (RecordImage) version;
            RecordImage to = r.newImage();
            to.attach(from.groups());
            r.copy(from, to, from.groups());
            to.setMaterialized();
            for (Object o : operations) {
                // The protocol's operations come from operation(): plain or bound updaters.
                to.apply(o, 0L, 1 << UpdaterInfo.groupOf(o, r), false);
            }
            return to;
        }

        @Override
        public void storeVersion(Object key, Object version) {
            RecordImage im = (RecordImage) version;
            ((AbstractRecord) key).store(im, im.groups());
        }

        @Override
        public int operationCount(TxnContext txn, Entry entry) {
            return ((RecordImage) entry.pendingRef()).opCount();
        }

        @Override
        public Object operation(TxnContext txn, Entry entry, int index) {
            return ((RecordImage) entry.pendingRef()).op(index);
        }

        @Override
        public void install(TxnContext txn, Entry entry, long commitTimestamp) {
            RecordImage im = (RecordImage) entry.pendingRef();
            AbstractRecord r = (AbstractRecord) entry.key();
            if (!im.isMaterialized()) {
                // Setters only: the columns they did not write come from the locked record.
                r.load(im, im.groups());
            }
            r.store(im, im.groups());
        }
    }
}
