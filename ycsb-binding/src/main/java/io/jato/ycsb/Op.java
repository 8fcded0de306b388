package io.jato.ycsb;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import io.jato.collections.TxSortedMap;
import io.jato.stm.Txn;
import site.ycsb.Status;

/**
 * One YCSB operation of a multi-operation transaction, drawn once with every random choice made
 * (key, fields, values as bytes), so that each attempt of the transaction executes exactly the same
 * operation. Its results (status, fields read, records scanned, time taken) are those of the latest
 * attempt; after the commit they are the committed ones.
 */
final class Op {
    /** What an operation does, with the name YCSB's report gives it. */
    enum Kind {
        READ("READ"), UPDATE("UPDATE"), INSERT("INSERT"), SCAN("SCAN"), READ_MODIFY_WRITE("READ-MODIFY-WRITE");

        final String measurement;

        Kind(String measurement) {
            this.measurement = measurement;
        }
    }

    final Kind kind;
    final String key;
    /** Fields to read (null: all); unused by update and insert. */
    final Set<String> fields;
    /** Fields to write; null for read and scan. */
    final Fields values;
    final int scanLength;
    /** For an insert drawn from YCSB's insert sequence, its number (acknowledged after the transaction). */
    final long insertNumber;

    Status status;
    final Fields read = new Fields();
    final List<Fields> scanned = new ArrayList<>();
    int scannedCount;
    long nanos;

    private Op(Kind kind, String key, Set<String> fields, Fields values, int scanLength, long insertNumber) {
        this.kind = kind;
        this.key = Objects.requireNonNull(key, "key");
        this.fields = fields;
        this.values = values;
        this.scanLength = scanLength;
        this.insertNumber = insertNumber;
    }

    static Op read(String key, Set<String> fields) {
        return new Op(Kind.READ, key, fields, null, 0, -1);
    }

    static Op update(String key, Fields values) {
        return new Op(Kind.UPDATE, key, null, Objects.requireNonNull(values, "values"), 0, -1);
    }

    /** An insert; {@code insertNumber} is its number in YCSB's insert sequence, or -1 for none. */
    static Op insert(String key, Fields values, long insertNumber) {
        return new Op(Kind.INSERT, key, null, Objects.requireNonNull(values, "values"), 0, insertNumber);
    }

    static Op scan(String startKey, int length, Set<String> fields) {
        if (length < 0) {
            throw new IllegalArgumentException("scan of a negative number of records: " + length);
        }
        return new Op(Kind.SCAN, startKey, fields, null, length, -1);
    }

    static Op readModifyWrite(String key, Set<String> fields, Fields values) {
        return new Op(Kind.READ_MODIFY_WRITE, key, fields, Objects.requireNonNull(values, "values"), 0, -1);
    }

    /** Runs the operation in {@code txn}, replacing the results of an earlier attempt. */
    void execute(Txn txn, TxSortedMap<String, Row> table) {
        long start = System.nanoTime();
        read.clear();
        scannedCount = 0;
        switch (kind) {
            case READ:
                status = YcsbStore.read(txn, table, key, fields, read);
                break;
            case UPDATE:
                status = YcsbStore.update(txn, table, key, values);
                break;
            case INSERT:
                status = YcsbStore.insert(txn, table, key, values);
                break;
            case SCAN:
                scannedCount = YcsbStore.scan(txn, table, key, scanLength, fields, scanned);
                status = Status.OK;
                break;
            case READ_MODIFY_WRITE:
                Status r = YcsbStore.read(txn, table, key, fields, read);
                Status w = YcsbStore.update(txn, table, key, values);
                status = r.isOk() ? w : r;
                break;
            default:
                throw new AssertionError(kind);
        }
        nanos = System.nanoTime() - start;
    }

    @Override
    public String toString() {
        return kind.measurement + ' ' + key;
    }
}
