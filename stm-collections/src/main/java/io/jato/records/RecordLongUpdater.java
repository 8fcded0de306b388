package io.jato.records;

/**
 * A commit-time update of one record group that takes one {@code long} operand: the same as a
 * {@link RecordUpdater}, except that the value it adds or sets comes with the call
 * ({@code record.update(txn, UPDATER, operand)}) instead of living in the updater object. One
 * instance, usually a constant, then serves every call, so scheduling the update allocates
 * nothing: the operand is kept beside the updater in the transaction's pooled image. Several small
 * values pack into the one operand (a quantity and a flag, for instance); an update that needs
 * more, or a reference, is a {@link RecordUpdater}.
 *
 * <p>The rules of {@link RecordUpdater} apply unchanged: annotate the class {@link Commutative} or
 * {@link CommitUpdater} (the annotation names the group, so a lambda cannot serve); {@link #apply}
 * uses only its operand, the updater's final fields and the image, is deterministic, does not
 * throw and touches no column outside its group (the image rejects that). An updater declared
 * {@link Commutative} must commute with itself for every pair of operands.
 *
 * <p>Protocols that keep operations as values (delta versions under {@code mvcc}) see the updater
 * bound to its operand as one {@link RecordUpdater}; that binding is allocated only on their path.
 * Generated records declare a nested {@code LongUpdater} interface fixing {@code I} to their image.
 *
 * @param <I> the generated record's image type
 */
public interface RecordLongUpdater<I extends RecordImage> {
    /** Applies the update with {@code operand} to {@code image}, which holds the group's current columns. */
    void apply(I image, long operand);
}
