package io.jato.durable.records;

import io.jato.records.Commutative;

/** An updater that throws at commit: the durable commit that runs it must roll back whole. */
@Commutative(record = RowSpec.class, group = "balance")
final class Explode implements Row.Updater {
    @Override
    public void apply(Row.Image r) {
        throw new IllegalStateException("updater failure");
    }
}
