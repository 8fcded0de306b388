package io.jato.stm.spi;

import io.jato.stm.Capabilities;
import io.jato.stm.internal.Epoch;
import io.jato.stm.internal.TxnAges;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Store-wide services a protocol may use: the store's epoch clock, its configured spin bounds, the
 * protocol's options as the builder gave them, and the registry of live per-transaction protocol
 * states. One instance per store; immutable apart from the epoch and the registry.
 */
public final class ProtocolContext {
    private final Epoch epoch;
    private final int lockSpinLimit;
    private final int readSpinLimit;
    private final String protocolName;
    private final Capabilities capabilities;
    /** Every option the protocol declares, with the builder's value or the declared default. */
    private final Map<String, String> options;
    /** The store's registry of live transaction states, shared with child contexts. */
    private final TxnStateRegistry registry;
    /**
     * The protocol's domain in a store whose objects are bound to several protocols
     * ({@link #isMixed()}), else 0: items of this protocol carry it ({@link Items#domain}).
     */
    private final int domain;
    /** True in a store whose objects are bound to several protocols. */
    private final boolean mixed;
    /** The store's escalation token for starving transactions (shared by every context of the store). */
    final EscalationGate escalation;
    /** The store's sequence of transaction ages ({@link TxnContext#age}; shared by every context of the store). */
    final TxnAges ages;
    /** Transactions of the store waiting in retry (used through the store's root context). */
    final WaitRegistry waits = new WaitRegistry();
    /** Writing commits, counted only in an opaque store ({@code Stm.Builder.opacity}; used through the root context). */
    final io.jato.stm.internal.CommitCounter commits = new io.jato.stm.internal.CommitCounter();

    private ProtocolContext(Epoch epoch, int lockSpinLimit, int readSpinLimit, String protocolName,
                            Capabilities capabilities, Map<String, String> options, TxnStateRegistry registry,
                            int domain, boolean mixed, EscalationGate escalation,
                            TxnAges ages) {
        this.escalation = escalation;
        this.ages = ages;
        this.domain = domain;
        this.mixed = mixed;
        this.epoch = epoch;
        this.lockSpinLimit = lockSpinLimit;
        this.readSpinLimit = readSpinLimit;
        this.protocolName = protocolName;
        this.capabilities = capabilities;
        this.options = options;
        this.registry = registry;
    }

    /**
     * Creates a store's context for {@code protocol}; called by the store (and by harnesses that run
     * a protocol without a store, e.g. jcstress tests). Protocol authors receive it in
     * {@link Protocol#create}.
     *
     * @param givenOptions option values set on the builder; every other declared option takes its
     *                     default
     * @throws IllegalArgumentException if {@code givenOptions} names an option the protocol does not
     *                                  declare (the message lists the ones it does)
     * @throws NullPointerException     if the protocol declares null capabilities
     */
    public static ProtocolContext create(Protocol protocol, long epochPeriodNanos, int lockSpinLimit,
                                         int readSpinLimit, Map<String, String> givenOptions) {
        return new ProtocolContext(new Epoch(epochPeriodNanos), lockSpinLimit, readSpinLimit, protocol.name(),
                capabilitiesOf(protocol), optionValues(protocol, givenOptions), new TxnStateRegistry(), 0, false, new EscalationGate(),
                new TxnAges());
    }

    /**
     * The context of the protocol of domain {@code domain} in a store whose objects are bound to
     * several protocols: the store's epoch clock and spin bounds, the protocol's own options and
     * its own registry of live transaction states.
     */
    ProtocolContext mixedChild(Protocol protocol, Map<String, String> givenOptions, int domain) {
        return new ProtocolContext(epoch, lockSpinLimit, readSpinLimit, protocol.name(), capabilitiesOf(protocol),
                optionValues(protocol, givenOptions), new TxnStateRegistry(), domain, true, escalation, ages);
    }

    /**
     * The root context of a store whose objects are bound to several protocols: the shared epoch
     * clock and spin bounds, the capabilities every transaction of the store gets, no options.
     */
    static ProtocolContext mixedRoot(String name, Capabilities capabilities, long epochPeriodNanos,
                                     int lockSpinLimit, int readSpinLimit) {
        return new ProtocolContext(new Epoch(epochPeriodNanos), lockSpinLimit, readSpinLimit, name, capabilities,
                Map.of(), new TxnStateRegistry(), 0, false, new EscalationGate(),
                new TxnAges());
    }

    /**
     * A context for a protocol that this store's protocol runs inside itself (a wrapper, or a
     * composite such as a tree of protocols): the same epoch clock, spin bounds and registry of
     * live transaction states, with the child's own name, capabilities and options, each at its
     * declared default.
     */
    public ProtocolContext child(Protocol protocol) {
        return child(protocol, Map.of());
    }

    /**
     * {@link #child(Protocol)} with some of the child's options set: {@code options} maps option
     * names the child declares ({@link Protocol#options}) to values in text, as
     * {@link io.jato.stm.Stm.Builder#option} takes them; the others keep their defaults.
     *
     * @throws IllegalArgumentException naming the option, if the child does not declare it
     */
    public ProtocolContext child(Protocol protocol, Map<String, String> options) {
        return new ProtocolContext(epoch, lockSpinLimit, readSpinLimit, protocol.name(), capabilitiesOf(protocol),
                optionValues(protocol, options), registry, domain, mixed, escalation, ages);
    }

    // ------------------------------------------------------------------ several protocols per store

    /**
     * @return true if this protocol is one of several that the store's objects are bound to: its
     *         hooks then receive only entries of its own items, but a pass over the access set
     *         ({@link TxnContext#writeAt}, {@link TxnContext#readAt}) sees every entry and must
     *         skip the others ({@link #owns})
     */
    public boolean isMixed() {
        return mixed;
    }

    /** @return the protocol domain of this protocol's items (0 unless {@link #isMixed()}) */
    public int domain() {
        return domain;
    }

    /**
     * @return true if {@code e}'s item belongs to this protocol: always in a store of one
     *         protocol; in a mixed store, if the item was created in this protocol's domain
     */
    public boolean owns(Entry e) {
        return !mixed || e.item.domain() == domain;
    }

    /**
     * @return the slot of this protocol's per-transaction state, for {@link TxnContext#ccState(int)}:
     *         -1 (the context's own state) in a store of one protocol, the domain in a mixed store
     */
    public int stateSlot() {
        return mixed ? domain : -1;
    }

    private static Capabilities capabilitiesOf(Protocol protocol) {
        return Objects.requireNonNull(protocol.capabilities(),
                () -> "protocol '" + protocol.name() + "' declared null capabilities");
    }

    /** Every option the protocol declares, with the given value or the default; unknown names refused. */
    private static Map<String, String> optionValues(Protocol protocol, Map<String, String> given) {
        Map<String, String> values = new LinkedHashMap<>();
        for (ProtocolOption o : protocol.options()) {
            values.put(o.name(), o.defaultValue());
        }
        for (Map.Entry<String, String> e : given.entrySet()) {
            if (!values.containsKey(e.getKey())) {
                throw new IllegalArgumentException("protocol '" + protocol.name() + "' has no option '" + e.getKey()
                        + "'; its options: " + (values.isEmpty() ? "none" : String.join(", ", values.keySet())));
            }
            values.put(e.getKey(), e.getValue());
        }
        return Map.copyOf(values);
    }

    /** Advances the epoch if its period elapsed; called by committing threads every few thousand commits. */
    void tickEpoch(long nowNanos) {
        epoch.tick(nowNanos);
    }

    /** @return the current global epoch (volatile read of a padded word nobody writes often) */
    public long currentEpoch() {
        return epoch.current();
    }

    /** Moves the epoch to at least {@code target} (used when a per-epoch sequence overflows). */
    public long advanceEpochTo(long target) {
        return epoch.advanceTo(target);
    }

    /** @return how many times a commit tries to lock one item before suspecting deadlock */
    public int lockSpinLimit() {
        return lockSpinLimit;
    }

    /** @return how many times an execution-time read waits for a locked item before aborting */
    public int readSpinLimit() {
        return readSpinLimit;
    }

    /** @return the capabilities the store's protocol declared */
    public Capabilities capabilities() {
        return capabilities;
    }

    // ------------------------------------------------------------------ options

    /**
     * @return the value of one of the protocol's declared options: the builder's, else the default
     * @throws IllegalArgumentException if the protocol declares no option of that name
     */
    public String option(String name) {
        String v = options.get(name);
        if (v == null) {
            throw new IllegalArgumentException("protocol '" + protocolName + "' declares no option '" + name + "'");
        }
        return v;
    }

    /**
     * @return the option as an {@code int} in {@code [min, max]}
     * @throws IllegalArgumentException naming the option if its value is not such an integer
     */
    public int intOption(String name, int min, int max) {
        String raw = option(name).trim();
        int v;
        try {
            v = Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(describe(name) + " must be an integer in [" + min + ", " + max
                    + "], was '" + raw + "'", e);
        }
        if (v < min || v > max) {
            throw new IllegalArgumentException(describe(name) + " must be in [" + min + ", " + max + "], was " + v);
        }
        return v;
    }

    /**
     * @return the option as a {@code boolean}
     * @throws IllegalArgumentException naming the option if its value is neither {@code true} nor {@code false}
     */
    public boolean booleanOption(String name) {
        String raw = option(name).trim();
        switch (raw) {
            case "true":
                return true;
            case "false":
                return false;
            default:
                throw new IllegalArgumentException(describe(name) + " must be true or false, was '" + raw + "'");
        }
    }

    /**
     * @return the index in {@code choices} of the option's value (its text, trimmed)
     * @throws IllegalArgumentException naming the option and the choices if it is none of them
     */
    public int choiceOption(String name, String... choices) {
        String raw = option(name).trim();
        for (int i = 0; i < choices.length; i++) {
            if (choices[i].equals(raw)) {
                return i;
            }
        }
        throw new IllegalArgumentException(describe(name) + " must be one of " + String.join(", ", choices)
                + ", was '" + raw + "'");
    }

    private String describe(String option) {
        return "option '" + option + "' of protocol '" + protocolName + "'";
    }

    // ------------------------------------------------------------------ live transaction states

    /**
     * The protocol states ({@link ConcurrencyControl#newTxnState}) of every transaction context of
     * this store that exists: one per platform thread that ran a transaction of the store (until
     * the thread dies), and one per context of the store's pool that virtual threads borrow for a
     * transaction at a time (until the pool drops it). A context's state stays in the registry
     * while it runs and while it is idle, so an idle state must hold nothing back (an MVCC state
     * publishes no snapshot between transactions). For what needs to see all transactions: an MVCC
     * snapshot horizon (the oldest running snapshot), a contention manager (whom to abort), a
     * timestamp-range protocol's live ranges. When a state leaves the registry,
     * {@link ConcurrencyControl#retireTxnState} is called.
     *
     * <p>A live view, read without locking or allocating: iterate it as
     * {@code for (int i = 0, n = states.size(); i < n; i++) { Object s = states.get(i); if (s == null) continue; ... }}.
     * Elements may be null (a slot a departed state left, reused by a later one), and
     * {@code size()} is the number of slots ever used, not of states. Every state registered before
     * the caller's {@code get} of its slot is seen there; a state registered later may be missed, a state
     * removed meanwhile may still be seen. Registering and removing a state take O(1) time.
     */
    public List<Object> txnStates() {
        return registry.view;
    }

    /** Adds a new context's state; called by the context's constructor (store creation path only). */
    void registerTxnState(Object state) {
        if (state != null) {
            registry.add(state);
        }
    }

    /** Removes a departed context's state; returns true if it was registered. */
    boolean unregisterTxnState(Object state) {
        return state != null && registry.remove(state);
    }
}
