package io.jato.durable.internal;

import io.jato.durable.Codec;
import io.jato.records.AbstractRecord;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * The value codec of a table of records ({@code Codecs.records}): a record is logged and
 * checkpointed as its columns ({@link BufferColumns}); a table with this codec also watches every
 * record it holds, so that a transaction writing a column of a stored row logs the groups it
 * wrote. {@link #encode} and {@link #decode} read and build whole rows outside transactions
 * (checkpoints, recovery); commits encode through {@link ThreadLog}.
 *
 * @param <R> the generated record class
 */
public final class RecordCodec<R extends AbstractRecord> implements Codec<R> {
    private final Supplier<? extends R> factory;
    private final Class<?> type;
    private final int allGroups;

    public RecordCodec(Supplier<? extends R> factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
        R sample = Objects.requireNonNull(factory.get(), "the record factory returned null");
        this.type = sample.getClass();
        this.allGroups = sample.groupMask();
    }

    /** @return a new record with every column zero or null, from the factory */
    R create() {
        R r = factory.get();
        if (r == null || r.getClass() != type) {
            throw new IllegalStateException("the record factory of " + type.getName() + " returned "
                    + (r == null ? "null" : "a " + r.getClass().getName()));
        }
        return r;
    }

    /** @return the mask of all the record's groups */
    int allGroups() {
        return allGroups;
    }

    /** @return the record class */
    Class<?> type() {
        return type;
    }

    /** @throws IllegalArgumentException if {@code value} is not of this codec's record class */
    void checkType(Object value) {
        if (value.getClass() != type) {
            throw new IllegalArgumentException("a durable table of " + type.getName() + " rows cannot hold a "
                    + value.getClass().getName());
        }
    }

    @Override
    public int encode(R value, MutableDirectBuffer buffer, int offset) {
        BufferColumns c = new BufferColumns().writeTo(buffer, offset);
        value.writeColumnsNonTx(allGroups, c);
        return c.position() - offset;
    }

    @Override
    public R decode(DirectBuffer buffer, int offset, int length) {
        R r = create();
        BufferColumns c = new BufferColumns().readFrom(buffer, offset, length);
        r.readColumnsNonTx(c, allGroups, allGroups);
        if (!c.atEnd()) {
            throw new IllegalStateException("a " + type.getSimpleName() + " row of " + length
                    + " bytes holds bytes after its columns");
        }
        return r;
    }

    @Override
    public String toString() {
        return "records(" + type.getName() + ")";
    }
}
