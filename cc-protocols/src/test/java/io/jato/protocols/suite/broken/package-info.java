/**
 * Deliberately broken protocols, registered by the test sources only (their names start with
 * {@code test-broken-}) to prove that the suites detect what they claim to detect.
 */
package io.jato.protocols.suite.broken;
