/**
 * Jato's core: the public API ({@code io.jato.stm}), the SPI for protocols and transactional
 * objects ({@code io.jato.stm.spi}), and the default Silo-style OCC protocol. Internals are not
 * exported.
 */
module io.jato.stm {
    exports io.jato.stm;
    exports io.jato.stm.spi;

    // JFR events (internal.jfr): optional, a runtime image without jdk.jfr runs without them.
    requires static jdk.jfr;

    uses io.jato.stm.spi.Protocol;

    provides io.jato.stm.spi.Protocol with io.jato.stm.internal.occ.OccProtocol;
}
