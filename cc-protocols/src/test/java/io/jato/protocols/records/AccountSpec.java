package io.jato.protocols.records;

import io.jato.records.Group;
import io.jato.records.TxRecord;

/** Test record: a default group (owner, flags) and a hot group (balance, ops). */
@TxRecord(name = "Account")
public class AccountSpec {
    String owner;
    int flags;
    @Group("hot")
    long balance;
    @Group("hot")
    int ops;
}
