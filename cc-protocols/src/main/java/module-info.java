/**
 * Concurrency-control protocols beyond the default OCC. Each lives in its own package and is
 * registered as a {@link io.jato.stm.spi.Protocol} service, so a store selects it by name.
 */
module io.jato.protocols {
    requires io.jato.stm;

    provides io.jato.stm.spi.Protocol with io.jato.protocols.globallock.GlobalLockProtocol,
            io.jato.protocols.tictoc.TicTocProtocol, io.jato.protocols.tictoc.TicTocProtocol.Si,
            io.jato.protocols.tictoc.TicTocProtocol.Rr,
            io.jato.protocols.twophase.TwoPhaseProtocol, io.jato.protocols.swisstm.SwissTmProtocol,
            io.jato.protocols.mvcc.MvccProtocol, io.jato.protocols.tebaldi.TebaldiProtocol,
            io.jato.protocols.tebaldi.TebaldiProtocol.TwoLayer, io.jato.protocols.adaptive.AdaptiveProtocol,
            io.jato.protocols.maat.MaatProtocol;
}
