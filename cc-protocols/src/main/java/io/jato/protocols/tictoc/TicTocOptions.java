package io.jato.protocols.tictoc;

/**
 * TicToc's optimization switches (seed 001 §5), resolved from system properties when a store is
 * created, so two stores built under different settings can be compared in one JVM. The protocol
 * SPI has no per-protocol builder options; see {@code docs/configuration.md}.
 *
 * @param noWait          {@value #NO_WAIT}: a busy write lock aborts the commit at once (default
 *                        true, §5.1) instead of spinning up to the store's lock spin bound
 * @param preemptiveAbort {@value #PREEMPTIVE_ABORT}: abort before locking when an approximate
 *                        commit timestamp shows a read cannot validate (default true, §5.2)
 * @param historySize     {@value #HISTORY}: old versions' timestamps kept per item to validate
 *                        reads of replaced versions (default 0 = off: §6.4 measured no gain)
 */
public record TicTocOptions(boolean noWait, boolean preemptiveAbort, int historySize) {
    public static final String NO_WAIT = "jato.tictoc.noWait";
    public static final String PREEMPTIVE_ABORT = "jato.tictoc.preemptiveAbort";
    public static final String HISTORY = "jato.tictoc.history";

    public static final boolean NO_WAIT_DEFAULT = true;
    public static final boolean PREEMPTIVE_ABORT_DEFAULT = true;
    public static final int HISTORY_DEFAULT = 0;
    private static final int HISTORY_MAX = 64;

    public TicTocOptions {
        if (historySize < 0 || historySize > HISTORY_MAX) {
            throw new IllegalArgumentException(HISTORY + " must be in [0, " + HISTORY_MAX + "], was " + historySize);
        }
    }

    /** @return the options given by the system properties now (defaults for unset ones) */
    public static TicTocOptions fromSystemProperties() {
        return new TicTocOptions(bool(NO_WAIT, NO_WAIT_DEFAULT), bool(PREEMPTIVE_ABORT, PREEMPTIVE_ABORT_DEFAULT),
                integer(HISTORY, HISTORY_DEFAULT));
    }

    private static boolean bool(String property, boolean dflt) {
        String raw = System.getProperty(property);
        if (raw == null) {
            return dflt;
        }
        switch (raw.trim()) {
            case "true":
                return true;
            case "false":
                return false;
            default:
                throw new IllegalArgumentException(property + " must be true or false, was '" + raw + "'");
        }
    }

    private static int integer(String property, int dflt) {
        String raw = System.getProperty(property);
        if (raw == null) {
            return dflt;
        }
        try {
            return Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " must be an integer, was '" + raw + "'", e);
        }
    }
}
