package io.jato.records;

/**
 * Reads back what a {@link ColumnOutput} wrote, in the same order: a record's columns group by
 * group in group-index order, each group's columns in declaration order. Generated records call
 * it from {@link AbstractRecord#readColumns}.
 *
 * <p>Implementations are used by one thread at a time and need not be thread-safe. A malformed
 * input is the implementation's to report (a durable store names the file and offset).
 */
public interface ColumnInput {
    boolean readBoolean();

    byte readByte();

    short readShort();

    char readChar();

    int readInt();

    long readLong();

    float readFloat();

    double readDouble();

    /** @return a {@code String} column, or null if null was written */
    String readString();

    /**
     * @return the constant of {@code type} with the name written, or null if null was written
     * @throws IllegalArgumentException (or an implementation's own exception) if {@code type} has
     *                                  no constant of that name
     */
    <E extends Enum<E>> E readEnum(Class<E> type);
}
