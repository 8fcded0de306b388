package io.jato.workloads.ycsb;

import java.util.ArrayList;
import java.util.List;

/** The transaction mixes of the YCSB workload. */
public enum YcsbMix {
    /** YCSB-A: one key per transaction, 50% reads of the whole row, 50% updates of one column. */
    A("a", 1, 0.5, 0.99, "50% read / 50% update, one key per transaction (YCSB-A)"),
    /** YCSB-B: one key per transaction, 95% reads, 5% updates. */
    B("b", 1, 0.05, 0.99, "95% read / 5% update, one key per transaction (YCSB-B)"),
    /**
     * The 16-operation transactions of seed papers 000 and 001: each operation picks a key and one of
     * the columns and reads or read-modify-writes that one column; half of them write by default
     * (the high-contention mix, Zipf 0.9).
     */
    TXN16("txn16", 16, 0.5, 0.9, "16 operations per transaction, each reads or writes one column of a key");

    private final String cliName;
    private final int operations;
    private final double defaultWriteRatio;
    private final double defaultTheta;
    private final String description;

    YcsbMix(String cliName, int operations, double defaultWriteRatio, double defaultTheta, String description) {
        this.cliName = cliName;
        this.operations = operations;
        this.defaultWriteRatio = defaultWriteRatio;
        this.defaultTheta = defaultTheta;
        this.description = description;
    }

    /** @return the name used by {@code --mix} */
    public String cliName() {
        return cliName;
    }

    /** @return operations (distinct keys) per transaction */
    public int operations() {
        return operations;
    }

    /** @return the fraction of operations that write, unless overridden (txn16 only) */
    public double defaultWriteRatio() {
        return defaultWriteRatio;
    }

    /** @return the Zipf skew used unless {@code --theta} is given */
    public double defaultTheta() {
        return defaultTheta;
    }

    /** @return one line for the usage */
    public String description() {
        return description;
    }

    /** @return true if a read returns the whole row (YCSB's read) rather than one column */
    public boolean readsWholeRow() {
        return this != TXN16;
    }

    /** @return the mix with the given {@code --mix} name */
    public static YcsbMix byCliName(String name) {
        for (YcsbMix m : values()) {
            if (m.cliName.equals(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown mix '" + name + "'");
    }

    /** @return every {@code --mix} name */
    public static List<String> cliNames() {
        List<String> names = new ArrayList<>();
        for (YcsbMix m : values()) {
            names.add(m.cliName);
        }
        return names;
    }
}
