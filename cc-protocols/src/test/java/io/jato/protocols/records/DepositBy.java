package io.jato.protocols.records;

import io.jato.records.Commutative;

/** Adds its operand to the balance and counts the operation: order-insensitive, one instance for every amount. */
@Commutative(record = AccountSpec.class, group = "hot")
public final class DepositBy implements Account.LongUpdater {
    public static final DepositBy INSTANCE = new DepositBy();

    private DepositBy() {
    }

    @Override
    public void apply(Account.Image r, long amount) {
        r.setBalance(r.balance() + amount);
        r.setOps(r.ops() + 1);
    }
}
