package io.jato.workloads;

import java.util.Objects;

/**
 * The outcome of a workload's consistency check after a run.
 *
 * @param passed  true if every invariant held
 * @param summary one line: what was checked and, on failure, the first violation found
 */
public record CheckResult(boolean passed, String summary) {
    public CheckResult {
        Objects.requireNonNull(summary, "summary");
    }

    public static CheckResult ok(String summary) {
        return new CheckResult(true, summary);
    }

    public static CheckResult failed(String summary) {
        return new CheckResult(false, summary);
    }
}
