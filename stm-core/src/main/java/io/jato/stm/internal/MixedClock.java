package io.jato.stm.internal;

/**
 * The clock that orders the commits of transactions spanning several protocols of one store (see
 * {@code docs/mixed-protocols.md}): every such commit takes, by one successful CAS, a value
 * strictly above every value taken before it and at least what its timestamp-ordered protocols
 * proposed. Taken between "every write locked" and "first read validated", so its order agrees
 * with the real-time order of those commits' serialization points. Padded on both sides: every
 * core that commits a spanning transaction writes it. Transactions of one protocol never touch it.
 */
public final class MixedClock extends PaddedLong {
    public MixedClock() {
        super(0);
    }

    /**
     * @return a value greater than every value returned before this call began and at least
     *         {@code atLeast}; lock-free (one CAS per try)
     */
    public long next(long atLeast) {
        for (;;) {
            long v = value;
            long next = Math.max(v + 1, atLeast);
            if (casValue(v, next)) {
                return next;
            }
        }
    }

    /** @return the last value handed out (diagnostics and tests) */
    public long current() {
        return value;
    }
}
