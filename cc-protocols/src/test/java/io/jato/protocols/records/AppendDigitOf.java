package io.jato.protocols.records;

import io.jato.records.CommitUpdater;

/** balance = balance * 10 + operand: order-sensitive, so the result shows the commit order. */
@CommitUpdater(record = AccountSpec.class, group = "hot")
public final class AppendDigitOf implements Account.LongUpdater {
    public static final AppendDigitOf INSTANCE = new AppendDigitOf();

    private AppendDigitOf() {
    }

    @Override
    public void apply(Account.Image r, long digit) {
        r.setBalance(r.balance() * 10 + digit);
    }
}
