package io.jato.jmh.charts;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * How numbers are written in the summary and on the charts' axes, the same in both so that a value
 * read off a chart can be found in the table. Locale-independent (grouping with commas, a dot for
 * decimals) so that the output does not change with the machine that renders it.
 */
final class Formats {
    private Formats() {
    }

    /**
     * A score or counter, rounded: whole numbers with grouping from 100 up ({@code 12,345}), three
     * significant digits below ({@code 12.3}, {@code 0.0456}), where rounding to a whole number
     * would lose the value; {@code n/a} for NaN.
     */
    static String number(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        if (Double.isInfinite(value) || Math.abs(value) >= 100) {
            return Double.isInfinite(value) ? (value > 0 ? "∞" : "-∞")
                    : String.format(Locale.ROOT, "%,d", Math.round(value));
        }
        return new BigDecimal(value).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** A percentage with one decimal ({@code 3.2%}); {@code n/a} for NaN. */
    static String percent(double percent) {
        return Double.isNaN(percent) ? "n/a" : String.format(Locale.ROOT, "%.1f%%", percent);
    }

    /** "1 thread", "8 threads". */
    static String threads(int threads) {
        return threads + (threads == 1 ? " thread" : " threads");
    }
}
