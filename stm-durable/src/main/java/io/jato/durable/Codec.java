package io.jato.durable;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Turns a key or value of a durable map into bytes for the log and checkpoints, and back.
 *
 * <p>{@link #encode} runs while a transaction commits (after every lock, before anything is
 * installed), so a codec that throws rolls the transaction back cleanly; it should allocate
 * nothing for the common case. {@link #decode} runs during recovery only. A codec must be
 * deterministic and stable across versions of the application: the bytes it writes today are read
 * by the next start. Change the format only under a new map name.
 *
 * @param <T> the encoded type
 */
public interface Codec<T> {

    /**
     * Writes {@code value} at {@code offset} of {@code buffer} (an expandable buffer: writing past
     * its capacity grows it).
     *
     * @return the number of bytes written
     */
    int encode(T value, MutableDirectBuffer buffer, int offset);

    /** @return the value {@link #encode} wrote into {@code length} bytes at {@code offset} */
    T decode(DirectBuffer buffer, int offset, int length);
}
