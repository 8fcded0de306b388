package io.jato.stm.spi;

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

    /** Creates the per-store protocol instance. */
    ConcurrencyControl create(ProtocolContext context);
}
