package io.jato.durable;

import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Durable maps use only the SPI, so they work under every protocol: concurrent transfers with a
 * checkpoint in the middle, then a reopen whose balances must sum up, for each registered one.
 */
class ProtocolsTest {
    private static final int ACCOUNTS = 16;

    @TempDir
    Path root;

    @Test
    void everyProtocolLogsAndRecoversTransfers() throws Exception {
        List<String> tried = new ArrayList<>();
        for (String protocol : Stm.availableProtocols()) {
            if (protocol.startsWith("test-") || protocol.equals("none")) {
                continue;
            }
            tried.add(protocol);
            Path dir = Files.createDirectory(root.resolve(protocol));
            try (DurableStore s = open(dir, protocol)) {
                DurableMap<Long, Long> a = s.map("accounts");
                s.atomic(tx -> {
                    for (long i = 0; i < ACCOUNTS; i++) {
                        a.put(tx, i, 1000L);
                    }
                    return null;
                });
                Thread[] ts = new Thread[2];
                for (int t = 0; t < ts.length; t++) {
                    ts[t] = new Thread(() -> {
                        ThreadLocalRandom r = ThreadLocalRandom.current();
                        for (int i = 0; i < 300; i++) {
                            long from = r.nextInt(ACCOUNTS);
                            long to = r.nextInt(ACCOUNTS);
                            long amount = r.nextInt(10);
                            s.atomic(tx -> {
                                a.put(tx, from, a.get(tx, from) - amount);
                                a.put(tx, to, a.get(tx, to) + amount);
                                return null;
                            });
                        }
                    });
                    ts[t].start();
                }
                s.checkpoint();
                for (Thread t : ts) {
                    t.join();
                }
            }
            try (DurableStore s = open(dir, protocol)) {
                DurableMap<Long, Long> a = s.map("accounts");
                long sum = 0;
                for (long i = 0; i < ACCOUNTS; i++) {
                    sum += a.getNonTx(i);
                }
                assertEquals(1000L * ACCOUNTS, sum, protocol + ": " + s.recoveryReport());
            }
        }
        assertTrue(tried.size() > 1, "protocols tried: " + tried);
    }

    private static DurableStore open(Path dir, String protocol) {
        return DurableStore.builder(dir, Stm.builder().protocol(protocol).build()).mode(DurabilityMode.ASYNC)
                .epochMillis(2).map("accounts", Codecs.longs(), Codecs.longs()).open();
    }
}
