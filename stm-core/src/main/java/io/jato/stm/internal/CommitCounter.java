package io.jato.stm.internal;

/**
 * The store-wide count of writing commits that an opaque store ({@code Stm.Builder.opacity})
 * keeps: every writing commit increments it after it holds all of its write locks and before its
 * first install, and every read that goes to shared memory compares it with the value at which
 * the attempt last found its reads current (TL2's and LSA's global clock, used only to decide when
 * to re-validate). Why that order suffices: a reader that sees a value a commit installed read that
 * item's published version, which was stored after the increment, so its following load of the
 * counter sees the increment and it re-validates; a commit that incremented before the reader's
 * last load either holds its locks still (the re-validation fails on them) or has published (the
 * reads of older versions fail). Padded on both sides: every writing core increments it. Stores
 * without opacity never touch it.
 */
public final class CommitCounter extends PaddedLong {
    public CommitCounter() {
        super(0);
    }

    /** Counts a writing commit (a volatile read-modify-write, a full fence). */
    public void increment() {
        getAndAddValue(1L);
    }

    /** @return the count, with volatile semantics */
    public long current() {
        return value;
    }
}
