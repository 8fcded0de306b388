package io.jato.records;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a commit-time updater that is not commutative: updaters of the same group apply in
 * the order their transactions commit (and, within a transaction, in program order). Everything
 * else is as for {@link Commutative}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface CommitUpdater {
    /** The record's specification class (the one annotated {@link TxRecord}). */
    Class<?> record();

    /** The single group whose columns the updater reads and writes. */
    String group() default Group.DEFAULT;
}
