/**
 * Serializability checking of recorded histories. Transactions store immutable
 * {@link io.jato.protocols.suite.history.Version} values naming their writer and the version they
 * replaced, record what they read and wrote in a {@link io.jato.protocols.suite.history.TxnRecord},
 * and {@link io.jato.protocols.suite.history.SerializabilityChecker} looks for a cycle in the
 * dependency graph of the committed ones. {@link io.jato.protocols.suite.history.HistoryWorkload}
 * generates such histories under contention.
 */
package io.jato.protocols.suite.history;
