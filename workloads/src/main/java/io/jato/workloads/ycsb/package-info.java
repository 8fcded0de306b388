/**
 * YCSB: workloads A (50/50) and B (95/5) with one key per transaction, and the 16-operation
 * read/write transactions of seed papers 000 and 001, over a table of rows of {@code long}
 * columns, with scrambled Zipfian keys.
 */
package io.jato.workloads.ycsb;
