/**
 * A binding for YCSB's own client ({@code site.ycsb:core} 0.17.0): {@link io.jato.ycsb.JatoYcsbDb}
 * is the {@code -db} class, a Jato store in the client's JVM; {@link io.jato.ycsb.JatoWorkload} is
 * YCSB's core workload that loads the records before the clock starts and can run several
 * operations per transaction. docs/ycsb-client.md has the commands and every property.
 *
 * <p>The module is a tool run from its shaded jar ({@code ycsb-binding/target/jato-ycsb.jar}) on the
 * class path; it has no {@code module-info}, is not published, and promises no API beyond the two
 * classes YCSB's client instantiates by name.
 */
package io.jato.ycsb;
