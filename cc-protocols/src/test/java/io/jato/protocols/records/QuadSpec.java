package io.jato.protocols.records;

import io.jato.records.Group;
import io.jato.records.TxRecord;

/** Test record with four groups (the default one and three named), one column each. */
@TxRecord(name = "Quad")
public class QuadSpec {
    long a;
    @Group("b")
    long b;
    @Group("c")
    long c;
    @Group("d")
    long d;
}
