package io.jato.protocols.suite;

import io.jato.stm.spi.Items;
import io.jato.protocols.suite.FaultTargets.Target;
import io.jato.protocols.suite.Failures.Boom;
import io.jato.protocols.suite.faulty.FaultyControl;
import io.jato.protocols.suite.faulty.FaultyControl.Hook;
import io.jato.protocols.suite.faulty.FaultyControl.When;
import io.jato.protocols.suite.faulty.FaultyParticipant;
import io.jato.protocols.suite.faulty.FaultyParticipant.Phase;
import io.jato.protocols.suite.faulty.FaultyProtocol;
import io.jato.stm.AbortCause;
import io.jato.stm.Capabilities;
import io.jato.stm.Stm;
import io.jato.stm.StmStatistics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Failure atomicity of the commit driver, proved by fault injection for every protocol and every
 * data type: a transaction writes one target ({@link FaultTargets}: every kind of write of a data
 * type, or of all of them at once) plus a {@link FaultyParticipant}, and a {@code RuntimeException}
 * or an {@code OutOfMemoryError} is thrown
 *
 * <ul>
 *   <li>by the protocol ({@link FaultyProtocol} around the real one) at the k-th call, for every k
 *       the transaction makes, of begin, the execution-time reads, lock, commitTimestamp, validate,
 *       lockedRef/lockedLong, install, installRef/installLong, publish, unlock and finish, before
 *       and (where the contract allows) after the real call, in writing and in read-only
 *       transactions;</li>
 *   <li>by the participant from its check (a commit-time updater), its install at every position
 *       among the real installs, and its cleanup (after a commit, after an abort, and beside an
 *       earlier failure);</li>
 *   <li>by both at once: a throwing check or install, then a throwing unlock, finish or cleanup.</li>
 * </ul>
 *
 * After each: the throwable reaches the caller (the same instance; a later one suppressed into
 * it); what is visible is what the phase promises ({@link Expect}: nothing of the transaction
 * before the install phase; built-in installs undone, other installs kept, after an install
 * failure; everything after a publish failure or once committed), read both in a transaction and
 * through the non-transactional views; the participant's item kept its old version word exactly
 * when nothing was installed, and got a new one otherwise; nothing is locked ({@link Quiescence});
 * the statistics add up (starts == commits + aborts) with the failure counted once, by the right
 * cause; and the thread runs a new transaction over the same objects that commits on what it
 * reads. The overlap with a concurrent reader is {@code FaultInjectionConcurrencyTest}.
 *
 * <p>The same runs on every pairing of two protocols in one store ({@link Protocols#all()}; the
 * comment above the parameters says how, and which subset), where the core sends each hook to the
 * protocol of the entry's item. There the spanning targets ({@link FaultTargets#SPANNING_TYPES})
 * write an object of each protocol in one transaction, which commits through the store's
 * spanning path (checked: its access set holds both protocols' items when the faulty protocol is
 * asked for a commit timestamp), with the faulty protocol first or second
 * ({@link #aSecondProtocolThatThrowsInASpanningTransactionLeavesNothingHalfDone}): whatever fails,
 * both protocols' objects must be left quiescent and, where their writes are built-in installs,
 * both old or both new ({@link Expect}: built-in installs are old unless everything is new).
 */
@Timeout(120)
class FaultInjectionTest {

    /** The throwable kinds injected. */
    enum Kind {
        RUNTIME {
            @Override
            Throwable create(String where) {
                return new IllegalStateException("injected at " + where);
            }
        },
        OOM {
            @Override
            Throwable create(String where) {
                return new OutOfMemoryError("injected at " + where);
            }
        };

        abstract Throwable create(String where);
    }

    /** What must be visible after the failure. */
    enum Expect {
        /** Nothing of the failed transaction. */
        OLD,
        /** Every component old or new; built-in ones old. */
        PARTIAL,
        /** Built-in components old, every other component new (everything was installed, then undone where built in). */
        UNDONE_BUILT_IN,
        /** Everything the transaction wrote. */
        NEW
    }

    /** A store, a target in it, and the fault-injecting participant, freshly loaded. */
    private static final class Env {
        final Stm stm;
        final Target target;
        final FaultyParticipant participant;
        final Map<String, Object> initial;
        final String label;

        Env(Stm stm, String type, String label) {
            this.stm = stm;
            this.target = FaultTargets.create(type, stm);
            // The faulty protocol's, where the store has one: the participant's read, check and
            // conflict involve the protocol under fault even where the target writes blindly.
            this.participant = new FaultyParticipant(stm.protocols().contains(FaultyProtocol.NAME)
                    ? stm.withProtocol(FaultyProtocol.NAME) : stm);
            this.initial = target.committed();
            this.label = label;
        }

        /** Runs the target's writes with the participant joined before operation {@code at} (ops() = last). */
        Throwable run(int at) {
            return Failures.thrownBy(() -> stm.run(txn -> {
                int n = target.ops();
                for (int i = 0; i < n; i++) {
                    if (i == at) {
                        participant.join(txn);
                    }
                    target.op(txn, i);
                }
                if (at >= n) {
                    participant.join(txn);
                }
            }));
        }

        Throwable run() {
            return run(Integer.MAX_VALUE);
        }
    }

    /**
     * Where protocol faults are injected: a name for messages, and how to build a fresh store whose
     * {@link FaultyProtocol} is armed through {@link FaultyProtocol#control}.
     */
    record Site(String name, boolean pairing, Supplier<Stm> store) {
        /**
         * The faulty protocol as the store's default: around the protocol {@code spec} names, or
         * for a pairing {@code "inner+other"} around {@code inner}, with {@code other} as the
         * store's object protocol (see {@link FaultyProtocol#store}).
         */
        static Site of(String spec) {
            return new Site(spec, Protocols.isPair(spec), () -> FaultyProtocol.store(spec));
        }

        /**
         * For a pairing {@code "inner+other"}: the faulty protocol around {@code inner} as the object
         * protocol of a store whose default is {@code other}, so that it comes second in every
         * pass the store's dispatcher makes over its protocols.
         */
        static Site behind(String pair) {
            String[] names = pair.split(Pattern.quote(Protocols.PAIR_SEPARATOR));
            return new Site(names[1] + "+faulty " + names[0], true,
                    () -> FaultyProtocol.storeAsObjectProtocol(names[1], names[0]));
        }
    }

    /**
     * A store without a faulty protocol, for the participant's faults: {@code spec}'s, except that a
     * spanning target needs the pairing's objects bound by the views they are created through,
     * not rotated ({@link FaultTargets#SPANNING}).
     */
    private static Stm plainStore(String spec, String type) {
        return FaultTargets.isSpanning(type) ? Protocols.builder(spec).rotateObjectProtocols(false).build()
                : Protocols.store(spec);
    }

    /**
     * The calls of a hook (from 1, of {@code calls}) that a case faults: every one on a single
     * protocol; on a pairing the first, the middle one and the last (see the parameters' comment).
     */
    private static int[] callsToFault(boolean pairing, int calls) {
        IntStream ks = pairing ? IntStream.of(1, (calls + 1) / 2, calls).distinct() : IntStream.rangeClosed(1, calls);
        return ks.filter(k -> k >= 1 && k <= calls).toArray();
    }

    // ------------------------------------------------------------------ parameters

    /*
     * Every case runs on every protocol and on every pairing of two (Protocols.all()). With a
     * pairing "inner+other", a protocol fault's store has the faulty protocol (around inner) as its
     * default and other as its object protocol, without rotation. Its targets
     * (FaultTargets.types) are the spanning ones, which write an object of each protocol in one
     * transaction, so that it commits through the spanning path of the store's dispatcher
     * (MixedControl: its clock); and "All", every data type's writes on the faulty protocol only,
     * a transaction of one protocol in a mixed store (the dispatcher's other path, with other begun
     * and finished around it). A participant's fault runs on the plain store of the pairing:
     * rotating for "All" (its objects and the participant's item alternate between the two
     * protocols, so the transaction spans them), each object on its view's protocol for the
     * spanning targets.
     *
     * Pairings run a representative subset, to keep the suite fast (the whole cross product would
     * add about 25 s to this class on two cores, five times what it takes on single protocols).
     * The single protocols fault every call of every hook, on every data type on its own and
     * all at once. What a pairing adds is the dispatcher and the other protocol, and neither
     * depends on the data type nor on which of the faulty protocol's own calls fails, only on
     * where the fault falls among the other protocol's work: the data types on their own are
     * left out (All and the spanning targets write every one), and a pairing faults the first,
     * the middle and the last call of each hook (callsToFault). The spanning targets write the
     * faulty protocol's objects first and its participant last, so the first and the middle call
     * fall before any of the other protocol's entries and the last (the participant's) after all
     * of them; with the faulty protocol second (aSecondProtocolThatThrows...) the other's entries
     * come first.
     */

    /**
     * Every protocol x hook x target, but unlock, which only the abort path calls ({@link #abortPathCases}),
     * and the non-transactional locks, which no transaction calls ({@code NonTxGroupLockTest}).
     */
    static Stream<Arguments> protocolHookCases() {
        return Protocols.all().flatMap(p -> Arrays.stream(Hook.values())
                .filter(h -> h != Hook.UNLOCK && h != Hook.NON_TX_LOCK)
                .flatMap(h -> FaultTargets.types(p).stream().map(t -> Arguments.of(p, h, t))));
    }

    /** Every protocol x {unlock, finish} x target, thrown on the path of an attempt that aborts. */
    static Stream<Arguments> abortPathCases() {
        return Protocols.all().flatMap(p -> Stream.of(Hook.UNLOCK, Hook.FINISH)
                .flatMap(h -> FaultTargets.types(p).stream().map(t -> Arguments.of(p, h, t))));
    }

    static Stream<Arguments> participantCases() {
        return Protocols.all().flatMap(p -> Arrays.stream(Phase.values())
                .flatMap(ph -> FaultTargets.types(p).stream().map(t -> Arguments.of(p, ph, t))));
    }

    static Stream<Arguments> protocolsAndTypes() {
        return Protocols.all().flatMap(p -> FaultTargets.types(p).stream().map(t -> Arguments.of(p, t)));
    }

    // ------------------------------------------------------------------ protocol faults

    /** @return how many times the transaction calls {@code hook}, counted on a fresh copy */
    private static int countCalls(Site site, String type, Hook hook, boolean abortFirst) {
        Env env = new Env(site.store().get(), type, "count");
        FaultyControl control = FaultyProtocol.control(env.stm);
        control.countOnly();
        if (abortFirst) {
            env.participant.conflictOnce();
        }
        Throwable t = env.run();
        control.disarm();
        env.participant.disarm();
        if (t != null) {
            throw new AssertionError("the transaction fails without a fault", t);
        }
        assertEquals(env.target.after(env.initial), env.target.committed(), "the transaction commits its writes");
        int spanned = Integer.bitCount(control.commitDomains());
        assertEquals(FaultTargets.isSpanning(type) ? 2 : 1, spanned, () -> site.name() + " " + type
                + ": protocols the transaction spans (two: the store's dispatcher commits it at its spanning clock)");
        return control.calls(hook);
    }

    /**
     * Every call of every hook but unlock. Begin is counted over an attempt that aborts
     * (READ_VALIDATION: the participant fails validation once) and its retry, so the retry's begin
     * throws too; finish is the committed transaction's.
     */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("protocolHookCases")
    void aProtocolThatThrowsAtAnyCallOfAHookLeavesNothingHalfDone(String protocol, Hook hook, String type) {
        When[] whens = hook == Hook.INSTALL_VALUE ? new When[] {When.BEFORE} : hook.whens();
        faultsAtEveryCall(Site.of(protocol), hook, whens, type, hook == Hook.BEGIN);
    }

    /**
     * installRef that throws after storing the value: inside a map's delete install, the node
     * then holds the deleted marker but is still linked (the unlink never ran).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("protocolsAndTypes")
    void anInstallRefThatThrowsAfterStoringLeavesNothingHalfDone(String protocol, String type) {
        faultsAtEveryCall(Site.of(protocol), Hook.INSTALL_VALUE, new When[] {When.AFTER}, type, false);
    }

    /**
     * Unlock and finish on the abort path: the participant fails validation once, so the first
     * attempt aborts (READ_VALIDATION), releasing its locks and finishing; the throwable must
     * reach the caller, the attempt not be retried, and the abort be counted once.
     */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("abortPathCases")
    void aProtocolThatThrowsWhileAnAttemptAbortsLeavesNothingHalfDone(String protocol, Hook hook, String type) {
        faultsAtEveryCall(Site.of(protocol), hook, hook.whens(), type, true);
    }

    private static void faultsAtEveryCall(Site site, Hook hook, When[] whens, String type, boolean abortFirst) {
        int cases = 0;
        int calls = countCalls(site, type, hook, abortFirst);
        if (hook != Hook.UNLOCK && hook != Hook.LOCKED_VALUE && hook != Hook.INSTALL_VALUE
                && !(hook == Hook.LOCK && locksWhenWriting(site))) {
            // Unlock only where a protocol locks items (not global-lock); records write their
            // fields themselves, without installRef or lockedRef; a protocol that locks in onWrite
            // (EAGER_LOCKING) leaves its commit's lock phase nothing to do.
            assertTrue(calls > 0, () -> "the transaction never calls " + hook);
        }
        for (When when : whens) {
            for (int k : callsToFault(site.pairing(), calls)) {
                for (Kind kind : Kind.values()) {
                    protocolFault(site, type, hook, when, k, kind, abortFirst);
                    cases++;
                }
            }
        }
        if (calls == 0) {
            // Never called (global-lock never unlocks items, records never call installRef): the
            // armed fault never fires and the transaction commits.
            Env env = new Env(site.store().get(), type, site.name() + " " + type + " " + hook + " (never called)");
            FaultyControl control = FaultyProtocol.control(env.stm);
            control.arm(hook, 1, whens[0], Kind.RUNTIME.create(env.label));
            env.participant.conflictOnce();
            assertEquals(null, env.run());
            assertFalse(control.fired());
            control.disarm();
            env.participant.disarm();
            assertState(env, Expect.NEW);
            assertAfterwards(env);
            cases++;
        }
        assertTrue(cases > 0);
    }

    /** @return true if the protocol the site's faulty protocol wraps takes its write locks in onWrite */
    private static boolean locksWhenWriting(Site site) {
        String inner = FaultyProtocol.control(site.store().get()).inner().name();
        return Stm.protocolCapabilities(inner).has(Capabilities.Feature.EAGER_LOCKING);
    }

    private static void protocolFault(Site site, String type, Hook hook, When when, int k, Kind kind,
                                      boolean abortFirst) {
        String label = site.name() + " " + type + ": " + kind + " " + when + " call " + k + " of " + hook;
        Env env = new Env(site.store().get(), type, label);
        FaultyControl control = FaultyProtocol.control(env.stm);
        long word = Items.wordAcquire(env.participant.item());
        Throwable injected = kind.create(label);
        control.arm(hook, k, when, injected);
        if (abortFirst) {
            env.participant.conflictOnce();
        }
        Throwable thrown = env.run();
        control.disarm();
        env.participant.disarm();

        StmStatistics st = env.stm.statistics();
        assertTrue(control.fired(), () -> label + ": the fault never fired");
        assertSame(injected, thrown, () -> label + ": the caller must get the injected throwable, got " + thrown);
        assertFalse(env.stm.inTransaction(), label);

        // Where the throw happened: in the body (a read), before the install phase, or in it.
        boolean installing = hook == Hook.INSTALL || hook == Hook.INSTALL_VALUE || hook == Hook.PUBLISH
                || hook == Hook.LOCKED_VALUE && control.installsAtFire() > 0;
        Expect expect;
        switch (hook) {
            case INSTALL:
                // Nothing installed if it threw before the commit's first install: the faulty
                // protocol's first, unless another protocol's entries come first in the write set.
                expect = when == When.BEFORE && control.installPositionAtFire() == 0 ? Expect.OLD : Expect.PARTIAL;
                break;
            case INSTALL_VALUE:
                expect = Expect.PARTIAL;
                break;
            case LOCKED_VALUE:
                expect = installing ? Expect.PARTIAL : Expect.OLD;
                break;
            case PUBLISH:
                expect = Expect.NEW;
                break;
            case FINISH:
                expect = control.finishCommitted() ? Expect.NEW : Expect.OLD;
                break;
            default:
                expect = Expect.OLD;
                break;
        }
        assertState(env, expect);
        if (installing) {
            assertNotEquals(word, Items.wordAcquire(env.participant.item()),
                    () -> label + ": every write of a commit that failed while installing gets a new version");
            assertTrue(control.unlockChangedCalls() > 0, () -> label + ": the driver must call unlockChanged");
        } else if (expect == Expect.OLD) {
            assertEquals(word, Items.wordAcquire(env.participant.item()),
                    () -> label + ": a failure before the install phase restores the locked words");
            assertEquals(0, control.unlockChangedCalls(), label);
        }

        assertEquals(st.starts(), st.commits() + st.aborts(), () -> label + ": " + st);
        switch (hook) {
            case UNLOCK:
                // The abort it came from is counted; the attempt is not retried.
                assertEquals(1, st.starts(), () -> label + ": " + st);
                assertEquals(1, st.aborts(AbortCause.READ_VALIDATION), () -> label + ": " + st);
                break;
            case FINISH:
                assertEquals(control.finishCommitted() ? 1 : 0, st.commits(), () -> label + ": " + st);
                assertEquals(0, st.aborts(AbortCause.INTERNAL_FAILURE), () -> label + ": " + st);
                break;
            case READ:
            case ON_WRITE:
                // Thrown in the body (a read, or a write an eager protocol locks at once): the
                // caller's, like any exception there; a lock onWrite took is released.
                assertEquals(1, st.aborts(AbortCause.USER_EXCEPTION), () -> label + ": " + st);
                assertEquals(1, st.starts(), () -> label + ": " + st);
                break;
            case LOCKED_VALUE:
                // Before installing, only a participant's check reads locked values: a commit-time
                // updater's failure, a user exception.
                assertEquals(1, st.aborts(installing ? AbortCause.INTERNAL_FAILURE : AbortCause.USER_EXCEPTION),
                        () -> label + ": " + st);
                assertEquals(1, st.starts(), () -> label + ": " + st);
                break;
            default:
                assertEquals(1, st.aborts(AbortCause.INTERNAL_FAILURE), () -> label + ": " + st);
                assertEquals(0, st.commits(), () -> label + ": " + st);
                break;
        }
        assertAfterwards(env);
    }

    /** @return true if the protocol the faulty store wraps (a pairing's first) declares snapshot reads */
    private static boolean readsSnapshots(String protocol) {
        String wrapped = Protocols.protocolName(protocol.split("\\" + Protocols.PAIR_SEPARATOR)[0]);
        return Stm.protocolCapabilities(wrapped).has(Capabilities.Feature.SNAPSHOT_READS);
    }

    /**
     * A declared read-only transaction (no locks, no installs) failing at every call of begin,
     * its reads, commitTimestamp, validate and finish: the throwable surfaces, counted once, and
     * nothing changes.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("protocolsAndTypes")
    void aReadOnlyTransactionThatThrowsAtAnyCallLeavesNothingHalfDone(String protocol, String type) {
        int cases = 0;
        for (Hook hook : new Hook[] {Hook.BEGIN, Hook.READ, Hook.COMMIT_TIMESTAMP, Hook.VALIDATE, Hook.FINISH}) {
            Env counting = new Env(FaultyProtocol.store(protocol), type, "count");
            FaultyControl counter = FaultyProtocol.control(counting.stm);
            counter.countOnly();
            assertEquals(counting.initial, counting.stm.readOnly(counting.target::read));
            counter.disarm();
            int calls = counter.calls(hook);
            if (calls == 0 && hook == Hook.VALIDATE && readsSnapshots(protocol)) {
                // A multi-version protocol serves a declared read-only transaction from its
                // snapshot: nothing to validate.
                continue;
            }
            assertTrue(calls > 0, () -> "a read-only transaction never calls " + hook);
            for (When when : hook.whens()) {
                for (int k : callsToFault(Protocols.isPair(protocol), calls)) {
                    for (Kind kind : Kind.values()) {
                        String label = protocol + " " + type + ": read-only, " + kind + " " + when + " call " + k
                                + " of " + hook;
                        Env env = new Env(FaultyProtocol.store(protocol), type, label);
                        FaultyControl control = FaultyProtocol.control(env.stm);
                        Throwable injected = kind.create(label);
                        control.arm(hook, k, when, injected);
                        Throwable thrown = Failures.thrownBy(() -> env.stm.readOnly(env.target::read));
                        StmStatistics st = env.stm.statistics();
                        control.disarm();
                        assertTrue(control.fired(), label);
                        assertSame(injected, thrown, () -> label + ": got " + thrown);
                        assertEquals(1, st.starts(), () -> label + ": " + st);
                        assertEquals(1, st.commits() + st.aborts(), () -> label + ": " + st);
                        AbortCause expected = hook == Hook.READ ? AbortCause.USER_EXCEPTION
                                : hook == Hook.FINISH ? null : AbortCause.INTERNAL_FAILURE;
                        if (expected == null) {
                            assertEquals(1, st.commits(), () -> label + ": " + st);
                        } else {
                            assertEquals(1, st.aborts(expected), () -> label + ": " + st);
                        }
                        assertState(env, Expect.OLD);
                        assertAfterwards(env);
                        cases++;
                    }
                }
            }
        }
        assertTrue(cases > 0);
    }

    // ------------------------------------------------------------------ participant faults

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("participantCases")
    void aParticipantThatThrowsLeavesNothingHalfDone(String protocol, Phase phase, String type) {
        for (Kind kind : Kind.values()) {
            switch (phase) {
                case CHECK:
                    checkFault(protocol, type, kind);
                    break;
                case INSTALL: {
                    int ops = FaultTargets.create(type, plainStore(protocol, type)).ops();
                    for (int at = 0; at <= ops; at++) {
                        installFault(protocol, type, kind, at, ops);
                    }
                    break;
                }
                default:
                    cleanupFaultAfterCommit(protocol, type, kind);
                    break;
            }
        }
    }

    /** A commit-time updater that throws: a user exception, nothing installed, not retried. */
    private static void checkFault(String protocol, String type, Kind kind) {
        String label = protocol + " " + type + ": " + kind + " from a participant's check";
        Env env = new Env(plainStore(protocol, type), type, label);
        long word = Items.wordAcquire(env.participant.item());
        Throwable injected = kind.create(label);
        env.participant.arm(Phase.CHECK, injected);
        Throwable thrown = env.run();
        StmStatistics st = env.stm.statistics();
        env.participant.disarm();
        assertSame(injected, thrown, () -> label + ": got " + thrown);
        assertEquals(0, env.participant.installs(), label);
        assertState(env, Expect.OLD);
        assertEquals(word, Items.wordAcquire(env.participant.item()), () -> label + ": old word restored");
        assertEquals(st.starts(), st.commits() + st.aborts(), () -> label + ": " + st);
        assertEquals(1, st.aborts(AbortCause.USER_EXCEPTION), () -> label + ": " + st);
        assertAfterwards(env);
    }

    /** The participant's install fails, joined before operation {@code at} (at == ops: after every real write). */
    private static void installFault(String protocol, String type, Kind kind, int at, int ops) {
        String label = protocol + " " + type + ": " + kind + " from a participant's install placed before op " + at
                + " of " + ops;
        Env env = new Env(plainStore(protocol, type), type, label);
        long word = Items.wordAcquire(env.participant.item());
        Throwable injected = kind.create(label);
        env.participant.arm(Phase.INSTALL, injected);
        Throwable thrown = env.run(at);
        StmStatistics st = env.stm.statistics();
        env.participant.disarm();
        assertSame(injected, thrown, () -> label + ": got " + thrown);
        assertEquals(1, env.participant.installs(), label);
        assertState(env, at == 0 ? Expect.OLD : at == ops ? Expect.UNDONE_BUILT_IN : Expect.PARTIAL);
        assertNotEquals(word, Items.wordAcquire(env.participant.item()), () -> label + ": new version after an install failure");
        assertEquals(st.starts(), st.commits() + st.aborts(), () -> label + ": " + st);
        assertEquals(1, st.aborts(AbortCause.INTERNAL_FAILURE), () -> label + ": " + st);
        assertAfterwards(env);
    }

    /** The participant's cleanup throws after a commit: everything is visible, and the throwable still surfaces. */
    private static void cleanupFaultAfterCommit(String protocol, String type, Kind kind) {
        String label = protocol + " " + type + ": " + kind + " from a cleanup after the commit";
        Env env = new Env(plainStore(protocol, type), type, label);
        Throwable injected = kind.create(label);
        env.participant.arm(Phase.CLEANUP, injected);
        Throwable thrown = env.run();
        StmStatistics st = env.stm.statistics();
        env.participant.disarm();
        assertSame(injected, thrown, () -> label + ": got " + thrown);
        assertTrue(env.participant.cleanupCommitted(), label);
        assertState(env, Expect.NEW);
        assertEquals(1, st.starts(), () -> label + ": " + st);
        assertEquals(1, st.commits(), () -> label + ": " + st);
        assertAfterwards(env);
    }

    /** The participant's cleanup throws after an aborted attempt: not retried, nothing visible, the abort counted once. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("protocolsAndTypes")
    void aCleanupThatThrowsAfterAnAbortedAttemptLeavesNothingHalfDone(String protocol, String type) {
        for (Kind kind : Kind.values()) {
            String label = protocol + " " + type + ": " + kind + " from a cleanup after an aborted attempt";
            Env env = new Env(plainStore(protocol, type), type, label);
            long word = Items.wordAcquire(env.participant.item());
            Throwable injected = kind.create(label);
            env.participant.arm(Phase.CLEANUP, injected);
            env.participant.conflictOnce();
            Throwable thrown = env.run();
            StmStatistics st = env.stm.statistics();
            env.participant.disarm();
            assertSame(injected, thrown, () -> label + ": got " + thrown);
            assertFalse(env.participant.cleanupCommitted(), label);
            assertState(env, Expect.OLD);
            assertEquals(word, Items.wordAcquire(env.participant.item()), label);
            assertEquals(1, st.starts(), () -> label + ": " + st);
            assertEquals(1, st.aborts(), () -> label + ": " + st);
            assertEquals(1, st.aborts(AbortCause.READ_VALIDATION), () -> label + ": " + st);
            assertAfterwards(env);
        }
    }

    /**
     * A second failure while the attempt ends after a first one (a user exception from the body or
     * from a commit-time updater, an install that failed) must not replace it: the first throwable
     * reaches the caller, the later ones are suppressed into it, and every step still runs.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("protocolsAndTypes")
    void aFinishOrCleanupThatThrowsAfterAnotherFailureIsSuppressedIntoIt(String protocol, String type) {
        for (Kind kind : Kind.values()) {
            {
                String label = protocol + " " + type + ": " + kind + " from a cleanup after the body threw";
                Env env = new Env(plainStore(protocol, type), type, label);
                Throwable injected = kind.create(label);
                Boom boom = new Boom("the body throws");
                env.participant.arm(Phase.CLEANUP, injected);
                Throwable thrown = Failures.thrownBy(() -> env.stm.run(txn -> {
                    env.target.writeAll(txn);
                    env.participant.join(txn);
                    throw boom;
                }));
                StmStatistics st = env.stm.statistics();
                env.participant.disarm();
                assertSame(boom, thrown, () -> label + ": got " + thrown);
                assertArrayEquals(new Throwable[] {injected}, boom.getSuppressed(), label);
                assertEquals(1, st.starts(), () -> label + ": " + st);
                assertEquals(1, st.aborts(AbortCause.USER_EXCEPTION), () -> label + ": " + st);
                assertState(env, Expect.OLD);
                assertAfterwards(env);
            }
            {
                String label = protocol + " " + type + ": " + kind + " from a cleanup after a check threw";
                Env env = new Env(plainStore(protocol, type), type, label);
                Throwable injected = kind.create(label);
                Boom boom = new Boom("the check throws first");
                // A second participant throws from its check; the armed one throws from its cleanup.
                FaultyParticipant checker = new FaultyParticipant(env.stm);
                checker.arm(Phase.CHECK, boom);
                env.participant.arm(Phase.CLEANUP, injected);
                Throwable thrown = Failures.thrownBy(() -> env.stm.run(txn -> {
                    env.target.writeAll(txn);
                    env.participant.join(txn);
                    checker.join(txn);
                }));
                StmStatistics st = env.stm.statistics();
                env.participant.disarm();
                checker.disarm();
                assertSame(boom, thrown, () -> label + ": got " + thrown);
                assertArrayEquals(new Throwable[] {injected}, boom.getSuppressed(), label);
                assertEquals(1, st.starts(), () -> label + ": " + st);
                assertEquals(1, st.aborts(AbortCause.USER_EXCEPTION), () -> label + ": " + st);
                assertState(env, Expect.OLD);
                Quiescence.assertQuiescent(checker);
                assertAfterwards(env);
            }
            {
                String label = protocol + " " + type + ": " + kind + " from finish after an install failed";
                Env env = new Env(FaultyProtocol.store(protocol), type, label);
                FaultyControl control = FaultyProtocol.control(env.stm);
                Throwable first = new IllegalStateException("the participant's install fails first");
                Throwable injected = kind.create(label);
                env.participant.arm(Phase.INSTALL, first);
                control.arm(Hook.FINISH, 1, When.AFTER, injected);
                Throwable thrown = env.run();
                StmStatistics st = env.stm.statistics();
                env.participant.disarm();
                control.disarm();
                assertTrue(control.fired(), label);
                assertSame(first, thrown, () -> label + ": got " + thrown);
                assertArrayEquals(new Throwable[] {injected}, first.getSuppressed(), label);
                assertEquals(1, st.starts(), () -> label + ": " + st);
                assertEquals(1, st.aborts(AbortCause.INTERNAL_FAILURE), () -> label + ": " + st);
                assertState(env, Expect.UNDONE_BUILT_IN);
                assertAfterwards(env);
            }
        }
    }

    // ------------------------------------------------------------------ combined faults

    /**
     * Two failures in one commit: a commit-time updater throws, then the protocol's unlock throws
     * while the driver releases the locks. The updater's throwable reaches the caller with the
     * unlock's suppressed; the attempt counts as an internal failure; every lock is released.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.jato.protocols.suite.Protocols#all")
    void anUnlockThatThrowsWhileReleasingAfterAThrowingCheckIsSuppressedIntoIt(String protocol) {
        String label = protocol + ": check throws, then unlock throws";
        Env env = new Env(FaultyProtocol.store(protocol), "All", label);
        FaultyControl control = FaultyProtocol.control(env.stm);
        Boom boom = new Boom("updater");
        Throwable injected = Kind.RUNTIME.create(label);
        control.arm(Hook.UNLOCK, 1, When.AFTER, injected);
        env.participant.arm(Phase.CHECK, boom);
        Throwable thrown = env.run();
        control.disarm();
        env.participant.disarm();
        assertSame(boom, thrown, label);
        StmStatistics st = env.stm.statistics();
        if (control.fired()) {
            assertArrayEquals(new Throwable[] {injected}, boom.getSuppressed(), label);
            assertEquals(1, st.aborts(AbortCause.INTERNAL_FAILURE), st::toString);
        } else {
            assertEquals("global-lock", control.inner().name(),
                    "only a protocol that never locks items never unlocks them");
            assertEquals(1, st.aborts(AbortCause.USER_EXCEPTION), st::toString);
        }
        assertEquals(st.starts(), st.commits() + st.aborts(), st::toString);
        assertState(env, Expect.OLD);
        assertAfterwards(env);
    }

    // ------------------------------------------------------------------ the faulty protocol second

    static Stream<Arguments> behindCases() {
        return Protocols.pairsOrNone().flatMap(p -> Arrays.stream(Hook.values()).filter(h -> h != Hook.NON_TX_LOCK)
                .map(h -> Arguments.of(p, h)));
    }

    /**
     * A spanning transaction whose failing protocol is the store's second ({@link Site#behind}):
     * the store's dispatcher begins, asks for commit timestamps, prepares and finishes its
     * protocols in domain order, so when the faulty protocol throws from begin, commitTimestamp or
     * prepare the other one has already begun (global-lock: holds the store lock), proposed or
     * prepared, and must be finished all the same; a throwing finish comes after the other's; the
     * other's entries are locked, validated and installed before the faulty protocol's, so a
     * failing install leaves some of them installed. The first, middle and last call of every hook
     * (see the parameters' comment), on the spanning targets (with the faulty protocol first they
     * are covered by {@link #aProtocolThatThrowsAtAnyCallOfAHookLeavesNothingHalfDone} and its
     * siblings); begin, unlock, and finish a second time, around an attempt that aborts.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("behindCases")
    void aSecondProtocolThatThrowsInASpanningTransactionLeavesNothingHalfDone(String pair, Hook hook) {
        Protocols.assumeSome(pair, "pairs with another");
        Site site = Site.behind(pair);
        for (String type : FaultTargets.SPANNING_TYPES) {
            faultsAtEveryCall(site, hook, hook.whens(), type, hook == Hook.BEGIN || hook == Hook.UNLOCK);
            if (hook == Hook.FINISH) {
                faultsAtEveryCall(site, hook, hook.whens(), type, true);
            }
        }
    }

    /** The fault-injecting protocol is a test tool: it must not run in the suites, nor be built by name alone. */
    @Test
    void theFaultyProtocolIsExcludedFromTheSuitesAndNeedsAnInnerProtocol() {
        assertTrue(Stm.availableProtocols().contains(FaultyProtocol.NAME));
        assertFalse(Protocols.correct().contains(FaultyProtocol.NAME));
        assertFalse(Protocols.weaklyIsolated().contains(FaultyProtocol.NAME));
        assertThrows(IllegalStateException.class, () -> Stm.builder().protocol(FaultyProtocol.NAME).build());
        assertThrows(IllegalArgumentException.class, () -> FaultyProtocol.store("no-such-protocol"));
        for (String p : Protocols.correct()) {
            FaultyControl c = FaultyProtocol.control(FaultyProtocol.store(p));
            assertEquals(p, c.inner().name());
        }
        assertThrows(IllegalArgumentException.class, () -> FaultyProtocol.control(Stm.builder().build()));
    }

    /**
     * A pairing's faulty store: the faulty protocol first, around the pairing's first protocol, the
     * other as object protocol without rotation (the store's own objects are the faulty
     * protocol's); its fault-injecting instance found through the store and through each view.
     * With the faulty protocol behind the other, the same from the other side.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.jato.protocols.suite.Protocols#pairsOrNone")
    void aPairingsFaultyStoreWrapsItsFirstProtocolAndKeepsObjectsWhereTheyAreCreated(String pair) {
        Protocols.assumeSome(pair, "pairs with another");
        String[] names = pair.split(Pattern.quote(Protocols.PAIR_SEPARATOR));
        Stm stm = FaultyProtocol.store(pair);
        assertEquals(List.of(FaultyProtocol.NAME, names[1]), stm.protocols());
        FaultyControl c = FaultyProtocol.control(stm);
        assertEquals(names[0], c.inner().name());
        assertSame(c, FaultyProtocol.control(stm.withProtocol(names[1])));
        assertEquals(0, stm.protocolDomain(), "no rotation");
        assertEquals(0, stm.protocolDomain(), "no rotation (a rotating store answers 0, then 1)");
        assertEquals(1, stm.withProtocol(names[1]).protocolDomain());

        Stm behind = FaultyProtocol.storeAsObjectProtocol(names[1], names[0]);
        assertEquals(List.of(names[1], FaultyProtocol.NAME), behind.protocols());
        FaultyControl b = FaultyProtocol.control(behind);
        assertEquals(names[0], b.inner().name());
        assertNotSame(c, b);
        assertSame(b, FaultyProtocol.control(behind.withProtocol(FaultyProtocol.NAME)));
        assertEquals(1, behind.withProtocol(FaultyProtocol.NAME).protocolDomain());
    }

    // ------------------------------------------------------------------ assertions

    /** Checks what is visible, transactionally and through the non-transactional views, and quiescence. */
    private static void assertState(Env env, Expect expect) {
        assertQuiescent(env);
        Map<String, Object> committed = env.target.committed();
        Map<String, Object> read = env.stm.readOnly(env.target::read);
        assertEquals(committed, read, () -> env.label + ": a transaction and the non-transactional views disagree");
        Map<String, Object> old = env.initial;
        Map<String, Object> neu = env.target.after(old);
        Set<String> builtIn = env.target.builtIn();
        Supplier<String> msg = () -> env.label + ": expected " + expect + " of old " + old + " / new " + neu
                + " (built in: " + builtIn + "), committed " + committed;
        switch (expect) {
            case OLD:
                assertEquals(old, committed, msg);
                break;
            case NEW:
                assertEquals(neu, committed, msg);
                break;
            case UNDONE_BUILT_IN:
            case PARTIAL: {
                Set<String> components = new TreeSet<>(old.keySet());
                components.addAll(neu.keySet());
                components.addAll(committed.keySet());
                for (String c : components) {
                    Object now = committed.get(c);
                    if (builtIn.contains(c)) {
                        assertEquals(old.get(c), now, () -> "built-in install of " + c + " not undone; " + msg.get());
                    } else if (expect == Expect.UNDONE_BUILT_IN) {
                        assertEquals(neu.get(c), now, () -> "custom install of " + c + " lost; " + msg.get());
                    } else if (!java.util.Objects.equals(now, old.get(c)) && !java.util.Objects.equals(now, neu.get(c))) {
                        fail(c + " is neither old nor new; " + msg.get());
                    }
                }
                break;
            }
            default:
                throw new AssertionError(expect);
        }
    }

    private static void assertQuiescent(Env env) {
        java.util.List<String> problems = Quiescence.problems(env.target, env.participant);
        if (!problems.isEmpty()) {
            fail(env.label + ": not quiescent:\n  " + String.join("\n  ", problems));
        }
    }

    /**
     * The thread is usable and the objects work: a transaction over the same objects reads what
     * is committed, writes every target again (and the participant) and commits; the statistics
     * still add up and nothing stays locked.
     */
    private static void assertAfterwards(Env env) {
        assertFalse(env.stm.inTransaction(), env.label);
        Map<String, Object> before = env.target.committed();
        Map<String, Object> seen = env.stm.atomic(txn -> {
            Map<String, Object> m = env.target.read(txn);
            env.target.writeAll(txn);
            env.participant.join(txn);
            return m;
        });
        assertEquals(before, seen, () -> env.label + ": the next transaction read something else than is committed");
        assertEquals(env.target.after(before), env.target.committed(), () -> env.label + ": the next transaction's writes");
        assertQuiescent(env);
        StmStatistics st = env.stm.statistics();
        assertEquals(st.starts(), st.commits() + st.aborts(), () -> env.label + ": " + st);
    }
}
