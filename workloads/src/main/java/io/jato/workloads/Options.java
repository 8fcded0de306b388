package io.jato.workloads;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A parsed command line in GNU long-option style: {@code --name VALUE}, {@code --name=VALUE}, bare
 * {@code --name} for flags, and {@code -h} for {@code --help}. A later occurrence of an option
 * replaces an earlier one. The typed getters check ranges and throw {@link UsageException} with a
 * message that names the option, the accepted range and the rejected text.
 */
public final class Options {
    private final Map<String, Option> declared;
    private final Map<String, String> given;

    private Options(Map<String, Option> declared, Map<String, String> given) {
        this.declared = declared;
        this.given = given;
    }

    /**
     * Parses {@code args[from..]} against the declared options.
     *
     * @throws UsageException for an unknown option, a missing or unexpected value, or a positional argument
     */
    public static Options parse(List<Option> options, String[] args, int from) throws UsageException {
        Map<String, Option> declared = new LinkedHashMap<>();
        for (Option o : options) {
            if (declared.put(o.name(), o) != null) {
                throw new IllegalArgumentException("option --" + o.name() + " declared twice");
            }
        }
        Map<String, String> given = new LinkedHashMap<>();
        for (int i = from; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-h")) {
                arg = "--help";
            }
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new UsageException(arg.startsWith("-") && arg.length() > 1
                        ? "unknown option '" + arg + "' (options are long: --name VALUE or --name=VALUE)"
                        : "unexpected argument '" + arg + "'");
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
            Option o = declared.get(name);
            if (o == null) {
                throw new UsageException("unknown option '--" + name + "'");
            }
            String value;
            if (o.isFlag()) {
                if (eq >= 0) {
                    throw new UsageException("option --" + name + " takes no value, got '" + arg + "'");
                }
                value = "";
            } else if (eq >= 0) {
                value = arg.substring(eq + 1);
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                value = args[++i];
            } else {
                throw new UsageException("option --" + name + " needs a value (" + o.synopsis() + ")");
            }
            given.put(name, value);
        }
        return new Options(declared, given);
    }

    /** @return true if the option was given on the command line */
    public boolean has(String name) {
        check(name);
        return given.containsKey(name);
    }

    /** @return the option's text, or {@code defaultValue} if it was not given */
    public String string(String name, String defaultValue) {
        check(name);
        return given.getOrDefault(name, defaultValue);
    }

    /**
     * @return the option as an integer in {@code [min, max]}, or {@code defaultValue} if not given;
     *         the suffixes {@code k} (thousand) and {@code m} (million) are accepted
     */
    public int intValue(String name, int defaultValue, int min, int max) throws UsageException {
        return (int) longValue(name, defaultValue, min, max);
    }

    /** @return the option as a long in {@code [min, max]}, or {@code defaultValue} if not given */
    public long longValue(String name, long defaultValue, long min, long max) throws UsageException {
        check(name);
        String raw = given.get(name);
        if (raw == null) {
            return defaultValue;
        }
        long v = parseLong(raw.trim());
        if (v == Long.MIN_VALUE || v < min || v > max) {
            throw new UsageException("--" + name + " must be an integer from " + min + " to " + max + ", got '" + raw + "'");
        }
        return v;
    }

    /**
     * @return the option as a decimal number in {@code [min, max]} (or {@code [min, max)} if
     *         {@code maxExclusive}), or {@code defaultValue} if not given
     */
    public double doubleValue(String name, double defaultValue, double min, double max, boolean maxExclusive)
            throws UsageException {
        check(name);
        String raw = given.get(name);
        if (raw == null) {
            return defaultValue;
        }
        double v;
        try {
            v = Double.parseDouble(raw.trim());
        } catch (NumberFormatException e) {
            v = Double.NaN;
        }
        // The parser accepts forms like "1d" or "0x1p3"; insist on a plain decimal.
        boolean plain = raw.trim().matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
        if (!plain || Double.isNaN(v) || v < min || v > max || (maxExclusive && v == max)) {
            throw new UsageException("--" + name + " must be a number in [" + fmt(min) + ", " + fmt(max)
                    + (maxExclusive ? ")" : "]") + ", got '" + raw + "'");
        }
        return v;
    }

    /** @return the option's text as one of {@code choices} (case-insensitive), lower-cased */
    public String choice(String name, String defaultValue, List<String> choices) throws UsageException {
        check(name);
        String raw = given.get(name);
        if (raw == null) {
            return defaultValue;
        }
        String v = raw.trim().toLowerCase(Locale.ROOT);
        if (!choices.contains(v)) {
            throw new UsageException("unknown " + name + " '" + raw + "'; known: " + String.join(", ", choices));
        }
        return v;
    }

    private void check(String name) {
        if (!declared.containsKey(name)) {
            throw new IllegalArgumentException("option --" + name + " was not declared");
        }
    }

    /** @return the value of a decimal integer with an optional k/m suffix, or Long.MIN_VALUE if malformed */
    private static long parseLong(String s) {
        long scale = 1;
        if (!s.isEmpty()) {
            char last = Character.toLowerCase(s.charAt(s.length() - 1));
            if (last == 'k' || last == 'm') {
                scale = last == 'k' ? 1_000L : 1_000_000L;
                s = s.substring(0, s.length() - 1);
            }
        }
        if (!s.matches("[+-]?\\d{1,18}")) {
            return Long.MIN_VALUE;
        }
        long v = Long.parseLong(s);
        return Math.abs(v) > Long.MAX_VALUE / scale ? Long.MIN_VALUE : v * scale;
    }

    private static String fmt(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }
}
