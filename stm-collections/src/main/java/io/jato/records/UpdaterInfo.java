package io.jato.records;

/** What an updater class's annotation declares, resolved once per class. */
final class UpdaterInfo {
    private static final ClassValue<Object> CACHE = new ClassValue<>() {
        @Override
        protected Object computeValue(Class<?> type) {
            return resolve(type);
        }
    };

    private final Class<?> type;
    private final Class<?> specification;
    private final String groupName;
    /** Declared {@code @Commutative}: marks the record's entry {@code Entry.COMMUTATIVE} for the protocol. */
    final boolean commutative;
    /** The group index for the record class last seen; racy but immutable, so benign. */
    private volatile Binding binding;

    private UpdaterInfo(Class<?> type, Class<?> specification, String groupName, boolean commutative) {
        this.type = type;
        this.specification = specification;
        this.groupName = groupName;
        this.commutative = commutative;
    }

    private static final class Binding {
        final Class<?> recordClass;
        final int group;

        Binding(Class<?> recordClass, int group) {
            this.recordClass = recordClass;
            this.group = group;
        }
    }

    /** @return the index of the group {@code updater} applies to in {@code record} */
    static int groupOf(Object updater, AbstractRecord record) {
        return of(updater).group(record);
    }

    /**
     * @param updater a {@link RecordUpdater}, a {@link RecordLongUpdater} or a
     *                {@link BoundLongUpdater} (resolved by the updater it binds)
     */
    static UpdaterInfo of(Object updater) {
        if (updater == null) {
            throw new NullPointerException("updater");
        }
        if (updater instanceof BoundLongUpdater) {
            updater = ((BoundLongUpdater) updater).updater;
        }
        Object v = CACHE.get(updater.getClass());
        if (v instanceof String) {
            throw new IllegalArgumentException((String) v);
        }
        return (UpdaterInfo) v;
    }

    /** @return the index of this updater's group in {@code record} */
    int group(AbstractRecord record) {
        Binding b = binding;
        if (b != null && b.recordClass == record.getClass()) {
            return b.group;
        }
        Class<?> spec = record.specification();
        if (spec != specification) {
            throw new IllegalArgumentException("updater " + type.getName() + " is declared for record "
                    + specification.getName() + " but was applied to a " + record.getClass().getName());
        }
        int g = record.groupIndex(groupName);
        if (g < 0) {
            throw new IllegalArgumentException("updater " + type.getName() + " names unknown group '" + groupName
                    + "' of " + spec.getName());
        }
        binding = new Binding(record.getClass(), g);
        return g;
    }

    private static Object resolve(Class<?> type) {
        Commutative c = type.getAnnotation(Commutative.class);
        CommitUpdater u = type.getAnnotation(CommitUpdater.class);
        if (c != null && u != null) {
            return "updater " + type.getName() + " is annotated both @Commutative and @CommitUpdater";
        }
        if (c == null && u == null) {
            return "updater " + type.getName() + " must be a class annotated @Commutative or @CommitUpdater"
                    + " (a lambda cannot carry the annotation)";
        }
        return c != null
                ? new UpdaterInfo(type, c.record(), c.group(), true)
                : new UpdaterInfo(type, u.record(), u.group(), false);
    }
}
