package io.jato.durable;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

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
}
