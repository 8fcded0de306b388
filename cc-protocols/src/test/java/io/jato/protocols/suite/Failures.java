package io.jato.protocols.suite;

/** Exceptions that test bodies throw on purpose, and small helpers to observe thrown ones. */
public final class Failures {
    private Failures() {
    }

    /** A user exception thrown by a transaction body on purpose. */
    public static final class Boom extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Boom(String message) {
            super(message);
        }
    }

    /** A user error thrown by a transaction body on purpose. */
    public static final class BoomError extends Error {
        private static final long serialVersionUID = 1L;

        public BoomError(String message) {
            super(message);
        }
    }

    /** A checked exception that a body throws without declaring it (bodies cannot declare any). */
    public static final class CheckedBoom extends Exception {
        private static final long serialVersionUID = 1L;

        public CheckedBoom(String message) {
            super(message);
        }
    }

    /** An action that may throw anything. */
    @FunctionalInterface
    public interface Action {
        void run() throws Throwable;
    }

    /** @return what {@code action} threw, or null if it returned normally */
    public static Throwable thrownBy(Action action) {
        try {
            action.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    /** Throws {@code t}, checked or not, without declaring it. */
    public static RuntimeException sneakyThrow(Throwable t) {
        throw Failures.<RuntimeException>sneaky(t);
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }

    /** Runs {@code body} on a new thread and waits for it (at most 30 s); returns what it threw. */
    public static Throwable onAnotherThread(Action body) {
        Throwable[] thrown = new Throwable[1];
        Thread t = new Thread(() -> thrown[0] = thrownBy(body), "other-thread");
        t.setDaemon(true);
        t.start();
        try {
            t.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        if (t.isAlive()) {
            throw new AssertionError("the other thread did not finish within 30 s");
        }
        return thrown[0];
    }
}
