package io.jato.stm.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Tells virtual threads from platform threads on every JDK Jato runs on. The library is compiled
 * for Java 17, which has no {@code Thread.isVirtual()}; on JDK 21 and later the method is found
 * once, by reflection, and called through a constant {@link MethodHandle} that the JIT inlines (a
 * type check of the thread). On older JDKs every thread is a platform thread.
 */
public final class VirtualThreads {
    /** {@code Thread.isVirtual()}, or null where the JDK has none. */
    private static final MethodHandle IS_VIRTUAL = find();

    private VirtualThreads() {
    }

    private static MethodHandle find() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                    MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null; // JDK 17 to 20 (preview): no virtual threads to tell apart
        }
    }

    /** @return true if {@code t} is a virtual thread */
    public static boolean isVirtual(Thread t) {
        MethodHandle h = IS_VIRTUAL;
        if (h == null) {
            return false;
        }
        try {
            return (boolean) h.invokeExact(t);
        } catch (Throwable e) {
            throw new IllegalStateException("Thread.isVirtual() failed", e);
        }
    }

    /** @return true if the JDK has virtual threads (21 and later) */
    public static boolean supported() {
        return IS_VIRTUAL != null;
    }
}
