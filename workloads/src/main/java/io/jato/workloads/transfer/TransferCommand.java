package io.jato.workloads.transfer;

import io.jato.stm.Stm;
import io.jato.workloads.Option;
import io.jato.workloads.Options;
import io.jato.workloads.UsageException;
import io.jato.workloads.Workload;
import io.jato.workloads.WorkloadCommand;

import java.nio.file.Path;
import java.util.List;

/** The {@code transfer} subcommand: validates its options and creates a {@link TransferWorkload}. */
public final class TransferCommand implements WorkloadCommand {
    /** Accounts are {@code TxLong} boxes of about 50 bytes each. */
    public static final int MAX_ACCOUNTS = 1 << 24;

    @Override
    public String name() {
        return "transfer";
    }

    @Override
    public String summary() {
        return "bank transfers between two random accounts (TxLong boxes): contention and oversubscription";
    }

    @Override
    public String description() {
        return """
                Each transaction picks two distinct accounts uniformly at random, reads both and moves
                a random amount from one to the other: two reads, two writes, written in the order
                the accounts were drawn, so opposite transfers lock in opposite orders. With the
                default two accounts every pair of transactions conflicts. With 4 or 8 threads on 2
                cores, and with the runner's --interrupt, it shows how the store copes with lock
                holders that are descheduled and with pending interrupts. After the run the check
                verifies that the total balance is unchanged. With --durable DIR (or --durability)
                the accounts are a map of Long balances, logged to DIR in async or durable mode, or
                not at all (off): the same transactions three ways, for the cost of logging.
                With --audits PERCENT, that share of the transactions are audits instead: a declared
                read-only transaction summing every account, long beside the transfers (with
                --accounts 10000, ten thousand reads against two writes). Each audit must see the
                initial total; the report gives transfers and audits apart, with their aborts. Under
                a protocol weaker than snapshot isolation (tictoc-rr) an audit may see read skew, and
                the check then fails, as it should. With --audits the transactions carry the types
                transfer and audit, which a --tree file groups.""";
    }

    @Override
    public List<Option> options() {
        return List.of(Option.valued("accounts", "N", "accounts (default 2)"),
                Option.valued("audits", "PERCENT", "percent of transactions that are audits: a read-only sum of"
                        + " every account, checked against the initial total (default 0)"),
                Option.valued("durable", "DIR", "log the accounts into DIR (a durable store; see docs/durability.md)"),
                Option.valued("durability", "MODE", "with a map of accounts: off (no log), async, durable (default"
                        + " durable with --durable)"),
                Option.valued("checkpoint", "SECONDS", "with --durable: checkpoint every SECONDS, 0 never (default 10)"));
    }

    /** @return transfer and audit: the types the bank's transactions carry ({@code --tree} groups them) */
    @Override
    public List<String> txnTypes() {
        return TransferWorkload.TYPES;
    }

    @Override
    public Workload create(Options o, Stm stm, long seed) throws UsageException {
        int accounts = o.intValue("accounts", 2, 2, MAX_ACCOUNTS);
        int audits = o.intValue("audits", 0, 0, 100);
        if (o.has("durable") || o.has("durability")) {
            if (audits != 0) {
                throw new UsageException("--audits runs with the boxed accounts only: leave out --durable/--durability");
            }
            String mode = o.choice("durability", "durable", List.of("off", "async", "durable"));
            String dir = o.string("durable", null);
            if (dir == null && !mode.equals("off")) {
                throw new UsageException("--durability " + mode + " needs --durable DIR");
            }
            if (dir != null && mode.equals("off")) {
                throw new UsageException("--durability off logs nothing: leave out --durable " + dir);
            }
            int checkpoint = o.intValue("checkpoint", 10, 0, 86_400);
            return new DurableTransferWorkload(stm, accounts, seed, mode, dir == null ? null : Path.of(dir),
                    checkpoint * 1000L);
        }
        return new TransferWorkload(stm, accounts, audits, seed);
    }
}
