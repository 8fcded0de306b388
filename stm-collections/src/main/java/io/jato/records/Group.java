package io.jato.records;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts a column of a {@link TxRecord} into a named version group (timestamp splitting). Columns of
 * one group share a version: a transaction that reads only columns of group A never conflicts
 * with one that writes only columns of group B. Columns without this annotation belong to the
 * default group, named {@value #DEFAULT}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.FIELD)
public @interface Group {
    /** The name of the default group. */
    String DEFAULT = "default";

    /** The group's name: a Java identifier, unique within the record. */
    String value();
}
