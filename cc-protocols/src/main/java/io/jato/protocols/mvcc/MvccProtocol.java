package io.jato.protocols.mvcc;

import io.jato.stm.Capabilities;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.Protocol;
import io.jato.stm.spi.ProtocolContext;
import io.jato.stm.spi.ProtocolOption;

import java.util.List;

/**
 * Registers multi-version concurrency control in the style of Cicada and MSTO (seed 002 §2.2)
 * under {@value #NAME}: serializable, every data type supported, mixable with other serializable
 * protocols in one store; transactions declared read-only ({@code stm.readOnly}) read a stable
 * snapshot in the recent past, keep no read set and do not validate. See {@code docs/mvcc.md}.
 */
public final class MvccProtocol implements Protocol {
    public static final String NAME = "mvcc";
    /**
     * Option: records' {@code @Commutative} updaters and hash maps' {@code CommutativeUpdater}s
     * become delta versions too (counter adds always do). {@value #DELTAS_OFF} (the default): never;
     * {@value #DELTAS_ALWAYS}: always; {@value #DELTAS_CONTENDED}: an updater joins a group already
     * open on its item, and opens one only in a retry (an attempt after an abort), so an updater
     * that meets no contention stays an exclusive write. Uncontended, a delta costs more than an
     * exclusive write (YCSB txn16 with blind increments ran 0.71-0.76x at 1 thread with
     * {@code true}, 1.0x with {@code contended}); under contention concurrent updaters of one item
     * stop aborting each other (docs/benchmarks/2026-11-record-deltas.md).
     */
    public static final String UPDATER_DELTAS = "updaterDeltas";
    /** {@link #UPDATER_DELTAS}: updaters stay exclusive writes. */
    public static final String DELTAS_OFF = "false";
    /** {@link #UPDATER_DELTAS}: every such updater is a delta version. */
    public static final String DELTAS_ALWAYS = "true";
    /** {@link #UPDATER_DELTAS}: a delta version where its item is contended (see there). */
    public static final String DELTAS_CONTENDED = "contended";

    private static final List<ProtocolOption> OPTIONS = List.of(ProtocolOption.of(UPDATER_DELTAS, DELTAS_OFF,
            "records' @Commutative updaters and hash maps' CommutativeUpdaters become delta versions, which"
                    + " concurrent updaters join without conflict (counter adds always do): false, true, or"
                    + " contended (join an open group; open one only when retrying after an abort)"));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "MVCC (Cicada/MSTO): version chains behind an inlined newest version, read-only snapshots"
                + " in the recent past that never validate (seed 002)";
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.of(Capabilities.Isolation.SERIALIZABLE, Capabilities.Feature.SNAPSHOT_READS);
    }

    @Override
    public List<ProtocolOption> options() {
        return OPTIONS;
    }

    @Override
    public ConcurrencyControl create(ProtocolContext context) {
        return new MvccControl(context);
    }
}
