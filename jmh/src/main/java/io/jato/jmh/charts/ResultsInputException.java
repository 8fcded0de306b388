package io.jato.jmh.charts;

import java.nio.file.Path;

/**
 * An input that a chart tool ({@link ScalingCharts} and the others of this package) cannot use: a
 * missing or unreadable file, a file that is not what the tool reads (a JMH JSON result array), an
 * entry without the fields a chart needs, inputs that contradict each other, or no inputs at all.
 * The message always names the file (where there is one) and the problem, so that it can be shown
 * to the user as it is. Thrown before anything is written.
 */
public final class ResultsInputException extends Exception {
    private static final long serialVersionUID = 1L;

    ResultsInputException(String message) {
        super(message);
    }

    ResultsInputException(Path file, String problem) {
        super(file + ": " + problem);
    }

    ResultsInputException(Path file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
    }
}
