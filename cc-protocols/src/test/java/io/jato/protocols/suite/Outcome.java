package io.jato.protocols.suite;

import java.util.List;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * What one run of an anomaly scenario observed. The scenarios are static methods that return one,
 * so that the same logic both checks the correct protocols (expecting no anomaly) and proves that
 * it catches the deliberately broken one (expecting an anomaly).
 *
 * @param scenario         what ran, for messages
 * @param anomaly          null if the outcome is one some serial order produces, else what is wrong
 * @param followedSchedule true if the interleaving ran as written (false when the protocol blocked it)
 * @param notQuiescent     problems reported by {@code checkQuiescent()} of the objects used
 */
public record Outcome(String scenario, String anomaly, boolean followedSchedule, List<String> notQuiescent) {

    /** Fails unless the outcome is serializable and nothing is left locked. */
    public void assertCorrect() {
        if (anomaly != null) {
            fail(scenario + ": " + anomaly + (followedSchedule ? " (the interleaving ran as scheduled)"
                    : " (the protocol did not let the scheduled interleaving happen)"));
        }
        if (!notQuiescent.isEmpty()) {
            fail(scenario + ": not quiescent afterwards:\n  " + String.join("\n  ", notQuiescent));
        }
    }
}
