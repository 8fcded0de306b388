package io.jato.durable.records;

import io.jato.records.Group;
import io.jato.records.TxRecord;

/** A test row with three groups and every kind of column the log encodes. */
@TxRecord(name = "Row")
final class RowSpec {
    /** An enum column, logged by name. */
    enum Tier {
        BASIC, GOLD
    }

    @Group("balance")
    long balance;
    @Group("balance")
    int transfers;
    String owner;
    Tier tier;
    boolean flagged;
    @Group("audit")
    String note;
    @Group("audit")
    double score;
    @Group("audit")
    char mark;

    private RowSpec() {
    }
}
