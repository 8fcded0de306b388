package io.jato.stm.spi;

/**
 * A concurrency-control protocol, discovered with {@link java.util.ServiceLoader} and selected by
 * {@link #name()} when a store is built. Implementations must be stateless factories: every store
 * gets its own {@link ConcurrencyControl} from {@link #create}, so two stores never share metadata.
 */
public interface Protocol {

    /** @return the unique, lower-case name users pass to the builder (e.g. {@code "occ"}) */
    String name();

    /** @return one line saying what the protocol is and which paper it follows */
    String description();

    /** Creates the per-store protocol instance. */
    ConcurrencyControl create(ProtocolContext context);
}
