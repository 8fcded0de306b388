package io.jato.durable;

import io.jato.durable.internal.RecordCodec;
import io.jato.records.AbstractRecord;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/** Codecs for common key and value types. Every codec here is stateless and thread-safe. */
public final class Codecs {
    private static final Codec<Long> LONGS = new Codec<>() {
        @Override
        public int encode(Long value, MutableDirectBuffer buffer, int offset) {
            buffer.putLong(offset, value, ByteOrder.LITTLE_ENDIAN);
            return Long.BYTES;
        }

        @Override
        public Long decode(DirectBuffer buffer, int offset, int length) {
            if (length != Long.BYTES) {
                throw new IllegalArgumentException("a long takes 8 bytes, the record has " + length);
            }
            return buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN);
        }

        @Override
        public String toString() {
            return "Codecs.longs()";
        }
    };

    private static final Codec<String> STRINGS = new Codec<>() {
        @Override
        public int encode(String value, MutableDirectBuffer buffer, int offset) {
            // Allocates the byte array: strings are for convenience, not for the hottest maps.
            byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
            buffer.putBytes(offset, bytes);
            return bytes.length;
        }

        @Override
        public String decode(DirectBuffer buffer, int offset, int length) {
            return buffer.getStringWithoutLengthUtf8(offset, length);
        }

        @Override
        public String toString() {
            return "Codecs.strings()";
        }
    };

    private Codecs() {
    }

    /** @return the codec of {@code Long} as eight little-endian bytes (boxes on decode only) */
    public static Codec<Long> longs() {
        return LONGS;
    }

    /** @return the codec of {@code String} as UTF-8 bytes */
    public static Codec<String> strings() {
        return STRINGS;
    }

    /** {@code long[]} values (null refused): their elements, 8 bytes each, little-endian. */
    public static Codec<long[]> longArrays() {
        return LONG_ARRAYS;
    }

    private static final Codec<long[]> LONG_ARRAYS = new Codec<>() {
        @Override
        public int encode(long[] value, MutableDirectBuffer buffer, int offset) {
            for (int i = 0; i < value.length; i++) {
                buffer.putLong(offset + i * Long.BYTES, value[i], ByteOrder.LITTLE_ENDIAN);
            }
            return value.length * Long.BYTES;
        }

        @Override
        public long[] decode(DirectBuffer buffer, int offset, int length) {
            if (length % Long.BYTES != 0) {
                throw new IllegalStateException("a long[] of " + length + " bytes");
            }
            long[] v = new long[length / Long.BYTES];
            for (int i = 0; i < v.length; i++) {
                v[i] = buffer.getLong(offset + i * Long.BYTES, ByteOrder.LITTLE_ENDIAN);
            }
            return v;
        }

        @Override
        public String toString() {
            return "longArrays";
        }
    };

    /**
     * Values that are generated records ({@code @TxRecord}): a row is logged and checkpointed as
     * its columns (primitives at their width, strings as UTF-8, enums by constant name), and a map
     * with this codec also logs every later write to a stored row's columns, as the column groups
     * each transaction wrote. Recovery builds rows with {@code factory}, which must return a new
     * record of one class each time (bound to the store and layout the map's rows use). A record's
     * columns are part of the file format: change them only under a new map name.
     *
     * @throws NullPointerException if {@code factory} is null or returns null
     */
    public static <R extends AbstractRecord> Codec<R> records(Supplier<R> factory) {
        return new RecordCodec<>(factory);
    }
}
