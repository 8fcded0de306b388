package io.jato.protocols.records;

import io.jato.records.CommitUpdater;

import java.util.function.LongConsumer;

/**
 * Blind writes for recorded histories: an updater that stamps its group with a writer id and
 * reports the id it replaced (known only when it applies, at commit) to a callback, so the history
 * learns the version order of blind writes.
 */
public final class Stamp {
    private Stamp() {
    }

    /** Stamps the hot group: balance = writer id, ops = its check value. */
    @CommitUpdater(record = AccountSpec.class, group = "hot")
    public static final class Hot implements Account.Updater {
        private final long writer;
        private final LongConsumer overwritten;

        public Hot(long writer, LongConsumer overwritten) {
            this.writer = writer;
            this.overwritten = overwritten;
        }

        @Override
        public void apply(Account.Image r) {
            overwritten.accept(r.balance());
            r.setBalance(writer);
            r.setOps(check(writer));
        }
    }

    /** Stamps the default group: owner = writer id, flags = its check value. */
    @CommitUpdater(record = AccountSpec.class)
    public static final class Default implements Account.Updater {
        private final long writer;
        private final LongConsumer overwritten;

        public Default(long writer, LongConsumer overwritten) {
            this.writer = writer;
            this.overwritten = overwritten;
        }

        @Override
        public void apply(Account.Image r) {
            overwritten.accept(Long.parseLong(r.owner()));
            r.setOwner(Long.toString(writer));
            r.setFlags(check(writer));
        }
    }

    /** @return the second column's value for a group stamped by {@code writer} (torn-read detection) */
    public static int check(long writer) {
        return (int) (writer ^ (writer >>> 29)) * 31 + 7;
    }
}
