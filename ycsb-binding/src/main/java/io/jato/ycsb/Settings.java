package io.jato.ycsb;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The binding's own YCSB properties ({@code -p name=value} or a {@code -P} file), read once and
 * checked: a value that does not parse is rejected with a message naming the property and the value.
 * Documented in docs/ycsb-client.md.
 */
final class Settings {
    /** The store's protocol, one of {@code io.jato.stm.Stm.availableProtocols()}; default {@code occ}. */
    static final String PROTOCOL = "jato.protocol";
    /** The protocol's options, {@code NAME=VALUE} pairs separated by commas; default none. */
    static final String OPTIONS = "jato.options";
    /** Whether a transaction run loads YCSB's records first; default true. */
    static final String PRELOAD = "jato.preload";
    /** Whether the last user of the store prints its commit and abort counts; default true. */
    static final String STATS = "jato.stats";
    /** YCSB operations per Jato transaction in {@link JatoWorkload}'s runs; default 1. */
    static final String OPS_PER_TXN = "jato.opspertxn";
    /** The most operations one transaction may group. */
    static final int MAX_OPS_PER_TXN = 10_000;

    private final String protocol;
    private final Map<String, String> options;
    private final boolean preload;
    private final boolean stats;
    private final int opsPerTxn;

    private Settings(String protocol, Map<String, String> options, boolean preload, boolean stats, int opsPerTxn) {
        this.protocol = protocol;
        this.options = options;
        this.preload = preload;
        this.stats = stats;
        this.opsPerTxn = opsPerTxn;
    }

    /**
     * Reads the binding's properties from {@code p}.
     *
     * @throws IllegalArgumentException naming the property whose value is malformed
     */
    static Settings from(Properties p) {
        String protocol = p.getProperty(PROTOCOL, "occ").trim();
        if (protocol.isEmpty()) {
            throw new IllegalArgumentException(PROTOCOL + " is empty; name a protocol such as occ");
        }
        Map<String, String> options = new LinkedHashMap<>();
        for (String pair : p.getProperty(OPTIONS, "").split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(OPTIONS + " takes NAME=VALUE pairs separated by commas, got '" + pair
                        + "'");
            }
            options.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return new Settings(protocol, Collections.unmodifiableMap(options), bool(p, PRELOAD, true), bool(p, STATS, true),
                opsPerTxn(p));
    }

    private static boolean bool(Properties p, String name, boolean dflt) {
        String v = p.getProperty(name);
        if (v == null) {
            return dflt;
        }
        switch (v.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true":
                return true;
            case "false":
                return false;
            default:
                throw new IllegalArgumentException(name + " must be true or false, got '" + v + "'");
        }
    }

    private static int opsPerTxn(Properties p) {
        String v = p.getProperty(OPS_PER_TXN);
        if (v == null) {
            return 1;
        }
        int n;
        try {
            n = Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(OPS_PER_TXN + " must be a whole number from 1 to " + MAX_OPS_PER_TXN
                    + ", got '" + v + "'", e);
        }
        if (n < 1 || n > MAX_OPS_PER_TXN) {
            throw new IllegalArgumentException(OPS_PER_TXN + " must be from 1 to " + MAX_OPS_PER_TXN + ", got " + n);
        }
        return n;
    }

    String protocol() {
        return protocol;
    }

    Map<String, String> options() {
        return options;
    }

    boolean preload() {
        return preload;
    }

    boolean stats() {
        return stats;
    }

    int opsPerTxn() {
        return opsPerTxn;
    }

    /** Whether a store built from {@code other} would be this one's twin (protocol and options). */
    boolean sameStore(Settings other) {
        return protocol.equals(other.protocol) && options.equals(other.options);
    }

    /** @return the protocol and, if any, its options, as a message names them */
    String describeStore() {
        return options.isEmpty() ? protocol : protocol + " " + options;
    }
}
