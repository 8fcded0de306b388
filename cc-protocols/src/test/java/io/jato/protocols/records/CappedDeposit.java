package io.jato.protocols.records;

import io.jato.records.Commutative;

/**
 * A deposit that refuses to take the balance above a cap: it throws on some balances and not on
 * others, which a well-behaved updater never does. It tests that an updater failing on the value it
 * finds at commit leaves nothing changed, also when the value is a delta group's running result.
 */
@Commutative(record = AccountSpec.class, group = "hot")
public final class CappedDeposit implements Account.Updater {
    private final long amount;
    private final long cap;

    public CappedDeposit(long amount, long cap) {
        this.amount = amount;
        this.cap = cap;
    }

    @Override
    public void apply(Account.Image r) {
        long b = r.balance() + amount;
        if (b > cap) {
            throw new IllegalStateException("balance " + b + " above the cap " + cap);
        }
        r.setBalance(b);
        r.setOps(r.ops() + 1);
    }
}
