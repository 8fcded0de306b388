package io.jato.stm.spi;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A kind of per-transaction scratch object (a record's pending image, an updater list) that a
 * {@link TxnContext} pools so that writing transactions allocate nothing in steady state.
 *
 * <p>A data type declares one {@code Scratch} per object class, as a static constant, and borrows
 * instances with {@link TxnContext#borrow}. A borrowed object belongs to the transaction until the
 * attempt ends (commit or abort); then every borrowed object is {@link Pooled#recycle recycled} and
 * returned to the thread's pool. Borrowed objects never cross threads.
 *
 * @param <T> the pooled object's type
 */
public final class Scratch<T extends Scratch.Pooled> {
    private static final AtomicInteger IDS = new AtomicInteger();

    final int id;
    private final Supplier<? extends T> factory;

    private Scratch(Supplier<? extends T> factory) {
        this.factory = factory;
        this.id = IDS.getAndIncrement();
    }

    /**
     * Declares a scratch kind. Call once per class (from a static initializer): every call takes a
     * slot in each thread's pool table.
     */
    public static <T extends Pooled> Scratch<T> of(Supplier<? extends T> factory) {
        return new Scratch<>(Objects.requireNonNull(factory, "factory"));
    }

    T create() {
        return factory.get();
    }

    /** An object that can be pooled: it drops references to user data when recycled. */
    public interface Pooled {
        /**
         * Returns the object to its initial state. Called by the owning thread when the attempt
         * that borrowed it ends; must drop references to user objects so a pooled object retains
         * nothing.
         */
        void recycle();
    }
}
