package io.jato.records;

/**
 * A commit-time update of one record group: an operation recorded in the write set instead of a
 * read followed by a write, so the scheduling transaction takes no read dependency on the record.
 * At commit it runs on an image of the locked group's latest committed columns, and the image is
 * installed as the group's new version.
 *
 * <p>Implementations are plain data: {@link #apply} may use only the updater's own parameters and
 * the image, must be deterministic, must not throw and must not touch columns outside the group
 * named by its {@link Commutative} or {@link CommitUpdater} annotation (the image rejects that).
 * Updaters are classes, not lambdas, because the annotation carries the group. Generated records declare a nested {@code Updater} interface fixing {@code I} to their image.
 *
 * @param <I> the generated record's image type
 */
public interface RecordUpdater<I extends RecordImage> {
    /** Applies the update to {@code image}, which holds the group's current columns. */
    void apply(I image);
}
