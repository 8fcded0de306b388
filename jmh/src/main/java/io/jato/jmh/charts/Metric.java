package io.jato.jmh.charts;

/**
 * One secondary metric of a JMH result (an {@code @AuxCounters} field such as {@code commits} or
 * {@code abortReadValidation}): its score and the unit JMH gave it.
 */
record Metric(double score, String unit) {
}
