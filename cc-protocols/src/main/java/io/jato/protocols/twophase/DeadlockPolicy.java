package io.jato.protocols.twophase;

import java.util.Locale;

/**
 * What a 2PL transaction does when a lock it asks for is held in a conflicting mode. Either way no
 * wait-for cycle can form, so no deadlock needs detecting.
 */
public enum DeadlockPolicy {
    /** Abort at once ({@code LOCK_BUSY} for a write, {@code READ_BUSY} for a read). */
    NO_WAIT,
    /**
     * Wait only for younger holders; a younger requester dies (aborts). Ages come from a store
     * counter when a transaction first locks, and survive its retries, so a transaction only grows
     * older relative to newcomers and eventually wins every conflict.
     */
    WAIT_DIE;

    /** @return the option spelling: {@code no-wait} or {@code wait-die} */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * @return the policy spelled {@code value}
     * @throws IllegalArgumentException if {@code value} names none
     */
    public static DeadlockPolicy parse(String value) {
        return parse(value, TwoPhaseProtocol.NAME);
    }

    /**
     * @return the policy spelled {@code value}, an option of protocol {@code protocol}
     * @throws IllegalArgumentException if {@code value} names none
     */
    public static DeadlockPolicy parse(String value, String protocol) {
        for (DeadlockPolicy p : values()) {
            if (p.optionValue().equals(value.trim())) {
                return p;
            }
        }
        throw new IllegalArgumentException("option '" + TwoPhaseProtocol.DEADLOCK + "' of protocol '"
                + protocol + "' must be no-wait or wait-die, was '" + value + "'");
    }
}
