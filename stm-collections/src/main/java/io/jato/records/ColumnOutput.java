package io.jato.records;

/**
 * Where a record's columns are written as values, one group after another in group-index order
 * and, within a group, in declaration order (the order {@link ColumnInput} reads them back):
 * what a durable store logs and checkpoints. Generated records call it from
 * {@link AbstractRecord#writeColumns}; implementations decide the byte layout.
 *
 * <p>Implementations are used by one thread at a time and need not be thread-safe.
 */
public interface ColumnOutput {
    void writeBoolean(boolean v);

    void writeByte(byte v);

    void writeShort(short v);

    void writeChar(char v);

    void writeInt(int v);

    void writeLong(long v);

    void writeFloat(float v);

    void writeDouble(double v);

    /** Writes a {@code String} column; {@code v} may be null. */
    void writeString(String v);

    /**
     * Writes an enum column by its constant's name (so that reordering the constants keeps old
     * files readable); {@code v} may be null.
     */
    void writeEnum(Enum<?> v);
}
