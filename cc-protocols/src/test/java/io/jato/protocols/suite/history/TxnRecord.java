package io.jato.protocols.suite.history;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one committed transaction did: which version of each item it read (named by the version's
 * writer) and which items it wrote (naming the version each write replaced). Built by the
 * transaction body during its attempt and published only if the attempt committed.
 *
 * <p>Absent keys: a key that starts absent reads as version {@link Version#INITIAL}; a key that
 * starts present and is deleted (at most once, never re-inserted) reads absent as
 * {@link #DELETED}, which the checker resolves to the one committed transaction that deleted it.
 */
public final class TxnRecord {
    /** The version of a deleted key: "whatever the committed delete of this key wrote". */
    public static final long DELETED = -2L;

    /** One read: the version of {@code key} written by {@code writer}. */
    public record Read(String key, long writer) {
        @Override
        public String toString() {
            return key + "@" + Version.name(writer);
        }
    }

    /** One write of {@code key}, replacing the version written by {@code overwritten}. */
    public record Write(String key, long overwritten, boolean delete) {
        @Override
        public String toString() {
            return (delete ? "delete " : "") + key + " over " + Version.name(overwritten);
        }
    }

    private final long id;
    private final List<Read> reads = new ArrayList<>();
    private final List<Write> writes = new ArrayList<>();

    /** @param id the unique id of the transaction attempt (never {@link Version#INITIAL}) */
    public TxnRecord(long id) {
        if (id == Version.INITIAL || id < 0) {
            throw new IllegalArgumentException("reserved transaction id " + id);
        }
        this.id = id;
    }

    public long id() {
        return id;
    }

    /** Records a read of the version of {@code key} written by {@code writer}. */
    public TxnRecord read(String key, long writer) {
        reads.add(new Read(key, writer));
        return this;
    }

    /** Records a read of {@code key} as absent after its (only) delete. */
    public TxnRecord readDeleted(String key) {
        return read(key, DELETED);
    }

    /** Records a write of {@code key} replacing the version written by {@code overwritten}. */
    public TxnRecord write(String key, long overwritten) {
        writes.add(new Write(key, overwritten, false));
        return this;
    }

    /** Records the delete of {@code key}, replacing the version written by {@code overwritten}. */
    public TxnRecord delete(String key, long overwritten) {
        writes.add(new Write(key, overwritten, true));
        return this;
    }

    public List<Read> reads() {
        return Collections.unmodifiableList(reads);
    }

    public List<Write> writes() {
        return Collections.unmodifiableList(writes);
    }

    @Override
    public String toString() {
        return Version.name(id) + " reads " + reads + " writes " + writes;
    }
}
