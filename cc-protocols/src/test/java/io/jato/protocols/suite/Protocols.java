package io.jato.protocols.suite;

import io.jato.stm.Capabilities;
import io.jato.stm.Stm;
import org.junit.jupiter.api.Assumptions;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The protocols every suite runs against, and the knobs shared by the suites.
 *
 * <p>Every protocol that {@link Stm#availableProtocols()} finds is tested, except those whose name
 * starts with {@value #BROKEN_PREFIX}: those are deliberately incorrect protocols registered by the
 * test sources only to prove that the suites can fail ({@code BrokenProtocolDetectionTest}), those
 * whose name starts with {@value #FAULTY_PREFIX}: the fault-injecting wrapper registered by the
 * test sources for {@code FaultInjectionTest}, which wraps each of these protocols in turn, other
 * test-only protocols (prefix {@value #TEST_PREFIX}), and those whose declared
 * {@link Capabilities} are below serializability: they allow anomalies by design and are tested on
 * their own ({@link #weaklyIsolated()}) at the level they declare.
 */
public final class Protocols {
    /** Name prefix of the deliberately broken protocols, excluded from {@link #all()}. */
    public static final String BROKEN_PREFIX = "test-broken-";
    /** Name prefix of the fault-injecting test protocol, excluded from {@link #all()}. */
    public static final String FAULTY_PREFIX = "test-faulty";

    /** Name prefix of every protocol registered by test sources only, excluded from {@link #all()}. */
    public static final String TEST_PREFIX = "test-";

    /** The system property (set by surefire from the parent pom) that scales stress iterations. */
    public static final String SCALE_PROPERTY = "jato.stress.scale";

    private Protocols() {
    }

    /** Separates the protocols of a pairing: {@code "occ+tictoc"} is a store of both. */
    public static final String PAIR_SEPARATOR = "+";

    /**
     * The parameter source of every suite: the name of every correct protocol, sorted, then every
     * pairing of two of them ({@link #pairs()}) ({@code "occ+tictoc"}: a store whose default protocol is
     * {@code occ}, with {@code tictoc} as an object protocol and {@link Stm.Builder#rotateObjectProtocols}
     * on, so the objects a test creates alternate between the two and its transactions span
     * both). {@link #store(String)} builds either.
     */
    public static Stream<String> all() {
        return Stream.concat(singles(), pairs());
    }

    /**
     * @return the names of every correct protocol, sorted (no pairings), then its variants
     *         ({@link #VARIANTS}) whose protocol is among them
     */
    public static Stream<String> singles() {
        List<String> names = correct();
        return Stream.concat(names.stream(), VARIANTS.stream().filter(v -> names.contains(protocolName(v))));
    }

    /** Separates a variant's option from its value: {@code "updaterDeltas=contended"}. */
    public static final String VARIANT_VALUE = "=";

    /**
     * Separates a protocol's name from the options a variant sets: {@code "mvcc/updaterDeltas"} turns
     * a boolean option on, {@code "mvcc/updaterDeltas=contended"} gives it a value.
     */
    public static final String VARIANT_SEPARATOR = "/";

    /**
     * Protocol variants the suites run beside the protocols themselves (alone, not in pairings):
     * options that send transactions down other code paths. {@code mvcc/updaterDeltas} makes
     * records' {@code @Commutative} updaters and hash maps' commutative updaters delta versions
     * (off by default), so the contract, bank, nesting and fault-injection suites reach the delta
     * groups' prepare, publish and failure paths. {@code mvcc/updaterDeltas=contended} makes them
     * delta versions only in a retry or where a group is already open, so the suites also run
     * first attempts that join the groups retries opened, beside exclusive writes of the same items.
     */
    public static final List<String> VARIANTS = List.of(
            "mvcc" + VARIANT_SEPARATOR + "updaterDeltas",
            "mvcc" + VARIANT_SEPARATOR + "updaterDeltas" + VARIANT_VALUE + "contended");


    /** @return the registered protocol of a single spec: {@code spec} without its variant's options */
    public static String protocolName(String spec) {
        int v = spec.indexOf(VARIANT_SEPARATOR);
        return v < 0 ? spec : spec.substring(0, v);
    }

    /**
     * @return the options a single spec's variant sets, by unqualified name: {@code name=value}
     *         gives the value, a bare {@code name} means true
     */
    public static Map<String, String> variantOptions(String spec) {
        Map<String, String> options = new LinkedHashMap<>();
        String[] parts = spec.split(Pattern.quote(VARIANT_SEPARATOR));
        for (int i = 1; i < parts.length; i++) {
            int eq = parts[i].indexOf(VARIANT_VALUE);
            if (eq < 0) {
                options.put(parts[i], "true");
            } else {
                options.put(parts[i].substring(0, eq), parts[i].substring(eq + 1));
            }
        }
        return options;
    }

    /**
     * The system property that chooses the pairings: {@code unordered} (the default) runs each pair
     * of protocols once, as {@code "a+b"} with {@code a} first in name order; {@code ordered} runs
     * both {@code "a+b"} and {@code "b+a"}; {@code ring} pairs each protocol with the next in name
     * order only (the last with the first), so that every protocol still runs in a mixed store. With
     * {@link Stm.Builder#rotateObjectProtocols} the objects of a pairing alternate between its two
     * protocols either way, so the order decides only which one is the store's default (domain 0).
     * The pairings grow with the square of the protocols (eight paired protocols: 28 unordered, 56
     * ordered, 8 in a ring). CI runs every unordered pairing on JDK 17 and the ring on JDK 25 (the
     * pairings test protocol logic, which the JDK does not change; all of them on both JDKs took
     * CI past its time budget); {@code -Djato.suite.pairs=ordered} runs the full set.
     */
    public static final String PAIRS_PROPERTY = "jato.suite.pairs";

    /**
     * Name prefix of the protocols that run alone only, never in a pairing: Tebaldi's trees
     * ({@code tebaldi}, {@code tebaldi-2layer}) choose their control per transaction type, and
     * pairing each with every other protocol would double what they add to the suites' time.
     */
    public static final String UNPAIRED_PREFIX = "tebaldi";

    /**
     * @return every pairing {@code "a+b"} of two distinct correct protocols, as {@link #PAIRS_PROPERTY}
     *         chooses, without the protocols named {@value #UNPAIRED_PREFIX}...; where
     *         {@value #ONLY_PROPERTY} selects protocols, the pairings with a selected protocol on
     *         either side, the other any correct protocol (a protocol written outside this
     *         repository runs mixed with every shipped one; {@code ring} then counts as
     *         {@code unordered})
     */
    public static Stream<String> pairs() {
        // Every correct protocol, selected or not: a selected one is paired with the others.
        List<String> names = registered().filter(n -> !n.startsWith(UNPAIRED_PREFIX)).collect(Collectors.toList());
        String mode = System.getProperty(PAIRS_PROPERTY, "unordered");
        boolean ordered;
        if (mode.equals("ordered")) {
            ordered = true;
        } else if (mode.equals("unordered")) {
            ordered = false;
        } else if (mode.equals("ring")) {
            if (allSelected()) {
                return ring(names);
            }
            // A ring over every protocol would leave most selected ones with one partner at best.
            ordered = false;
        } else {
            throw new IllegalArgumentException(PAIRS_PROPERTY + " must be 'ordered', 'unordered' or 'ring', was '" + mode + "'");
        }
        return names.stream().flatMap(a -> names.stream()
                .filter(b -> ordered ? !b.equals(a) : a.compareTo(b) < 0)
                .filter(b -> isSelected(a) || isSelected(b))
                .map(b -> a + PAIR_SEPARATOR + b));
    }

    /**
     * What a parameterized test's source gives when it has nothing to run under the current
     * {@value #ONLY_PROPERTY} (JUnit refuses an empty source): the test then skips itself with
     * {@link #assumeSome}.
     */
    public static final String NONE = "(none selected)";

    /** @return {@link #pairs()}, or {@link #NONE} alone if there is none (a selection of unpaired protocols) */
    public static Stream<String> pairsOrNone() {
        return orNone(pairs().collect(Collectors.toList()));
    }

    /** @return {@code specs}, or {@link #NONE} alone if it is empty */
    public static Stream<String> orNone(List<String> specs) {
        return specs.isEmpty() ? Stream.of(NONE) : specs.stream();
    }

    /** Skips the calling test if its source had nothing to run ({@link #orNone}); {@code what} says what was missing. */
    public static void assumeSome(String spec, String what) {
        Assumptions.assumeFalse(NONE.equals(spec), () -> "no selected protocol " + what + " (" + ONLY_PROPERTY + "="
                + System.getProperty(ONLY_PROPERTY, "") + ")");
    }

    /** Each of {@code names} (sorted) with the next one, the last with the first; each pair in name order. */
    private static Stream<String> ring(List<String> names) {
        int n = names.size();
        if (n < 2) {
            return Stream.empty();
        }
        if (n == 2) {
            return Stream.of(names.get(0) + PAIR_SEPARATOR + names.get(1));
        }
        return IntStream.range(0, n).mapToObj(i -> {
            String a = names.get(i);
            String b = names.get((i + 1) % n);
            return a.compareTo(b) < 0 ? a + PAIR_SEPARATOR + b : b + PAIR_SEPARATOR + a;
        });
    }

    /** @return true if {@code spec} names a pairing rather than one protocol */
    public static boolean isPair(String spec) {
        return spec.contains(PAIR_SEPARATOR);
    }

    /**
     * The system property that limits the suites to some protocols: a comma-separated list of
     * names. A protocol written outside this repository runs the suites (the {@code tests}
     * classifier of {@code jato-protocols}) with {@code -Djato.suite.protocols=its-name}.
     */
    public static final String ONLY_PROPERTY = "jato.suite.protocols";

    /** @return the names of every correct protocol, sorted; fails if none is registered */
    public static List<String> correct() {
        List<String> names = registered().filter(Protocols::isSelected).collect(Collectors.toList());
        if (names.isEmpty()) {
            throw new IllegalStateException("no protocol registered: the suites would test nothing");
        }
        return names;
    }

    /** @return every registered correct protocol, sorted, whatever {@value #ONLY_PROPERTY} selects */
    private static Stream<String> registered() {
        return Stm.availableProtocols().stream().filter(n -> !isTestOnly(n) && !isWeaklyIsolated(n));
    }

    /** @return the names of the registered protocols below serializability, sorted */
    public static List<String> weaklyIsolated() {
        return Stm.availableProtocols().stream()
                .filter(n -> !isTestOnly(n) && isWeaklyIsolated(n) && isSelected(n))
                .collect(Collectors.toList());
    }

    /** @return true if {@value #ONLY_PROPERTY} is unset: every registered protocol is under test */
    public static boolean allSelected() {
        return System.getProperty(ONLY_PROPERTY, "").trim().isEmpty();
    }

    /** @return true unless {@value #ONLY_PROPERTY} is set and does not name the protocol */
    public static boolean isSelected(String name) {
        String only = System.getProperty(ONLY_PROPERTY, "").trim();
        if (only.isEmpty()) {
            return true;
        }
        for (String n : only.split(",")) {
            if (n.trim().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** @return true for the protocols the test sources register to test the suites and the core */
    private static boolean isTestOnly(String name) {
        return name.startsWith(TEST_PREFIX);
    }

    /** @return true if the protocol declares an isolation level below serializability */
    private static boolean isWeaklyIsolated(String name) {
        return !Stm.protocolCapabilities(name).serializable();
    }

    /** @return a fresh store running {@code protocol}, named after it */
    public static Stm store(String protocol) {
        return store(protocol, protocol);
    }

    /** @return a fresh store running {@code protocol} (or a pairing, see {@link #all()}) with the given name */
    public static Stm store(String protocol, String name) {
        return builder(protocol).name(name).build();
    }

    /** @return a builder for {@code spec}: one protocol, or a pairing with object protocols rotating */
    public static Stm.Builder builder(String spec) {
        String[] names = spec.split("\\" + PAIR_SEPARATOR);
        Stm.Builder b = Stm.builder().protocol(protocolName(names[0]));
        if (names.length > 1) {
            b.rotateObjectProtocols(true);
        }
        for (int i = 1; i < names.length; i++) {
            b.objectProtocol(protocolName(names[i]));
        }
        for (String single : names) {
            String name = protocolName(single);
            // Qualified by the protocol's name: in a pairing the other protocol may not declare it.
            variantOptions(single).forEach((option, value) -> b.option(name + "." + option, value));
        }
        return b;
    }

    /** @return the capabilities a store of {@code spec} declares */
    public static Capabilities capabilities(String spec) {
        return store(spec).capabilities();
    }

    /**
     * @return the stress scale factor ({@value #SCALE_PROPERTY}, default 1): stress tests multiply
     *         their iteration counts and durations by it
     */
    public static int scale() {
        String raw = System.getProperty(SCALE_PROPERTY, "1").trim();
        try {
            return Math.max(1, Integer.parseInt(raw));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(SCALE_PROPERTY + " must be an integer, was '" + raw + "'", e);
        }
    }

    /** @return {@code base} multiplied by the stress scale */
    public static int scaled(int base) {
        return Math.multiplyExact(base, scale());
    }
}
