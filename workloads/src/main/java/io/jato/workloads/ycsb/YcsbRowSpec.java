package io.jato.workloads.ycsb;

import io.jato.records.Group;
import io.jato.records.TxRecord;

/**
 * The YCSB row as a transactional record: ten columns, even and odd columns in separate version
 * groups as in seed paper 000 (the {@code split} layout); created with
 * {@link io.jato.records.RecordLayout#COARSE} it has one version per row (the {@code coarse} layout).
 */
@TxRecord(name = "YcsbRow")
final class YcsbRowSpec {
    @Group("even")
    long c0;
    @Group("odd")
    long c1;
    @Group("even")
    long c2;
    @Group("odd")
    long c3;
    @Group("even")
    long c4;
    @Group("odd")
    long c5;
    @Group("even")
    long c6;
    @Group("odd")
    long c7;
    @Group("even")
    long c8;
    @Group("odd")
    long c9;

    private YcsbRowSpec() {
    }
}
