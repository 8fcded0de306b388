/**
 * The proof suites: written once, run against every registered protocol.
 *
 * <p>Every parameterized test takes its protocol names from {@link io.jato.protocols.suite.Protocols#all()}
 * ({@code Stm.availableProtocols()} minus the deliberately broken {@code test-broken-*} ones, the
 * fault-injecting wrapper {@code test-faulty}, and
 * those below serializability, {@code *-si} and {@code *-rr}, which {@code WeakIsolationTest} covers), so a
 * new protocol registered as a {@code Protocol} service is tested by everything here without a
 * line of test code. The global-lock protocol is the oracle: it is trivially serializable, so a
 * test that fails under it is a wrong test, not a protocol bug.
 *
 * <ul>
 *   <li><b>Contract suites</b>, one per data type ({@code TxRefContractTest}, {@code TxLongContractTest},
 *       {@code TxCounterContractTest}, {@code TxHashMapContractTest}, {@code TxSortedMapContractTest}
 *       for both sorted maps through {@link io.jato.protocols.suite.AnySortedMap}), one for the transaction
 *       lifecycle over every data type ({@code TransactionLifecycleContractTest}) and one for the
 *       store ({@code StoreContractTest}).</li>
 *   <li><b>Anomaly suites</b>, one per anomaly (lost update, write skew, torn read, read-only
 *       anomaly, phantom, read-your-own-writes, rollback on a user exception) and the bank-sum
 *       invariant under failures and interrupts. Each anomaly has a deterministic schedule
 *       ({@link io.jato.protocols.suite.Interleaving}), run over every data type where it applies
 *       ({@link io.jato.protocols.suite.Cells}, which includes both sorted maps), plus an unscheduled
 *       stress variant. Sorted maps add range phantoms ({@code SortedMapPhantomTest}: scans, absent
 *       lookups and navigation against inserts and deletes, and no abort for changes elsewhere) and
 *       the contention-aware layout ({@code ContentionAwareLayoutTest}).</li>
 *   <li><b>Serializability checking</b> of randomized histories ({@code history} package), including
 *       range scans recorded as reads of what they saw and of the absence of the rest of their range
 *       ({@code RangeHistoryTest}).</li>
 *   <li><b>Failure atomicity</b> ({@code FaultInjectionTest}, {@code FaultInjectionConcurrencyTest}):
 *       a fault-injecting protocol wrapping each protocol in turn and a fault-injecting participant
 *       ({@code faulty} package) throw at every call of every commit hook, for every data type;
 *       afterwards nothing half-done is visible, nothing is locked, the statistics add up, and a
 *       reader that overlapped a commit failing while it installed is retried.</li>
 *   <li><b>Proof that the suites can fail</b>: {@code BrokenProtocolDetectionTest} runs the
 *       scenarios and the checker against {@code test-broken-no-validation} (OCC without read
 *       validation, {@code broken} package) and requires each to catch it.</li>
 * </ul>
 *
 * <p>Every test that ran transactions ends by checking that its objects are quiescent (no lock
 * held, sane version words; {@link io.jato.protocols.suite.Quiescence}). Stress tests scale their
 * iteration counts and durations by the system property {@code jato.stress.scale} (default 1).
 */
package io.jato.protocols.suite;
