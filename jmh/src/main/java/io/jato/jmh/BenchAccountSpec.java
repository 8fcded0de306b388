package io.jato.jmh;

import io.jato.records.Group;
import io.jato.records.TxRecord;

/** The benchmarked record: a cold group (id, name) and a hot group (balance, count). */
@TxRecord(name = "BenchAccount")
final class BenchAccountSpec {
    long id;
    String name;
    @Group("hot")
    long balance;
    @Group("hot")
    long count;

    private BenchAccountSpec() {
    }
}
