package io.jato.durable.internal;

import io.jato.records.ColumnInput;
import io.jato.records.ColumnOutput;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * A record's columns as bytes in an Agrona buffer, little-endian: primitives at their width,
 * a {@code String} as its length (int, -1 for null) then its UTF-8 bytes, an enum as its constant's
 * name like a string. One instance per thread (a {@link ThreadLog}'s, recovery's, the
 * checkpointer's), re-aimed at a buffer and position before each use; writing an ASCII string
 * allocates nothing.
 */
public final class BufferColumns implements ColumnOutput, ColumnInput {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private MutableDirectBuffer out;
    private DirectBuffer in;
    private int pos;
    private int end;

    /** Aims the writer at {@code buffer} (expandable: writing past its capacity grows it) from {@code at}. */
    public BufferColumns writeTo(MutableDirectBuffer buffer, int at) {
        this.out = buffer;
        this.pos = at;
        return this;
    }

    /** Aims the reader at the {@code length} bytes at {@code at} of {@code buffer}. */
    public BufferColumns readFrom(DirectBuffer buffer, int at, int length) {
        this.in = buffer;
        this.pos = at;
        this.end = at + length;
        return this;
    }

    /** @return the position after the last byte written or read */
    public int position() {
        return pos;
    }

    /** @return whether the reader consumed exactly its bytes */
    public boolean atEnd() {
        return pos == end;
    }

    @Override
    public void writeBoolean(boolean v) {
        out.putByte(pos++, v ? (byte) 1 : (byte) 0);
    }

    @Override
    public void writeByte(byte v) {
        out.putByte(pos++, v);
    }

    @Override
    public void writeShort(short v) {
        out.putShort(pos, v, LE);
        pos += 2;
    }

    @Override
    public void writeChar(char v) {
        out.putChar(pos, v, LE);
        pos += 2;
    }

    @Override
    public void writeInt(int v) {
        out.putInt(pos, v, LE);
        pos += 4;
    }

    @Override
    public void writeLong(long v) {
        out.putLong(pos, v, LE);
        pos += 8;
    }

    @Override
    public void writeFloat(float v) {
        out.putInt(pos, Float.floatToRawIntBits(v), LE);
        pos += 4;
    }

    @Override
    public void writeDouble(double v) {
        out.putLong(pos, Double.doubleToRawLongBits(v), LE);
        pos += 8;
    }

    @Override
    public void writeString(String v) {
        if (v == null) {
            writeInt(-1);
            return;
        }
        int n = v.length();
        boolean ascii = true;
        for (int i = 0; i < n && ascii; i++) {
            ascii = v.charAt(i) < 0x80;
        }
        if (ascii) {
            // UTF-8 of ASCII is the chars themselves: no byte[] on the commit path.
            out.putInt(pos, n, LE);
            out.putStringWithoutLengthAscii(pos + 4, v);
            pos += 4 + n;
        } else {
            int len = out.putStringWithoutLengthUtf8(pos + 4, v);
            out.putInt(pos, len, LE);
            pos += 4 + len;
        }
    }

    @Override
    public void writeEnum(Enum<?> v) {
        writeString(v == null ? null : v.name());
    }

    private void need(int bytes) {
        if (pos + bytes > end) {
            throw new IllegalStateException("record columns run past their " + (end - pos + bytes)
                    + "-byte value at column offset " + pos);
        }
    }

    @Override
    public boolean readBoolean() {
        need(1);
        byte b = in.getByte(pos++);
        if (b != 0 && b != 1) {
            throw new IllegalStateException("a boolean column holds " + b);
        }
        return b == 1;
    }

    @Override
    public byte readByte() {
        need(1);
        return in.getByte(pos++);
    }

    @Override
    public short readShort() {
        need(2);
        short v = in.getShort(pos, LE);
        pos += 2;
        return v;
    }

    @Override
    public char readChar() {
        need(2);
        char v = in.getChar(pos, LE);
        pos += 2;
        return v;
    }

    @Override
    public int readInt() {
        need(4);
        int v = in.getInt(pos, LE);
        pos += 4;
        return v;
    }

    @Override
    public long readLong() {
        need(8);
        long v = in.getLong(pos, LE);
        pos += 8;
        return v;
    }

    @Override
    public float readFloat() {
        return Float.intBitsToFloat(readInt());
    }

    @Override
    public double readDouble() {
        return Double.longBitsToDouble(readLong());
    }

    @Override
    public String readString() {
        int n = readInt();
        if (n == -1) {
            return null;
        }
        if (n < 0) {
            throw new IllegalStateException("a string column of length " + n);
        }
        need(n);
        String s = in.getStringWithoutLengthUtf8(pos, n);
        pos += n;
        return s;
    }

    @Override
    public <E extends Enum<E>> E readEnum(Class<E> type) {
        String name = readString();
        if (name == null) {
            return null;
        }
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("enum " + type.getName() + " has no constant '" + name
                    + "' (renamed since it was written?)", e);
        }
    }
}
