package io.jato.workloads.tpcc;

import io.jato.records.RecordLayout;

import java.util.Locale;

/**
 * The four ways the same TPC-C transaction code runs (issue 5, item 3): with or without field
 * groups (TS: {@link RecordLayout#SPLIT}, chosen when the {@link TpccDatabase} is created) and
 * with or without commit-time updaters (CU: the writes listed in {@link TpccUpdaters} go through
 * the records' {@code update(txn, updater)} instead of read-modify-writes).
 */
public enum TpccMode {
    /** One version per row, read-modify-writes. */
    BASE(false, false),
    /** Field groups, read-modify-writes. */
    TS(true, false),
    /** One version per row, commit-time updaters. */
    CU(false, true),
    /** Field groups and commit-time updaters. */
    CU_TS(true, true);

    private final boolean splitRows;
    private final boolean updaters;

    TpccMode(boolean splitRows, boolean updaters) {
        this.splitRows = splitRows;
        this.updaters = updaters;
    }

    /** @return the record layout a database for this mode must be created with */
    public RecordLayout layout() {
        return splitRows ? RecordLayout.SPLIT : RecordLayout.COARSE;
    }

    /** @return whether the transactions write through commit-time updaters */
    public boolean updaters() {
        return updaters;
    }

    /** @return the name on the command line: {@code base}, {@code ts}, {@code cu}, {@code cu+ts} */
    public String cliName() {
        return this == CU_TS ? "cu+ts" : name().toLowerCase(Locale.ROOT);
    }
}
