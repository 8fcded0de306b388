package io.jato.collections;

import io.jato.collections.internal.sorted.SortedIndex;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.TxnContext;

import java.util.Objects;

/** What {@link TxSortedMap} and {@link TxLongSortedMap} share: the engine, the store, diagnostics. */
abstract class SortedMapBase {
    final SortedIndex index;

    SortedMapBase(SortedIndex index) {
        this.index = index;
    }

    /** @return the store this map belongs to */
    public final Stm stm() {
        return index.stm();
    }

    /**
     * Diagnostics for tests, while no transaction or operation runs: null if every item is quiescent
     * for the protocol (no lock held) and the tree's invariants hold (ordering, fences, leaf chain,
     * one prefix per leaf with a layout, every linked key alive), else the first problem found.
     */
    public final String checkQuiescent() {
        return index.checkQuiescent();
    }

    /** @return the number of leaves (diagnostics for tests) */
    final int leafCount() {
        return index.leafCount();
    }

    /** single(): the committed value of a key, or null. */
    final Object singleGet(long k, Object ok) {
        NonTx.checkOutside(stm());
        return index.singleGet(k, ok);
    }

    /** single(): maps a key to {@code value}; returns the previous value or null. */
    final Object singlePut(long k, Object ok, Object value) {
        Objects.requireNonNull(value, "value");
        NonTx.checkOutside(stm());
        return index.singlePut(k, ok, value, false);
    }

    /** single(): removes a key; returns the removed value or null. */
    final Object singleRemove(long k, Object ok) {
        NonTx.checkOutside(stm());
        return index.singleRemove(k, ok);
    }

    /** single(): a weakly consistent scan of the committed entries; {@code fInf}/{@code tInf}: unbounded. */
    final void singleScan(long fk, Object fo, boolean fInc, boolean fInf, long tk, Object to, boolean tInc,
                          boolean tInf, int limit, boolean descending, Object visitor) {
        Objects.requireNonNull(visitor, "visitor");
        NonTx.checkOutside(stm());
        if (!index.emptyRange(fk, fo, fInc, fInf, tk, to, tInc, tInf, limit)) {
            index.walk(null, fk, fo, fInc, fInf, tk, to, tInc, tInf, limit, descending, visitor);
        }
    }

    /** @return the transaction behind {@code txn}, checked to be active, on this thread and of this store */
    final TxnContext ctx(Txn txn) {
        return TxnContext.of(txn, index.stm());
    }
}
