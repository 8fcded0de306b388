package io.jato.workloads.tpcc;

import io.jato.stm.Stm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Which concurrency-control protocol each TPC-C table is bound to, when not the store's default
 * (the {@code --table-protocols} option). Immutable. A table's maps and its rows go to its
 * protocol: CUSTOMER also covers the customer-by-last-name index; ORDER covers the Order records
 * and the ORDER-by-customer index; NEW-ORDER only its own map's nodes (its values are ORDER's
 * records).
 */
final class TpccTables {
    /** The nine tables, with their command-line names. */
    enum Table {
        WAREHOUSE, DISTRICT, CUSTOMER, HISTORY, ITEM, STOCK, ORDER, NEW_ORDER, ORDER_LINE;

        /** @return the name on the command line and in reports, e.g. {@code new-order} */
        String cliName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        static Table byCliName(String name) {
            for (Table t : values()) {
                if (t.cliName().equals(name)) {
                    return t;
                }
            }
            return null;
        }
    }

    /** Every table on the store's default protocol. */
    static final TpccTables DEFAULT = new TpccTables(new EnumMap<>(Table.class));

    private final EnumMap<Table, String> protocols;

    private TpccTables(EnumMap<Table, String> protocols) {
        this.protocols = protocols;
    }

    /**
     * Parses {@code TABLE=PROTOCOL,...} (blank: {@link #DEFAULT}). Protocol names are not checked
     * here: the store decides which it has.
     *
     * @throws IllegalArgumentException naming the problem: a malformed pair, an unknown table, a
     *                                  table given twice
     */
    static TpccTables parse(String spec) {
        if (spec.isBlank()) {
            return DEFAULT;
        }
        EnumMap<Table, String> m = new EnumMap<>(Table.class);
        for (String pair : spec.split(",", -1)) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? "" : pair.substring(0, eq).trim();
            String protocol = eq < 0 ? "" : pair.substring(eq + 1).trim();
            if (name.isEmpty() || protocol.isEmpty()) {
                throw new IllegalArgumentException("expected TABLE=PROTOCOL pairs separated by commas, got '"
                        + pair + "'");
            }
            Table t = Table.byCliName(name);
            if (t == null) {
                throw new IllegalArgumentException("unknown table '" + name + "'; tables: " + tableNames());
            }
            if (m.containsKey(t)) {
                throw new IllegalArgumentException("table '" + name + "' is given twice");
            }
            m.put(t, protocol);
        }
        return new TpccTables(m);
    }

    /** @return the command-line names of the tables, comma-separated */
    static String tableNames() {
        return String.join(", ", Arrays.stream(Table.values()).map(Table::cliName).toList());
    }

    /** @return {@code t}'s protocol, or null for the store's default */
    String protocol(Table t) {
        return protocols.get(t);
    }

    /** @return the distinct protocols named, in table order */
    List<String> protocols() {
        List<String> out = new ArrayList<>();
        for (String p : protocols.values()) {
            if (!out.contains(p)) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * @return the store object each table creates its maps and rows with, by {@link Table#ordinal}:
     *         {@code stm} itself for a table on the default, else {@code stm.withProtocol(p)}
     * @throws IllegalArgumentException if the store has not one of the protocols named
     */
    Stm[] stores(Stm stm) {
        Objects.requireNonNull(stm, "stm");
        Stm[] out = new Stm[Table.values().length];
        for (Table t : Table.values()) {
            String p = protocols.get(t);
            out[t.ordinal()] = p == null || p.equals(stm.protocol()) ? stm : stm.withProtocol(p);
        }
        return out;
    }

    /**
     * @return the tables bound to a protocol other than {@code defaultProtocol}, by command-line
     *         name, in table order
     */
    Map<String, String> besides(String defaultProtocol) {
        Map<String, String> out = new LinkedHashMap<>();
        protocols.forEach((t, p) -> {
            if (!p.equals(defaultProtocol)) {
                out.put(t.cliName(), p);
            }
        });
        return out;
    }

    boolean isDefault() {
        return protocols.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TpccTables t && t.protocols.equals(protocols);
    }

    @Override
    public int hashCode() {
        return protocols.hashCode();
    }

    /** @return the {@link #parse} form, e.g. {@code customer=tictoc,stock=tictoc} */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        protocols.forEach((t, p) -> sb.append(sb.length() == 0 ? "" : ",").append(t.cliName()).append('=').append(p));
        return sb.toString();
    }
}
