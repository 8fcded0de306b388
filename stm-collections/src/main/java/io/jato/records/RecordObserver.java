package io.jato.records;

import io.jato.stm.spi.TxnContext;

/**
 * Told when a transaction first writes a group of a record it watches: how a durable store joins
 * the commit of every transaction that changes one of its rows (SPI; attached with
 * {@link AbstractRecord#setObserver}).
 *
 * <p>Called on the writing thread, inside the transaction's body, once per attempt and version
 * item: the first setter or updater on a group whose item the attempt has not written yet (in the
 * coarse layout, the first write of any group). It may add entries to the transaction (a custom
 * write, a check request); it must not read or write the record itself. What the transaction will
 * install is known only in the commit's check phase: {@link AbstractRecord#writeCommitColumns}
 * gives it there.
 */
public interface RecordObserver {
    /**
     * @param txn       the writing transaction
     * @param record    the record written
     * @param groupMask the groups that share the version item written (one group when split)
     */
    void written(TxnContext txn, AbstractRecord record, int groupMask);
}
