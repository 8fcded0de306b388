/**
 * Jato's core: the public API ({@code io.jato.stm}), the SPI for protocols and transactional
 * objects ({@code io.jato.stm.spi}), and the default Silo-style OCC protocol. Internals are not
 * exported.
 */
module io.jato.stm {
    // The opt-in StmMXBean (Stm.Builder.jmx): a JDK module, nothing for users to add. Transitive
    // because the API shows it (StmMXBean.TypeStatistics is reconstructed through its
    // @ConstructorParameters), and a module using the MXBean through JMX reads it anyway.
    requires transitive java.management;

    // The pool of transaction contexts virtual threads borrow (internal.StoreContexts): JCTools'
    // atomic MPMC queue, which reaches memory through field updaters, not sun.misc.Unsafe.
    requires org.jctools.core;

    exports io.jato.stm;
    exports io.jato.stm.spi;

    // JFR events (internal.jfr): optional, a runtime image without jdk.jfr runs without them.
    requires static jdk.jfr;

    uses io.jato.stm.spi.Protocol;

    provides io.jato.stm.spi.Protocol with io.jato.stm.internal.occ.OccProtocol;
}
