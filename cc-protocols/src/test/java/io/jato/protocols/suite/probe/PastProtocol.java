package io.jato.protocols.suite.probe;

import io.jato.protocols.suite.ForwardingControl;
import io.jato.stm.AbortCause;
import io.jato.stm.Capabilities;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.LongItem;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxItem;
import io.jato.stm.spi.TxParticipant;
import io.jato.stm.spi.TxnContext;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test-only protocol that exercises the multi-version hooks of the SPI the way a multi-version
 * protocol will, on top of OCC:
 * <ul>
 *   <li>when a commit locks an item it keeps the version about to be overwritten — for an item
 *       whose data type keeps values in its own fields the participant's copy
 *       ({@code TxParticipant.captureVersion}), for a reference item its value — and while
 *       {@link Control#servePast} is on serves reads from it ({@code Entry.VERSION} for in-place
 *       items);</li>
 *   <li>it answers {@code ConcurrencyControl.NO_VERSION} for reference reads of the values in
 *       {@link Control#hiddenValues}, as a multi-version reader does for an entry inserted after
 *       its snapshot;</li>
 *   <li>on request it untracks the reads of declared read-only transactions
 *       ({@link Control#untrackReadOnly}) and keeps committed deletes linked until told to unlink
 *       them ({@link Control#keepDeletes}, {@link Control#unlinkKept}).</li>
 * </ul>
 * Validation is OCC's: a version served validates as long as nobody committed to the item since
 * the read, which is enough for tests that read in the past only while nothing writes.
 */
public final class PastProtocol implements Protocol {
    public static final String NAME = "test-past";

    /** The instance most recently created. */
    public static volatile Control lastCreated;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "TEST ONLY: OCC that keeps the previous version of in-place items and can serve reads from it";
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.of(Capabilities.Isolation.SERIALIZABLE);
    }

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        Control c = new Control(ForwardingControl.create("occ", context));
        lastCreated = c;
        return c;
    }

    /** The per-store instance. */
    public static final class Control extends ForwardingControl {
        /**
         * Per item, its version before its last commit: for an in-place item the participant's
         * copy of its values, for a reference item (a cell, a map entry) its value.
         */
        public final Map<TxItem, Object> previous = new ConcurrentHashMap<>();
        /** When true, reads of a transaction declared read-only are untracked ({@code TxnContext.untrack}). */
        public volatile boolean untrackReadOnly;
        /** When true, every read is untracked, whatever the transaction (to test the refusal). */
        public volatile boolean untrackAll;
        /** When true, committed deletes stay linked ({@code keepsDeleted}) until {@link #unlinkKept}. */
        public volatile boolean keepDeletes;
        /** The deletes kept linked, in commit order: each item with the participant that unlinks it. */
        public final List<Map.Entry<TxItem, TxParticipant>> kept = new CopyOnWriteArrayList<>();
        /** When set, the next {@code newTxnState} throws it (then it is cleared). */
        public volatile RuntimeException failNewTxnState;
        /** When true, reads of an item with a kept version are served from it (the "snapshot"). */
        public volatile boolean servePast;
        /** Reference reads that find one of these values answer that no version is visible. */
        public final java.util.Set<Object> hiddenValues = ConcurrentHashMap.newKeySet();

        Control(ConcurrencyControl occ) {
            super(occ);
        }

        @Override
        public String name() {
            return NAME;
        }

        /**
         * False, unlike the OCC it wraps: an untracked read is served from its entry on a repeated
         * read (what {@code UntrackedReadTest} checks), and this protocol's "snapshot" - the version
         * before an item's last commit - moves with every commit, so a read log's fresh read of the
         * same item could see another version that nothing validates.
         */
        @Override
        public boolean validatesEveryRead() {
            return false;
        }

        @Override
        public Object newTxnState(TxnContext txn) {
            RuntimeException fail = failNewTxnState;
            if (fail != null) {
                failNewTxnState = null;
                throw fail;
            }
            return super.newTxnState(txn);
        }

        @Override
        public AbortCause lock(TxnContext txn, Entry e) {
            AbortCause c = super.lock(txn, e);
            if (c == null && e.item() instanceof RefItem && !e.has(Entry.INSERT)) {
                // A cell or a map entry: its value before this commit is the version kept.
                Object before = super.lockedRef((RefItem) e.item());
                if (before != null) {
                    previous.put(e.item(), before);
                }
            }
            if (c == null && e.participant() != null) {
                Object version = e.participant().captureVersion(txn, e);
                if (version != null) {
                    previous.put(e.item(), version);
                }
            }
            return c;
        }

        @Override
        public boolean keepsDeleted(TxnContext txn, Entry e) {
            if (!keepDeletes) {
                return false;
            }
            // A test protocol may allocate here; a real one notes the pair in a prepared slot.
            kept.add(new AbstractMap.SimpleImmutableEntry<>(e.item(), e.participant()));
            return true;
        }

        /**
         * Unlinks every kept delete, as a multi-version protocol does once no snapshot can read
         * the version before it; returns, per kept item in commit order, whether this call
         * unlinked it (false: revived by a later write, or unlinked already).
         */
        public List<Boolean> unlinkKept() {
            List<Boolean> unlinked = new ArrayList<>();
            for (Map.Entry<TxItem, TxParticipant> k : kept) {
                unlinked.add(k.getValue().unlinkDeleted(k.getKey()));
            }
            return unlinked;
        }

        @Override
        public Object readRef(TxnContext txn, RefItem item, Entry e) {
            Object v = super.readRef(txn, item, e);
            untrackIfAsked(txn, e);
            Object past = servePast ? previous.get(item) : null;
            if (past != null) {
                return past;
            }
            return hiddenValues.contains(v) ? ConcurrencyControl.NO_VERSION : v;
        }

        @Override
        public long readLong(TxnContext txn, LongItem item, Entry e) {
            long v = super.readLong(txn, item, e);
            untrackIfAsked(txn, e);
            return v;
        }

        private void untrackIfAsked(TxnContext txn, Entry e) {
            if (untrackAll || untrackReadOnly && txn.isDeclaredReadOnly()) {
                txn.untrack(e);
            }
        }

        @Override
        public void observe(TxnContext txn, TxItem item, Entry e) {
            super.observe(txn, item, e);
            untrackIfAsked(txn, e);
            Object version = servePast && !(item instanceof RefItem) ? previous.get(item) : null;
            if (version != null) {
                e.setReadRef(version);
                e.addFlags(Entry.VERSION);
            }
        }
    }
}
