/**
 * Fault injection for the failure-atomicity suites: a protocol that wraps a real one and throws at
 * a chosen call of a chosen commit hook ({@link io.jato.protocols.suite.faulty.FaultyProtocol},
 * registered by the test sources under the name {@code test-faulty}, which keeps it out of the
 * protocol list the other suites run over), and a transactional item whose participant throws
 * from its check, install or cleanup ({@link io.jato.protocols.suite.faulty.FaultyParticipant}).
 */
package io.jato.protocols.suite.faulty;
