package io.jato.stm;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What a concurrency-control protocol guarantees and offers, declared by the protocol itself
 * ({@code Protocol.capabilities()}) and readable by users ({@link Stm#capabilities()},
 * {@link Stm#protocolCapabilities(String)}), test suites and the commit driver. Immutable.
 *
 * <p>The declaration is a promise the proof suites hold a protocol to: a protocol that says
 * {@link Isolation#SERIALIZABLE} runs the serializability checker and every anomaly test; one at a
 * weaker level runs the rows of the anomaly table its level prevents.
 */
public final class Capabilities {

    /** The strongest isolation level a protocol guarantees for every transaction. */
    public enum Isolation {
        /** Every committed transaction appears to run alone, in one order (conflict-serializable). */
        SERIALIZABLE,
        /** Reads come from one snapshot; two transactions writing the same item do not both commit. Allows write skew. */
        SNAPSHOT_ISOLATION,
        /** An item read twice reads the same value; allows read skew, write skew and phantoms. */
        REPEATABLE_READ
    }

    /** Properties beyond the isolation level. */
    public enum Feature {
        /**
         * Opacity: even a transaction that will abort only ever sees a consistent snapshot, so a
         * body never observes values no serial execution could produce.
         */
        OPACITY,
        /** Transactions declared read-only read a consistent snapshot and never abort (multi-version protocols). */
        SNAPSHOT_READS,
        /** Write conflicts are detected when the write happens, not at commit (write locks taken at access time). */
        EAGER_LOCKING,
        /**
         * The protocol may abort another thread's transaction (a contention manager): the commit
         * driver then makes its point of no return an atomic step that a remote abort can lose to.
         */
        REMOTE_ABORT
    }

    private final Isolation isolation;
    private final Set<Feature> features;

    private Capabilities(Isolation isolation, Set<Feature> features) {
        this.isolation = isolation;
        this.features = features;
    }

    /**
     * @param isolation the isolation level guaranteed
     * @param features  further features offered (none is a valid answer)
     * @return the capabilities
     * @throws NullPointerException if {@code isolation} or a feature is null
     */
    public static Capabilities of(Isolation isolation, Feature... features) {
        Objects.requireNonNull(isolation, "isolation");
        EnumSet<Feature> set = EnumSet.noneOf(Feature.class);
        for (Feature f : features) {
            set.add(Objects.requireNonNull(f, "feature"));
        }
        return new Capabilities(isolation, Collections.unmodifiableSet(set));
    }

    /** @return the isolation level guaranteed */
    public Isolation isolation() {
        return isolation;
    }

    /** @return true if the isolation level is {@link Isolation#SERIALIZABLE} */
    public boolean serializable() {
        return isolation == Isolation.SERIALIZABLE;
    }

    /** @return true if the protocol offers {@code feature} */
    public boolean has(Feature feature) {
        return features.contains(feature);
    }

    /** @return the features offered, unmodifiable */
    public Set<Feature> features() {
        return features;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Capabilities && ((Capabilities) o).isolation == isolation
                && ((Capabilities) o).features.equals(features);
    }

    @Override
    public int hashCode() {
        return isolation.hashCode() * 31 + features.hashCode();
    }

    @Override
    public String toString() {
        return "Capabilities{" + isolation + (features.isEmpty() ? "" : ", " + features) + '}';
    }
}
