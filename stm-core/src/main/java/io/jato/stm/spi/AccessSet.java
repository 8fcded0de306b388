package io.jato.stm.spi;

import io.jato.stm.Txn;
import io.jato.stm.internal.Tunables;

import java.util.Arrays;

/*
 * A flat array of pre-allocated Entry objects with a parallel array of their items, reused by every
 * transaction of the thread. "Did this transaction already touch item X" scans the item array
 * while the set is small (a few compares beat hashing) and switches to an open-addressing index of
 * entry positions once the set passes Tunables.LINEAR_SCAN_LIMIT. Nothing is allocated per
 * transaction once the arrays have grown to the workload's largest transaction.
 *
 * Beside the set, three lists name the entries each commit phase visits, in the order they joined
 * them: the write list (first write), the read list (first read or observation) and the check list
 * (first requestCheck). The commit walks only those, instead of the whole set once per phase. The
 * lists hold entry positions, not references: an int store into them needs no collector barrier,
 * and with the conditional stores of the retry loop it took about 4 ns off a one-entry read-only
 * transaction (docs/benchmarks/2026-11-mixed.md).
 *
 * Why a superclass of TxnContext and not an object it holds: every read, write and commit phase
 * touches these fields, and as fields of the context itself they are one dependent load closer
 * (c.items[i], not c.set.items[i]); after each volatile read of an item's word the JIT must load
 * them again, so the extra hop was paid per access. Folding it in took 1-4.5 ns off small
 * transactions in JMH (docs/benchmarks/2026-11-perfasm.md, "The access set folded into the
 * context"). The layout habit is JCTools': one concern's fields per class of a chain. Txn, first in
 * the chain, carries the padding before them (see ThreadPadding).
 *
 * Package-private in the SPI package, not in internal: it manages Entry's package-private state.
 */

/**
 * The access set of one {@link TxnContext}: its entries, their lookup, and the per-phase lists.
 * Owner thread only. Its public methods are the context's: data types and protocols call them on a
 * {@link TxnContext}.
 */
abstract class AccessSet extends Txn {
    private final int linearScanLimit = Tunables.LINEAR_SCAN_LIMIT;
    /**
     * Size up to which a read log ({@link #readLog}) skips lookups; past it the set indexes its
     * entries like any other, so a read-only transaction that keeps re-reading the same items
     * cannot grow without bound.
     */
    private static final int READ_LOG_LIMIT = 1024;

    private Entry[] entries;
    private TxItem[] items;
    private int size;
    /** Entry position + 1 per slot, 0 for empty; valid only while {@code indexed}, all zero otherwise. */
    private int[] index;
    /** Per entry position: its slot in {@link #index}, so that clearing touches only used slots. */
    private int[] slotOf;
    private boolean indexed;
    /**
     * This attempt keeps its reads as a log: {@link #find} looks only at the last entry, so an
     * item read again later gets a second entry, observed and validated on its own. Set per
     * attempt, only for declared read-only transactions of protocols that validate every read at
     * one serialization point ({@link ConcurrencyControl#validatesEveryRead}); see {@link #find}.
     */
    private boolean readLog;
    /**
     * This attempt logs its reads of value cells as (item, word) pairs ({@link #logWord}) instead
     * of entries: a declared read-only attempt of a protocol that {@link ConcurrencyControl#logsReadWords
     * logs read words}. Set per attempt with {@link #readLog}.
     */
    boolean wordLog;
    /** The word log: items and the words {@link ConcurrencyControl#stableWord} gave, in read order. */
    private TxItem[] logItems;
    private long[] logWords;
    private int logCount;

    /** Positions of the entries with {@link Entry#WRITE}, in first-write order (each once). */
    private int[] writes;
    private int writeCount;
    /** Positions of the entries with {@link Entry#READ} but not {@link Entry#UNTRACKED}, in first-read order (each once). */
    private int[] reads;
    private int readCount;
    /** Positions of the entries with {@link Entry#CHECK}, in request order (each once). */
    private int[] checks;
    private int checkCount;

    /** Whether this attempt created items ({@link TxnContext#appendInsert}). */
    boolean hasInserts;
    /** Bits of the data types that buffered inserts or noted absences in this attempt. */
    long insertMarks;
    /** Whether some entry asked for a cleanup. */
    boolean needsCleanup;

    AccessSet() {
        int cap = Integer.highestOneBit(Tunables.ACCESS_SET_CAPACITY - 1) << 1;
        this.entries = new Entry[cap];
        for (int i = 0; i < cap; i++) {
            entries[i] = new Entry(i);
        }
        this.items = new TxItem[cap];
        this.index = new int[cap * 2];
        this.slotOf = new int[cap];
        this.writes = new int[cap];
        this.reads = new int[cap];
        this.checks = new int[cap];
        this.logItems = new TxItem[cap];
        this.logWords = new long[cap];
    }

    /** @return the number of entries in the access set */
    public final int size() {
        return size;
    }

    Entry at(int i) {
        return entries[i];
    }

    /**
     * @return the number of entries this attempt wrote ({@link Entry#WRITE}), and those it holds
     *         locked for a nested block that wrote them and rolled back ({@link Entry#HELD}: a
     *         version-only write)
     */
    public final int writeCount() {
        return writeCount;
    }

    /** @return the {@code k}-th written entry, {@code 0 <= k < writeCount()}, in first-write order */
    public final Entry writeAt(int k) {
        return entries[writes[k]];
    }

    /** @return the number of entries this attempt read or observed ({@link Entry#READ}) and must validate (not {@link Entry#UNTRACKED}) */
    public final int readCount() {
        return readCount;
    }

    /** @return the {@code k}-th read entry, {@code 0 <= k < readCount()}, in first-read order */
    public final Entry readAt(int k) {
        return entries[reads[k]];
    }

    int checkCount() {
        return checkCount;
    }

    Entry checkAt(int k) {
        return entries[checks[k]];
    }

    /**
     * Starts an attempt's set: {@code log} makes it a read log (see {@link #readLog}). The set is
     * empty here; the mode holds until {@link #clearSet}.
     */
    final void beginSet(boolean log, boolean words) {
        readLog = log;
        wordLog = log && words;
    }

    /** @return the number of reads in the word log */
    int logCount() {
        return logCount;
    }

    TxItem logItem(int k) {
        return logItems[k];
    }

    long logWord(int k) {
        return logWords[k];
    }

    /** Appends a logged read of {@code item} at {@code word}. */
    void logWord(TxItem item, long word) {
        int k = logCount;
        if (k == logItems.length) {
            growLog();
        }
        logItems[k] = item;
        logWords[k] = word;
        logCount = k + 1;
    }

    private void growLog() {
        // Both allocated before either is replaced: an OutOfMemoryError leaves the log as it was.
        int cap = logItems.length << 1;
        TxItem[] ni = Arrays.copyOf(logItems, cap);
        long[] nw = Arrays.copyOf(logWords, cap);
        logItems = ni;
        logWords = nw;
    }

    /**
     * @return the entry for {@code item}, or null. In a read log (declared read-only attempts of
     * protocols that validate every read) only the last entry is looked at, and only while the set
     * is below 1,024 entries (READ_LOG_LIMIT): consecutive accesses to one item (a record's columns)
     * share an entry, any other repeat gets its own, as in TL2's or SwissTM's read logs. That is
     * safe because such a protocol validates every entry at one serialization point, so two
     * entries of an item that saw different versions cannot both pass; and a read-only attempt has
     * no own writes a lookup could need to find. It saves the lookup and the index upkeep per read.
     */
    public final Entry find(TxItem item) {
        if (!indexed) {
            TxItem[] its = items;
            int n = size;
            if (readLog) {
                return n != 0 && its[n - 1] == item ? entries[n - 1] : null;
            }
            for (int i = 0; i < n; i++) {
                if (its[i] == item) {
                    return entries[i];
                }
            }
            return null;
        }
        int[] idx = index;
        int mask = idx.length - 1;
        for (int slot = item.itemHash() & mask;; slot = (slot + 1) & mask) {
            int p = idx[slot];
            if (p == 0) {
                return null;
            }
            if (items[p - 1] == item) {
                return entries[p - 1];
            }
        }
    }

    /** Appends a fresh entry for {@code item} (which the caller knows is not in the set). */
    Entry append(TxItem item) {
        int pos = size;
        if (pos == entries.length) {
            grow();
        }
        Entry e = entries[pos];
        e.reset(item);
        items[pos] = item;
        size = pos + 1;
        if (indexed) {
            indexInsert(item, pos);
        } else if (size > (readLog ? READ_LOG_LIMIT : linearScanLimit)) {
            buildIndex();
        }
        return e;
    }

    /**
     * Sets {@link Entry#READ} on {@code e} and lists it, unless it is read already or its read is
     * {@link Entry#UNTRACKED} (served from a snapshot that needs no validation).
     */
    void markRead(Entry e) {
        int f = e.flags;
        if ((f & Entry.READ) == 0) {
            e.flags = f | Entry.READ;
            if ((f & Entry.UNTRACKED) == 0) {
                reads[readCount++] = e.position;
            }
        }
    }

    /** Lists {@code e} as written; the caller sets {@link Entry#WRITE} (once per entry). */
    void addWrite(Entry e) {
        writes[writeCount++] = e.position;
    }

    /** Sets {@link Entry#CHECK} on {@code e} and lists it, unless it is set already. */
    void markCheck(Entry e) {
        int f = e.flags;
        if ((f & Entry.CHECK) == 0) {
            e.flags = f | Entry.CHECK;
            checks[checkCount++] = e.position;
        }
    }

    /** Puts {@code e} at position {@code k} of the write list (a savepoint rollback compacting it). */
    void putWrite(int k, Entry e) {
        writes[k] = e.position;
    }

    /** Cuts the write list to its first {@code n} entries (a savepoint rollback). */
    void truncateWrites(int n) {
        writeCount = n;
    }

    /** Cuts the check list to its first {@code n} entries, clearing {@link Entry#CHECK} on the others. */
    void truncateChecks(int n) {
        for (int k = n; k < checkCount; k++) {
            entries[checks[k]].flags &= ~Entry.CHECK;
        }
        checkCount = n;
    }

    /** Empties the set: drops every reference the entries hold, keeps the arrays. */
    final void clearSet() {
        final Entry[] es = entries;
        for (int i = 0, n = size; i < n; i++) {
            es[i].clearRefs();
            items[i] = null;
        }
        if (indexed) {
            // The index keeps the size of the largest transaction seen; a smaller one clears only
            // its own slots.
            int[] idx = index;
            if (size * 8 < idx.length) {
                int[] so = slotOf;
                for (int i = 0, n = size; i < n; i++) {
                    idx[so[i]] = 0;
                }
            } else {
                Arrays.fill(idx, 0);
            }
            indexed = false;
        }
        if (logCount != 0) {
            Arrays.fill(logItems, 0, logCount, null);
            logCount = 0;
        }
        // The lists hold only positions.
        size = 0;
        writeCount = 0;
        readCount = 0;
        checkCount = 0;
        hasInserts = false;
        insertMarks = 0;
        needsCleanup = false;
        readLog = false;
        wordLog = false;
    }

    private void grow() {
        // Allocate everything first, then assign: an OutOfMemoryError part-way leaves the set as
        // it was (the caller's append fails, the attempt rolls back, the thread stays usable).
        int cap = entries.length << 1;
        Entry[] ne = Arrays.copyOf(entries, cap);
        for (int i = entries.length; i < cap; i++) {
            ne[i] = new Entry(i);
        }
        TxItem[] ni = Arrays.copyOf(items, cap);
        int[] nx = new int[cap * 2];
        int[] ns = new int[cap];
        int[] nw = Arrays.copyOf(writes, cap);
        int[] nr = Arrays.copyOf(reads, cap);
        int[] nc = Arrays.copyOf(checks, cap);
        entries = ne;
        items = ni;
        index = nx;
        slotOf = ns;
        writes = nw;
        reads = nr;
        checks = nc;
        if (indexed) {
            buildIndex();
        }
    }

    /** Indexes every entry; the index is all zero here (new, or cleared by {@link #clearSet}). */
    private void buildIndex() {
        for (int i = 0; i < size; i++) {
            indexInsert(items[i], i);
        }
        indexed = true;
    }

    private void indexInsert(TxItem item, int pos) {
        int[] idx = index;
        int mask = idx.length - 1;
        int slot = item.itemHash() & mask;
        while (idx[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        idx[slot] = pos + 1;
        slotOf[pos] = slot;
    }
}
