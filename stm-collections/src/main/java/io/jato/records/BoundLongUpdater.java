package io.jato.records;

/**
 * A {@link RecordLongUpdater} bound to the operand of one call, so that a protocol keeping
 * operations as values (delta versions) can hold it as one {@link RecordUpdater}. Immutable.
 * {@link RecordImage#apply} unwraps it, so errors name the user's updater; {@link UpdaterInfo}
 * resolves its annotation from the updater it binds.
 */
final class BoundLongUpdater implements RecordUpdater<RecordImage> {
    final RecordLongUpdater<?> updater;
    final long operand;

    BoundLongUpdater(RecordLongUpdater<?> updater, long operand) {
        this.updater = updater;
        this.operand = operand;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void apply(RecordImage image) {
        ((RecordLongUpdater) updater).apply(image, operand);
    }

    @Override
    public String toString() {
        return updater.getClass().getName() + "(" + operand + ")";
    }
}
