/**
 * Serializability checking of recorded histories. Transactions store immutable
 * {@link io.jato.protocols.suite.history.Version} values naming their writer and the version they
 * replaced, record what they read and wrote in a {@link io.jato.protocols.suite.history.TxnRecord},
 * and {@link io.jato.protocols.suite.history.SerializabilityChecker} looks for a cycle in the
 * dependency graph of the committed ones. {@link io.jato.protocols.suite.history.HistoryWorkload}
 * generates such histories under contention; {@link io.jato.protocols.suite.history.RangeHistoryWorkload}
 * adds range scans and navigation on the sorted maps, recorded as reads of every key in the range
 * they covered (present or absent), so phantoms show up as ordinary dependency edges.
 */
package io.jato.protocols.suite.history;
