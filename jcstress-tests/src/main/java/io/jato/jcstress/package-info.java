/**
 * jcstress tests of Jato's memory-ordering core: the OCC version word, optimistic reads,
 * lock/unlock and the visibility of installed values, and two whole-transaction anomalies.
 *
 * <p>Every test drives the real stm-core classes ({@link io.jato.stm.spi.TxItem} and its value
 * items, {@link io.jato.stm.internal.occ.OccControl}, {@link io.jato.stm.Stm}); none re-implements
 * the protocol. Each class header says what is proved; each {@code @Outcome} says what a result
 * means. Results are printed as {@code r1, r2, ...}; in the word-level tests {@code tid} is
 * {@link io.jato.stm.internal.occ.OccWord#tid} of the word read (items start at TID 0 and one
 * non-transactional write publishes TID 1) and {@code locked} its lock bit.
 *
 * <p>Build and run (from the repository root):
 * <pre>
 * mvn -B package -pl jcstress-tests -am
 * java -jar jcstress-tests/target/jcstress.jar -t io.jato.jcstress     # all tests, default mode
 * java -jar jcstress-tests/target/jcstress.jar -t SeqlockSnapshotTest  # one test
 * bash .ci/jcstress.sh                                                 # the short CI run
 * </pre>
 */
package io.jato.jcstress;
