/**
 * TPC-C: the nine tables as transactional records with field groups, packed long keys, hash and
 * contention-aware sorted indexes, the clause 4.3 population loaded in parallel, the five
 * transactions and the standard mix in four modes (field groups and commit-time updaters on or
 * off), and the consistency conditions of clause 3.3.2.
 */
package io.jato.workloads.tpcc;
