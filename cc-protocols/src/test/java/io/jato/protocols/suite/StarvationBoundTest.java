package io.jato.protocols.suite;

import io.jato.collections.TxLong;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The escalation policy ({@code Stm.Builder.escalateAfter}, docs/lock-family.md) against the
 * adversarial writer of issue 14 §5: a read-only audit that sums 256 {@code TxLong}s over a few
 * milliseconds beside a thread that runs transfers without pause. Without escalation the audit
 * starved on occ and tictoc (thousands of attempts, no commit in 20 s); with it, every audit must
 * commit within the documented bound: the escalation threshold plus a few attempts.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StarvationBoundTest {
    private static final int ACCOUNTS = 256;
    private static final long INITIAL = 1_000;
    /** The threshold the stores under test escalate at. */
    static final int ESCALATE_AFTER = 8;
    /** Attempts past the threshold an escalated audit may need (docs/lock-family.md, "the bound"). */
    static final int SLACK = 3;
    private static final int AUDITS = 3;
    /** Busy time per account read: 256 reads take about 5 ms, as in the report. */
    private static final long NANOS_PER_READ = TimeUnit.MICROSECONDS.toNanos(20);

    static java.util.stream.Stream<String> protocols() {
        return Protocols.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("protocols")
    void aLongAuditBesideATransferLoopCommitsWithinTheEscalationBound(String protocol) {
        Stm stm = Protocols.builder(protocol).escalateAfter(ESCALATE_AFTER).build();
        TxLong[] accounts = new TxLong[ACCOUNTS];
        for (int i = 0; i < ACCOUNTS; i++) {
            accounts[i] = new TxLong(stm, INITIAL);
        }
        int worst = 0;
        int transfers;
        try (TransferLoop loop = TransferLoop.start(stm, accounts, 7, 100)) {
            for (int a = 0; a < AUDITS; a++) {
                AtomicInteger attempts = new AtomicInteger();
                long sum = stm.readOnly(t -> {
                    attempts.incrementAndGet();
                    long s = 0;
                    for (TxLong account : accounts) {
                        s += account.get(t);
                        busy(NANOS_PER_READ);
                    }
                    return s;
                });
                assertEquals(ACCOUNTS * INITIAL, sum, "the audit saw a consistent state");
                worst = Math.max(worst, attempts.get());
            }
            transfers = loop.transfers();
        }
        int bound = ESCALATE_AFTER + 1 + SLACK;
        int seen = worst;
        System.out.println("starvation bound: " + protocol + " worst audit " + seen + " attempts (bound " + bound
                + ", " + transfers + " transfers)");
        assertTrue(seen <= bound, () -> protocol + ": an audit took " + seen + " attempts, bound " + bound);
        assertTrue(transfers >= 100, "the transfers ran");
        Quiescence.assertQuiescent((Object[]) accounts);
    }

    private static void busy(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }
}
