package io.jato.durable.internal;

import io.jato.records.AbstractRecord;
import io.jato.records.RecordObserver;
import io.jato.stm.spi.TxnContext;

/**
 * Ties a record to the key it is stored under in a durable table: the record's observer, so a
 * transaction that writes one of its groups logs the groups it wrote under that key.
 *
 * <p>A put attaches a handle in the transaction's body (not yet {@link #live}); the commit that
 * installs the put makes it live, and the commit that removes or replaces the record makes it dead
 * again — both in the install phase with the key's log stripe locked. A writer logs only while
 * the handle is live and still the record's observer, checked in its own check phase with the
 * same stripe locked: so no write of a record that an aborted attempt merely tried to put, or that
 * has left its key, is ever logged under it.
 */
final class RowHandle implements RecordObserver {
    final Table table;
    /** The key of an object-keyed table, else null (the record is not kept here: 8 bytes less per row). */
    final Object key;
    final long longKey;
    /** Written and read only with the key's stripe locked (see the class comment). */
    boolean live;

    RowHandle(Table table, Object key, long longKey) {
        this.table = table;
        this.key = key;
        this.longKey = longKey;
    }

    boolean isFor(Table t, Object k, long lk) {
        return table == t && (t.longKeys ? longKey == lk : key.equals(k));
    }

    @Override
    public void written(TxnContext txn, AbstractRecord r, int groupMask) {
        table.noteGroups(txn, this, r, groupMask);
    }

    /** @return what a message says of the row: its table and key */
    String where() {
        return "durable map '" + table.name + "' at key " + (table.longKeys ? Long.toString(longKey) : String.valueOf(key));
    }
}
