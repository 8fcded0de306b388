package io.jato.records;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a transactional record type. The annotated class is a <em>specification</em>: its
 * instance fields are the record's columns, {@link Group} assigns them to version groups, and
 * Jato's annotation processor ({@code io.jato:jato-processor}) generates the implementation class
 * next to it, with one version per group, getters and setters taking the transaction, and
 * {@code update(txn, updater)} for commit-time updates.
 *
 * <p>Supported column types: the eight primitives, {@link String} and enum types (values must be
 * immutable, because the record versions the reference). Columns must be non-final, non-static
 * instance fields; at most 64 columns and 32 groups. A record's groups are disjoint: each column
 * belongs to exactly one, and a column without {@code @Group} belongs to the default group.
 *
 * <p>The specification class itself is never instantiated by Jato.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface TxRecord {
    /**
     * The simple name of the generated class, in the specification's package. Default: the
     * specification's name without a trailing {@code Spec}, or with {@code Record} appended when
     * it has no such suffix.
     */
    String name() default "";
}
