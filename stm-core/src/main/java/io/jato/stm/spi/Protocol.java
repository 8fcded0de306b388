package io.jato.stm.spi;

import io.jato.stm.Capabilities;

import java.util.List;

/**
 * A concurrency-control protocol, discovered with {@link java.util.ServiceLoader} and selected by
 * {@link #name()} when a store is built. Implementations must be stateless factories: every store
 * gets its own {@link ConcurrencyControl} from {@link #create}, so two stores never share metadata.
 *
 * <p>The default protocol, {@code "occ"}, is built into {@code Stm} and needs no service
 * registration (it keeps one, for code that enumerates providers itself); a provider of another
 * name is found only through its {@code META-INF/services} file or {@code provides} clause.
 */
public interface Protocol {

    /** @return the unique, lower-case name users pass to the builder (e.g. {@code "occ"}) */
    String name();

    /** @return one line saying what the protocol is and which paper it follows */
    String description();

    /**
     * What the protocol guarantees (its isolation level) and offers (opacity, snapshot reads, eager
     * locking, remote aborts). The proof suites test a protocol against this declaration, and the
     * commit driver reads {@link Capabilities.Feature#REMOTE_ABORT} from it.
     */
    Capabilities capabilities();

    /**
     * The per-store options this protocol accepts through {@code Stm.Builder.option}; the builder
     * rejects other names. Values reach {@link #create} through {@link ProtocolContext#option}.
     * Default: none.
     */
    default List<ProtocolOption> options() {
        return List.of();
    }

    /**
     * Creates the per-store protocol instance.
     *
     * @throws IllegalArgumentException if an option's value is invalid; the message names the option
     */
    ConcurrencyControl create(ProtocolContext context);
}
