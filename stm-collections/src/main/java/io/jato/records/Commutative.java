package io.jato.records;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a commit-time updater whose effect does not depend on the order in which it is applied
 * relative to other commutative updaters of the same group (an addition, a maximum). Protocols
 * may reorder or combine such updaters; Jato's single-version protocols apply every updater at
 * commit, under the group's lock, in commit order. {@code mvcc} keeps them as delta versions: it
 * applies an updater when its transaction commits and again, after the transaction ended, for
 * readers of older snapshots, so an updater object must not change once it was scheduled.
 *
 * <p>The annotated class must implement the generated record's {@code Updater} interface and, like
 * every updater, be plain data: its {@code apply} may read its own (final) parameters and the
 * record image it is given, nothing else, and must not throw. The annotation processor checks that
 * {@link #record()} is a {@link TxRecord} and that {@link #group()} is one of its groups.
 *
 * @see CommitUpdater for updaters that must apply in commit order
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Commutative {
    /** The record's specification class (the one annotated {@link TxRecord}). */
    Class<?> record();

    /** The single group whose columns the updater reads and writes. */
    String group() default Group.DEFAULT;
}
