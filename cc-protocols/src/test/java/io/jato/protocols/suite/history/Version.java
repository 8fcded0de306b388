package io.jato.protocols.suite.history;

/**
 * The immutable value stored in every item of a checked history: it names the transaction attempt
 * that wrote it and the version it replaced. Because every write is a read-modify-write, the
 * {@code overwritten} links give each item's version chain without any global clock.
 *
 * <p>Version ids are transaction ids: a committed transaction writes each item at most once, so
 * (item, writer) identifies a version. {@link #INITIAL} is the id of the imaginary transaction T0
 * that wrote every item's initial state (including "absent" for keys that start absent).
 */
public final class Version {
    /** The id of T0, which wrote every initial state. */
    public static final long INITIAL = 0L;
    /** The {@code overwritten} of an initial version. */
    public static final long NONE = -1L;

    private final long writer;
    private final long overwritten;

    public Version(long writer, long overwritten) {
        this.writer = writer;
        this.overwritten = overwritten;
    }

    /** @return the initial version, written by T0 */
    public static Version initial() {
        return new Version(INITIAL, NONE);
    }

    /** @return the id of the transaction attempt that wrote this version */
    public long writer() {
        return writer;
    }

    /** @return the id of the version this one replaced */
    public long overwritten() {
        return overwritten;
    }

    /** @return a readable transaction id: T0, or T&lt;thread&gt;.&lt;attempt&gt; */
    public static String name(long txnId) {
        if (txnId == INITIAL) {
            return "T0";
        }
        if (txnId == TxnRecord.DELETED) {
            return "<the delete>";
        }
        return "T" + (txnId >>> 32) + "." + (txnId & 0xffff_ffffL);
    }

    @Override
    public String toString() {
        return "v(" + name(writer) + " over " + (overwritten == NONE ? "nothing" : name(overwritten)) + ")";
    }
}
