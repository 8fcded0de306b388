package io.jato.protocols.records;

import io.jato.protocols.suite.probe.PastProtocol;
import io.jato.records.RecordLayout;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * The versioned-read hook for records, which keep their columns in their own fields: a protocol
 * that serves an older version ({@code Entry.VERSION}, with the copy the record made through
 * {@code TxParticipant.captureVersion}) makes every getter of the groups sharing that item return
 * the old values, and a transaction that writes the group still reads its own writes. Driven by
 * the test protocol {@link PastProtocol}, which keeps each in-place item's previous version.
 */
class VersionedRecordReadTest {

    private static Account account(Stm stm, RecordLayout layout) {
        return Account.create(stm, layout, new Account.Image().setOwner("ann").setFlags(1).setBalance(10).setOps(0));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(RecordLayout.class)
    void gettersReadTheVersionTheProtocolServes(RecordLayout layout) {
        Stm stm = Stm.builder().protocol(PastProtocol.NAME).build();
        PastProtocol.Control past = PastProtocol.lastCreated;
        Account a = account(stm, layout);
        stm.run(t -> {
            a.setBalance(t, 20);
            a.setOps(t, 1);
        });
        stm.run(t -> a.setOwner(t, "bob"));
        assertNotNull(past.previous.get(io.jato.stm.spi.TxItem.class.cast(a)), "the commit kept the old version");

        past.servePast = true;
        String seen = stm.atomic(t -> a.owner(t) + "/" + a.flags(t) + "/" + a.balance(t) + "/" + a.ops(t));
        // Split: each group's item has its own previous version (the hot group's from the first
        // commit, the default group's from the second). Coarse: one item, last kept before "bob".
        assertEquals(layout == RecordLayout.SPLIT ? "ann/1/10/0" : "ann/1/20/1", seen);

        // Reading a group the transaction writes gives its own write, not the served version.
        String own = stm.atomic(t -> {
            a.setOps(t, 7);
            return a.ops(t) + "/" + a.balance(t);
        });
        assertEquals("7/20", own);
        past.servePast = false;
        assertEquals("bob/1/20/7", stm.atomic(t -> a.owner(t) + "/" + a.flags(t) + "/" + a.balance(t) + "/" + a.ops(t)));
    }

    /** Without a served version the in-place path is taken as before. */
    @Test
    void withoutAServedVersionGettersReadInPlace() {
        Stm stm = Stm.builder().protocol(PastProtocol.NAME).build();
        Account a = account(stm, RecordLayout.SPLIT);
        stm.run(t -> a.setBalance(t, 30));
        assertEquals(30, (long) stm.atomic(a::balance));
    }
}
