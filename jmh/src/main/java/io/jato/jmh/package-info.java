/**
 * JMH micro-benchmarks of Jato's core paths, each next to a baseline on a plain
 * {@link java.util.HashMap} or field so results can be reported as a ratio from the same run; and
 * the {@code Peer*Benchmark} classes, which run the same transactions on Jato and on the JVM's other
 * STMs (ScalaSTM, Multiverse, Clojure refs, H2 MVStore) and a global lock ({@code docs/peers.md}).
 *
 * <h2>Conventions</h2>
 * <ul>
 *   <li>Mode is average time in ns/op; one op is one whole transaction (begin, body, commit) or the
 *       baseline's equivalent work. Run with {@code -prof gc} and report {@code gc.alloc.rate.norm}
 *       (B/op) next to the time: the STM side is expected to allocate nothing in steady state.</li>
 *   <li>Maps, stores and counters are {@code Scope.Benchmark} state (shared by the benchmark's
 *       threads); cursors into the pre-generated key sequences and the transaction bodies are
 *       {@code Scope.Thread} state.</li>
 *   <li>Nothing is allocated by the benchmark code itself: keys and values are boxed once at set-up
 *       ({@link io.jato.jmh.Data}), and every transaction body is created once per thread and only
 *       reads its inputs from fields, so no capturing lambda is allocated per operation. The one
 *       exceptions: the peers whose references hold only objects box the unbounded counter values
 *       they write (each such class says so, with what the peer's API allocates itself), and the
 *       maps of {@link io.jato.jmh.PeerMapBenchmark} allocate what an insert needs.</li>
 *   <li>The STM states take the protocol as a {@code @Param} by name ({@code "occ"} by default), so
 *       another protocol is measured with {@code -p protocol=occ,<name>} once its module is on the
 *       class path. Baselines do not depend on that parameter and run once per benchmark class.</li>
 * </ul>
 */
package io.jato.jmh;
