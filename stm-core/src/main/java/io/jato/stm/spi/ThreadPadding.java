package io.jato.stm.spi;

/**
 * Leading padding for objects that one thread writes on every transaction (entries, the access
 * set, counters): 4 + 64 bytes before the subclass's own fields, so that no object of another
 * thread can sit in the same cache line as those fields. Such objects are allocated in their
 * thread's allocation buffer, but a garbage collection copies survivors of all threads side by
 * side; without padding, two threads' contexts then share lines and every write of one invalidates
 * the other's (false sharing that varies from run to run with where the copies land). The int
 * fills the gap after the object header, so the JVM cannot place a subclass field in it.
 */
abstract class ThreadPadding {
    int pad0;
    long pad1, pad2, pad3, pad4, pad5, pad6, pad7, pad8;
}
