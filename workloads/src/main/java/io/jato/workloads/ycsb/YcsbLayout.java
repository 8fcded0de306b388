package io.jato.workloads.ycsb;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** How YCSB stores a row, which decides what a write conflicts with. */
public enum YcsbLayout {
    /** A copy-on-write {@code long[]} per row in the map: one version per row, any column count. */
    ROWS("rows"),
    /** A {@link YcsbRow} record with one version for the whole row. */
    COARSE("coarse"),
    /** A {@link YcsbRow} record with even and odd columns in separate version groups. */
    SPLIT("split");

    private final String cliName;

    YcsbLayout(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    /** @return true if rows are {@link YcsbRow} records */
    public boolean isRecord() {
        return this != ROWS;
    }

    public static List<String> cliNames() {
        return Arrays.stream(values()).map(YcsbLayout::cliName).collect(Collectors.toList());
    }

    public static YcsbLayout byCliName(String name) {
        for (YcsbLayout l : values()) {
            if (l.cliName.equals(name)) {
                return l;
            }
        }
        throw new IllegalArgumentException("unknown YCSB layout: " + name);
    }
}
