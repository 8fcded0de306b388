package io.jato.durable;

import io.jato.stm.Stm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DurableStoreTest {
    @TempDir
    Path dir;

    static DurableStore open(Path dir, DurabilityMode mode) {
        return DurableStore.builder(dir, Stm.builder().build())
                .mode(mode)
                .epochMillis(2)
                .map("accounts", Codecs.longs(), Codecs.longs())
                .map("names", Codecs.strings(), Codecs.strings())
                .open();
    }

    @Test
    void committedWritesSurviveAReopen() {
        try (DurableStore s = open(dir, DurabilityMode.DURABLE)) {
            DurableMap<Long, Long> a = s.map("accounts");
            DurableMap<String, String> n = s.map("names");
            s.atomic(tx -> {
                a.put(tx, 1L, 10L);
                a.put(tx, 2L, 20L);
                n.put(tx, "x", "ex");
                return null;
            });
            s.atomic(tx -> {
                a.put(tx, 1L, 11L);
                a.put(tx, 1L, 12L); // twice in one transaction: the last wins
                a.remove(tx, 2L);
                return null;
            });
            assertNull(s.recoveryReport().checkpoint());
        }
        try (DurableStore s = open(dir, DurabilityMode.DURABLE)) {
            DurableMap<Long, Long> a = s.map("accounts");
            DurableMap<String, String> n = s.map("names");
            assertEquals(12L, a.getNonTx(1L), s.recoveryReport().toString());
            assertNull(a.getNonTx(2L));
            assertEquals("ex", n.getNonTx("x"));
            assertEquals(2, s.recoveryReport().transactionsApplied(), s.recoveryReport().toString());
        }
    }

    @Test
    void rolledBackTransactionsAreNotLogged() {
        try (DurableStore s = open(dir, DurabilityMode.DURABLE)) {
            DurableMap<Long, Long> a = s.map("accounts");
            assertThrows(IllegalStateException.class, () -> s.atomic(tx -> {
                a.put(tx, 7L, 70L);
                throw new IllegalStateException("user failure");
            }));
            s.atomic(tx -> a.put(tx, 8L, 80L));
        }
        try (DurableStore s = open(dir, DurabilityMode.DURABLE)) {
            DurableMap<Long, Long> a = s.map("accounts");
            assertNull(a.getNonTx(7L));
            assertEquals(80L, a.getNonTx(8L));
        }
    }

    @Test
    void aCodecThatThrowsRollsTheCommitBack() {
        Codec<String> failing = new Codec<>() {
            @Override
            public int encode(String value, org.agrona.MutableDirectBuffer buffer, int offset) {
                if (value.equals("bad")) {
                    throw new IllegalArgumentException("cannot encode bad");
                }
                return Codecs.strings().encode(value, buffer, offset);
            }

            @Override
            public String decode(org.agrona.DirectBuffer buffer, int offset, int length) {
                return Codecs.strings().decode(buffer, offset, length);
            }
        };
        try (DurableStore s = DurableStore.builder(dir, Stm.builder().build()).epochMillis(2)
                .map("m", Codecs.longs(), failing).open()) {
            DurableMap<Long, String> m = s.map("m");
            s.atomic(tx -> m.put(tx, 1L, "good"));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> s.atomic(tx -> m.put(tx, 1L, "bad")));
            assertEquals("cannot encode bad", e.getMessage());
            assertEquals("good", m.getNonTx(1L));
            s.atomic(tx -> m.put(tx, 2L, "next"));
        }
        try (DurableStore s = DurableStore.builder(dir, Stm.builder().build()).map("m", Codecs.longs(), failing).open()) {
            DurableMap<Long, String> m = s.map("m");
            assertEquals("good", m.getNonTx(1L));
            assertEquals("next", m.getNonTx(2L));
        }
    }

    @Test
    void asyncCommitsBecomeDurableOnAwait() {
        try (DurableStore s = open(dir, DurabilityMode.ASYNC)) {
            DurableMap<Long, Long> a = s.map("accounts");
            for (long i = 0; i < 100; i++) {
                long k = i;
                s.atomic(tx -> a.put(tx, k, k * 2));
            }
            s.awaitDurable();
        }
        try (DurableStore s = open(dir, DurabilityMode.ASYNC)) {
            DurableMap<Long, Long> a = s.map("accounts");
            assertEquals(100, a.sizeNonTx());
            assertEquals(198L, a.getNonTx(99L));
        }
    }

    @Test
    void aFutureCompletesWhenTheCommitIsDurable() throws Exception {
        java.util.concurrent.CompletableFuture<Long> f;
        try (DurableStore s = open(dir, DurabilityMode.ASYNC)) {
            DurableMap<Long, Long> a = s.map("accounts");
            f = s.atomicDurableFuture(tx -> a.put(tx, 1L, 41L) == null ? 1L : 0L);
            assertEquals(1L, f.get(10, java.util.concurrent.TimeUnit.SECONDS));
            assertTrue(s.durableEpoch() >= 0);
            assertTrue(s.durableFuture().get(10, java.util.concurrent.TimeUnit.SECONDS) >= 0);
        }
        try (DurableStore s = open(dir, DurabilityMode.ASYNC)) {
            assertEquals(41L, s.<Long, Long>map("accounts").getNonTx(1L));
        }
    }

    @Test
    void concurrentTransfersRecoverWithTheirSum() throws Exception {
        int accounts = 32;
        long total;
        try (DurableStore s = open(dir, DurabilityMode.ASYNC)) {
            DurableMap<Long, Long> a = s.map("accounts");
            s.atomic(tx -> {
                for (long i = 0; i < accounts; i++) {
                    a.put(tx, i, 1000L);
                }
                return null;
            });
            total = 1000L * accounts;
            Thread[] ts = new Thread[3];
            for (int t = 0; t < ts.length; t++) {
                ts[t] = new Thread(() -> {
                    ThreadLocalRandom r = ThreadLocalRandom.current();
                    for (int i = 0; i < 2000; i++) {
                        long from = r.nextInt(accounts);
                        long to = r.nextInt(accounts);
                        long amount = r.nextInt(10);
                        s.atomic(tx -> {
                            a.put(tx, from, a.get(tx, from) - amount);
                            a.put(tx, to, a.get(tx, to) + amount);
                            return null;
                        });
                        if (i == 1000 && Thread.currentThread() == ts[0]) {
                            s.checkpoint();
                        }
                    }
                });
                ts[t].start();
            }
            for (Thread t : ts) {
                t.join();
            }
            s.checkpoint();
            s.atomic(tx -> a.put(tx, 0L, a.get(tx, 0L) + 5));
            total += 5;
        }
        try (DurableStore s = open(dir, DurabilityMode.ASYNC)) {
            DurableMap<Long, Long> a = s.map("accounts");
            long sum = 0;
            for (long i = 0; i < accounts; i++) {
                sum += a.getNonTx(i);
            }
            assertEquals(total, sum, s.recoveryReport().toString());
            assertNotNull(s.recoveryReport().checkpoint());
            assertEquals(accounts, s.recoveryReport().checkpointEntries());
            try (Stream<Path> files = Files.list(dir)) {
                List<String> segments = files.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".jlog")).toList();
                assertTrue(segments.size() <= 3, "segments before the checkpoint are deleted: " + segments);
            }
        }
    }

    @Test
    void aTransactionLargerThanTheRingTakesIsLoggedWhole() {
        try (DurableStore s = DurableStore.builder(dir, Stm.builder().build()).logBufferBytes(4096)
                .map("accounts", Codecs.longs(), Codecs.longs()).open()) {
            DurableMap<Long, Long> a = s.map("accounts");
            s.atomic(tx -> {
                for (long i = 0; i < 500; i++) { // about 18 KB of record, the ring takes 512 bytes
                    a.put(tx, i, i * 3);
                }
                return null;
            });
            s.atomic(tx -> a.put(tx, 7L, 7L));
        }
        try (DurableStore s = open(dir, DurabilityMode.DURABLE)) {
            DurableMap<Long, Long> a = s.map("accounts");
            assertEquals(500, a.sizeNonTx());
            assertEquals(1497L, a.getNonTx(499L));
            assertEquals(7L, a.getNonTx(7L));
        }
    }

    @Test
    void fullSegmentsRollAndAllAreReplayed() throws IOException {
        try (DurableStore s = DurableStore.builder(dir, Stm.builder().build()).mode(DurabilityMode.DURABLE)
                .epochMillis(1).segmentBytes(4096).map("accounts", Codecs.longs(), Codecs.longs()).open()) {
            DurableMap<Long, Long> a = s.map("accounts");
            for (long i = 0; i < 300; i++) {
                long k = i;
                s.atomic(tx -> a.put(tx, k % 50, k));
            }
        }
        try (DurableStore s = open(dir, DurabilityMode.DURABLE)) {
            DurableMap<Long, Long> a = s.map("accounts");
            for (long k = 0; k < 50; k++) {
                assertEquals(250 + k, a.getNonTx(k), s.recoveryReport().toString());
            }
            assertTrue(s.recoveryReport().segmentsReplayed() > 3, s.recoveryReport().toString());
        }
    }

    @Test
    void aSecondStoreOnTheSameDirectoryIsRefused() {
        try (DurableStore s = open(dir, DurabilityMode.DURABLE)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> open(dir, DurabilityMode.DURABLE));
            assertTrue(e.getMessage().contains("open in another"), e.getMessage());
            assertNotNull(s);
        }
    }

    @Test
    void anUndeclaredMapIsNamed() throws IOException {
        try (DurableStore s = open(dir, DurabilityMode.DURABLE)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.map("nope"));
            assertTrue(e.getMessage().contains("nope"), e.getMessage());
            DurableMap<Long, Long> a = s.map("accounts");
            s.atomic(tx -> a.put(tx, 1L, 1L));
        }
        CorruptFileException e = assertThrows(CorruptFileException.class, () ->
                DurableStore.builder(dir, Stm.builder().build()).map("names", Codecs.strings(), Codecs.strings()).open());
        assertTrue(e.getMessage().contains("does not declare"), e.getMessage());
    }
}
