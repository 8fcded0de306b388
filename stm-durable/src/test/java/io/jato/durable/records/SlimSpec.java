package io.jato.durable.records;

import io.jato.records.TxRecord;

/** A record of one group: read in place of {@link RowSpec}'s rows, its files must be refused. */
@TxRecord(name = "Slim")
final class SlimSpec {
    long balance;

    private SlimSpec() {
    }
}
