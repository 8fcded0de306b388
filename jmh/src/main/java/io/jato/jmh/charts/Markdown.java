package io.jato.jmh.charts;

/**
 * Text for the chart tools' {@code summary.md}, escaped so that a value from an input file (a
 * param, a JVM flag, a file name) cannot break the table or the code span it stands in.
 */
final class Markdown {
    private Markdown() {
    }

    /** Text for a table cell: a '|' would end the cell, so it is escaped (in code spans too, as GFM reads them). */
    static String cell(String text) {
        return text.isEmpty() ? "–" : text.replace("|", "\\|");
    }

    /** Text as inline code; the backtick fence is made longer than any run of backticks inside. */
    static String code(String text) {
        String fence = "`";
        while (text.contains(fence)) {
            fence += "`";
        }
        return text.startsWith("`") || text.endsWith("`") ? fence + " " + text + " " + fence : fence + text + fence;
    }
}
