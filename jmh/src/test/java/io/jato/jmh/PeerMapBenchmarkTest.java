package io.jato.jmh;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.ThreadParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PeerMapBenchmark}: every system runs under JMH and passes its checks; driven by hand with
 * the same transactions, every system's check holds and all end with the same entries; and the
 * check fails when the map and the threads' counts disagree (a remove that was counted but not
 * done, a value under the wrong key or from a thread that did not run, an insert counted twice).
 */
class PeerMapBenchmarkTest {
    private static final Set<String> SYSTEMS = Set.of("jato", "jatoSorted", "scalaStm", "multiverse", "clojure",
            "mvstore", "globalLock");
    private static final int KEYS = 500;
    private static final int TRANSACTIONS = 4000;

    @Test
    void everySystemReportsAScoreAtTwoThreads() throws RunnerException {
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include("^" + PeerMapBenchmark.class.getName().replace(".", "\\.") + "\\.")
                .forks(0)
                .threads(2)
                .warmupIterations(0)
                .measurementIterations(1)
                .measurementTime(TimeValue.milliseconds(300))
                .param("keys", "1000")
                .param("writePercent", "50")
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT)
                .build()).run();
        Set<String> ran = new TreeSet<>();
        for (RunResult r : results) {
            String benchmark = r.getParams().getBenchmark();
            ran.add(benchmark.substring(benchmark.lastIndexOf('.') + 1));
            assertTrue(r.getPrimaryResult().getScore() > 0, benchmark + " has a time per op");
        }
        assertEquals(new TreeSet<>(SYSTEMS), ran);
    }

    /** A worker state's trial set-up: {@code init(shared, thread)}. */
    @FunctionalInterface
    private interface Init<S, W> {
        void init(W worker, S shared, ThreadParams thread);
    }

    /**
     * Loads {@code shared} ({@link #KEYS} keys, half the transactions writing), sets up two workers
     * and runs {@link #TRANSACTIONS} transactions on each, alternating, through {@code transaction}.
     *
     * @return {@code shared}, its check not yet run
     */
    private static <S extends PeerMapBenchmark.MapBase, W extends PeerMapBenchmark.OpsBase> S drive(S shared,
            Supplier<W> worker, Init<S, W> init, ToLongFunction<W> transaction) {
        shared.keys = KEYS;
        shared.writePercent = 50;
        shared.create();
        List<W> workers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            W w = worker.get();
            init.init(w, shared, new ThreadParams(i, 2, 0, 1, 0, 1, i, 2, i, 2));
            workers.add(w);
        }
        for (int i = 0; i < TRANSACTIONS; i++) {
            for (W w : workers) {
                transaction.applyAsLong(w);
            }
        }
        assertEquals(2L * TRANSACTIONS, shared.tally.committed());
        long inserted = workers.stream().mapToLong(w -> w.inserted).sum();
        long removed = workers.stream().mapToLong(w -> w.removed).sum();
        assertTrue(inserted > 0 && removed > 0, shared.system() + ": inserts " + inserted + " and removes " + removed);
        return shared;
    }

    private static <S extends JatoPeer.JatoEntries> S occ(S shared) {
        shared.protocol = "occ";
        return shared;
    }

    /** The global-lock map, driven with workers of {@code kind} (the real one, or a broken one). */
    private static GlobalLockPeer.Entries globalLock(Supplier<? extends GlobalLockPeer.MapOps> kind) {
        PeerMapBenchmark bench = new PeerMapBenchmark();
        GlobalLockPeer.Entries shared = new GlobalLockPeer.Entries();
        return drive(shared, kind, GlobalLockPeer.MapOps::init, t -> bench.globalLock(shared, t));
    }

    /**
     * Each system's states, driven through the benchmark's own methods with the same transactions:
     * every trial's check passes, and every system ends with the same entries.
     */
    @Test
    void theChecksHoldOnEverySystemAndAllAgree() {
        PeerMapBenchmark bench = new PeerMapBenchmark();
        List<PeerMapBenchmark.MapBase> maps = List.of(
                drive(occ(new JatoPeer.Entries()), JatoPeer.MapOps::new, JatoPeer.MapOps::init, bench::jato),
                drive(occ(new JatoPeer.SortedEntries()), JatoPeer.SortedMapOps::new, JatoPeer.SortedMapOps::init,
                        bench::jatoSorted),
                drive(new ScalaStmPeer.Entries(), ScalaStmPeer.MapOps::new, ScalaStmPeer.MapOps::init, bench::scalaStm),
                drive(new MultiversePeer.Entries(), MultiversePeer.MapOps::new, MultiversePeer.MapOps::init,
                        bench::multiverse),
                drive(new ClojurePeer.Entries(), ClojurePeer.MapOps::new, ClojurePeer.MapOps::init, bench::clojure),
                drive(new MvStorePeer.Entries(), MvStorePeer.MapOps::new, MvStorePeer.MapOps::init, bench::mvstore),
                globalLock(GlobalLockPeer.MapOps::new));

        Set<String> checked = new TreeSet<>();
        List<Long> expected = Arrays.asList(maps.get(maps.size() - 1).values());
        for (PeerMapBenchmark.MapBase m : maps) {
            assertEquals(expected, Arrays.asList(m.values()), m.system() + " holds what the global-lock map holds");
            m.checkTrial(); // also closes MVStore's store
            checked.add(m.system());
        }
        assertEquals(new TreeSet<>(SYSTEMS), checked);
    }

    /** A broken map: a remove of a present key is counted, but the key is put back. */
    static final class LosesRemoves extends GlobalLockPeer.MapOps {
        @Override
        void transact(Map<Long, Long> map) {
            Long key = boxedKey(PeerMapBenchmark.REMOVE);
            Long before = map.get(key);
            super.transact(map);
            if (before != null && putValue() != null) {
                map.put(key, before);
            }
        }
    }

    @Test
    void aMapThatLosesRemovesFailsTheCheck() {
        GlobalLockPeer.Entries shared = globalLock(LosesRemoves::new);
        IllegalStateException e = assertThrows(IllegalStateException.class, shared::checkTrial);
        assertTrue(e.getMessage().startsWith("invariant violated: [peer] PeerMapBenchmark globalLock, after the trial"),
                e.getMessage());
    }

    @Test
    void aValueUnderTheWrongKeyFailsTheCheck() {
        GlobalLockPeer.Entries shared = globalLock(GlobalLockPeer.MapOps::new);
        shared.checkTrial();
        Long key = shared.map.keySet().iterator().next();
        shared.map.put(key, PeerMapBenchmark.value(key + 1, 0));
        IllegalStateException e = assertThrows(IllegalStateException.class, shared::checkTrial);
        assertTrue(e.getMessage().contains("key " + key + " holds"), e.getMessage());
    }

    @Test
    void aValueTaggedByAThreadThatDidNotRunFailsTheCheck() {
        GlobalLockPeer.Entries shared = globalLock(GlobalLockPeer.MapOps::new);
        Long key = shared.map.keySet().iterator().next();
        shared.map.put(key, PeerMapBenchmark.value(key, 3));
        assertThrows(IllegalStateException.class, shared::checkTrial);
    }

    @Test
    void anInsertCountedTwiceFailsTheCheck() {
        GlobalLockPeer.MapOps[] first = new GlobalLockPeer.MapOps[1];
        GlobalLockPeer.Entries shared = globalLock(() -> {
            GlobalLockPeer.MapOps w = new GlobalLockPeer.MapOps();
            if (first[0] == null) {
                first[0] = w;
            }
            return w;
        });
        shared.checkTrial();
        first[0].inserted++;
        assertThrows(IllegalStateException.class, shared::checkTrial);
    }

    @Test
    void valuesCarryTheirKeyAndWriter() {
        assertTrue(PeerMapBenchmark.written(7, PeerMapBenchmark.value(7, 0), 0));
        assertTrue(PeerMapBenchmark.written(7, PeerMapBenchmark.value(7, 2), 2));
        assertTrue(!PeerMapBenchmark.written(7, PeerMapBenchmark.value(7, 3), 2));
        assertTrue(!PeerMapBenchmark.written(7, PeerMapBenchmark.value(8, 1), 2));
        assertTrue(!PeerMapBenchmark.written(7, -1L, 2));
    }
}
