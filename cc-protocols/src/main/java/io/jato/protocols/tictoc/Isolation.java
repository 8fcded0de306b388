package io.jato.protocols.tictoc;

/** The isolation level a TicToc store runs at (seed 001 §5.4); chosen per store by protocol name. */
public enum Isolation {
    /** Every read and write at one commit timestamp: serializable. */
    SERIALIZABLE,
    /**
     * Reads at one timestamp ({@code commit_rts}), writes at a later one ({@code commit_wts}); an
     * item both read and written must not have changed since the read. Allows write skew.
     */
    SNAPSHOT,
    /**
     * Reads are not validated, except of items the transaction also writes, and except that a read
     * value item must not have been deleted (retired) since: a key read present stays present.
     * Writes share one timestamp. Allows read skew, write skew and phantoms; prevents lost updates
     * (the maps also abort a write over a key a point lookup of the transaction found absent).
     */
    REPEATABLE_READ
}
