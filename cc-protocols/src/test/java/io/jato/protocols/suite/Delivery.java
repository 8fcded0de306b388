package io.jato.protocols.suite;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Checks of what the queue suites' consumers received. */
final class Delivery {
    private Delivery() {
    }

    /** Fails unless {@code received} holds each of {@code 0 .. total-1} exactly once. */
    static void assertEachOnce(Collection<Integer> received, int total) {
        List<Integer> sorted = new ArrayList<>(received);
        sorted.sort(null);
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            expected.add(i);
        }
        assertEquals(expected, sorted, "each element delivered exactly once");
    }
}
