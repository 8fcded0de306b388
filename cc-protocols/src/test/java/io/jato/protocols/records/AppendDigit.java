package io.jato.protocols.records;

import io.jato.records.CommitUpdater;

/** balance = balance * 10 + digit: order-sensitive, so the digits show the order updaters applied in. */
@CommitUpdater(record = AccountSpec.class, group = "hot")
public final class AppendDigit implements Account.Updater {
    private final int digit;

    public AppendDigit(int digit) {
        this.digit = digit;
    }

    @Override
    public void apply(Account.Image r) {
        r.setBalance(r.balance() * 10 + digit);
    }
}
