package io.jato.protocols.tictoc;

import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.ProtocolOption;

import java.util.List;

/**
 * TicToc's optimization switches (seed 001 §5), per store, given as builder options:
 * {@code Stm.builder().protocol("tictoc").option("history", 4)}. See {@code docs/configuration.md}.
 *
 * @param noWait          {@value #NO_WAIT}: a busy write lock aborts the commit at once (default
 *                        true, §5.1) instead of spinning up to the store's lock spin bound
 * @param preemptiveAbort {@value #PREEMPTIVE_ABORT}: abort before locking when an approximate
 *                        commit timestamp shows a read cannot validate (default true, §5.2)
 * @param historySize     {@value #HISTORY}: old versions' timestamps kept per item to validate
 *                        reads of replaced versions (default 0 = off: §6.4 measured no gain), at
 *                        most {@value #HISTORY_MAX}
 */
public record TicTocOptions(boolean noWait, boolean preemptiveAbort, int historySize) {
    public static final String NO_WAIT = "noWait";
    public static final String PREEMPTIVE_ABORT = "preemptiveAbort";
    public static final String HISTORY = "history";

    public static final boolean NO_WAIT_DEFAULT = true;
    public static final boolean PREEMPTIVE_ABORT_DEFAULT = true;
    public static final int HISTORY_DEFAULT = 0;
    public static final int HISTORY_MAX = 64;

    /** The options every TicToc variant declares, with their defaults. */
    static final List<ProtocolOption> DECLARED = List.of(
            ProtocolOption.of(NO_WAIT, NO_WAIT_DEFAULT,
                    "a busy write lock aborts the commit at once (§5.1); false spins up to lockSpinLimit"),
            ProtocolOption.of(PREEMPTIVE_ABORT, PREEMPTIVE_ABORT_DEFAULT,
                    "abort before locking when an approximate commit timestamp shows a read cannot validate (§5.2)"),
            ProtocolOption.of(HISTORY, HISTORY_DEFAULT,
                    "old-version timestamps kept per item for validation (§5.3); 0 = off, at most " + HISTORY_MAX));

    public TicTocOptions {
        if (historySize < 0 || historySize > HISTORY_MAX) {
            throw new IllegalArgumentException(HISTORY + " must be in [0, " + HISTORY_MAX + "], was " + historySize);
        }
    }

    /**
     * @return the options a store was built with (defaults for unset ones)
     * @throws IllegalArgumentException naming the option if a value is invalid
     */
    public static TicTocOptions from(ProtocolContext context) {
        return new TicTocOptions(context.booleanOption(NO_WAIT), context.booleanOption(PREEMPTIVE_ABORT),
                context.intOption(HISTORY, 0, HISTORY_MAX));
    }
}
