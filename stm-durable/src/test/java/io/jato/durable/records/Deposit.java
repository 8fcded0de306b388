package io.jato.durable.records;

import io.jato.records.Commutative;

/** A commit-time addition to a row's balance: no read dependency, applied at commit. */
@Commutative(record = RowSpec.class, group = "balance")
final class Deposit implements Row.Updater {
    private final long amount;

    Deposit(long amount) {
        this.amount = amount;
    }

    @Override
    public void apply(Row.Image r) {
        r.setBalance(r.balance() + amount);
        r.setTransfers(r.transfers() + 1);
    }
}
