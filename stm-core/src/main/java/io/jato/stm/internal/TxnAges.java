package io.jato.stm.internal;

/**
 * A store's sequence of transaction ages: each transaction that asks for one
 * ({@code TxnContext.age()}) draws the next value once and keeps it across its retries, so that
 * the smaller of two ages belongs to the transaction that started competing first. Every protocol
 * of a store draws from this one sequence: a store whose objects are bound to several lock-taking
 * protocols must order any two transactions the same way in each of them, or wait-die's
 * older-waits-for-younger rule, kept in each protocol alone, would still admit a cycle through two
 * of them. Padded on both sides: every core that starts a locking transaction increments it.
 */
public final class TxnAges extends PaddedLong {
    public TxnAges() {
        super(0);
    }

    /** @return a value no other call returned, larger than every value returned before, and at least 1 (an atomic add) */
    public long next() {
        return getAndAddValue(1L) + 1;
    }
}
