package io.jato.collections.internal;

/**
 * The exceptions of insert-only maps (hash and sorted), in one place so that every map words them
 * alike. Each is thrown before the operation changes anything.
 */
public final class InsertOnlyRefusals {
    private InsertOnlyRefusals() {
    }

    /** @return the exception for an operation an insert-only map refuses ({@code remove}, {@code update}...) */
    public static UnsupportedOperationException refused(String operation) {
        return new UnsupportedOperationException("insert-only map: " + operation
                + " is not supported (a key keeps the value it was inserted with)");
    }

    /** @return the exception for a {@code put} that would replace the value of present key {@code key} */
    public static UnsupportedOperationException presentKey(Object key) {
        return new UnsupportedOperationException("insert-only map: key " + key
                + " is present, and put would replace its value (putIfAbsent returns it instead)");
    }
}
