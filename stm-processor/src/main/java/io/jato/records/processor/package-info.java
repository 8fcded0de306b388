/**
 * The annotation processor behind {@code @TxRecord}: {@link io.jato.records.processor.RecordProcessor}
 * reads each specification ({@code SpecReader}), writes its record class ({@code RecordWriter}) and
 * checks updater classes ({@code UpdaterChecker}). Nothing here is API; the generated classes'
 * shape is fixed by the hand-written reference {@code io.jato.records.fixtures.Account} in
 * stm-collections' tests and by the golden files of this module's tests.
 */
package io.jato.records.processor;
