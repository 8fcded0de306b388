package io.jato.jmh.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jato.jmh.charts.ChartDirective.BadDirective;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The directive grammar: every option read as written, and each kind of mistake refused with what is wrong. */
class ChartDirectiveTest {
    private static final String MINIMAL = " title=T out=t.png x=a y=b unit=u";

    @Test
    void theRequiredOptionsAndTheDefaults() throws Exception {
        ChartDirective d = ChartDirective.parse("bars" + MINIMAL, 7);

        assertEquals(7, d.line());
        assertEquals(ChartDirective.Kind.BARS, d.kind());
        assertEquals("T", d.title());
        assertEquals("t.png", d.out());
        assertEquals(List.of("a"), d.x());
        assertEquals(List.of("b"), d.y());
        assertEquals("u", d.unit());
        assertNull(d.series());
        assertEquals(List.of(), d.labels());
        assertEquals(List.of(), d.names());
        assertEquals(List.of(), d.rows());
        assertEquals(CellNumbers.Take.VALUE, d.take());
        assertFalse(d.skipMissing());
        assertTrue(Double.isNaN(d.ref()));
        assertNull(d.xTitle());
        assertFalse(d.log());
        assertFalse(d.transpose());
    }

    @Test
    void everyOptionAsWritten() throws Exception {
        ChartDirective d = ChartDirective.parse("""
                lines title="Throughput, 2 cores" out=a-1.png x=protocol,"interrupt flag" y="4/2 (rounds)",#5
                unit="txn/s" labels="occ, no",tictoc names=four,eight rows=1-3,5 take=median missing=skip
                ref=0.8 x-title="protocol, flag" log""", 3);

        assertEquals(ChartDirective.Kind.LINES, d.kind());
        assertEquals("Throughput, 2 cores", d.title());
        assertEquals("a-1.png", d.out());
        assertEquals(List.of("protocol", "interrupt flag"), d.x());
        assertEquals(List.of("4/2 (rounds)", "#5"), d.y());
        assertEquals(List.of("occ, no", "tictoc"), d.labels());
        assertEquals(List.of("four", "eight"), d.names());
        assertEquals(List.of(1, 2, 3, 5), d.rows());
        assertEquals(CellNumbers.Take.MEDIAN, d.take());
        assertTrue(d.skipMissing());
        assertEquals(0.8, d.ref());
        assertEquals("protocol, flag", d.xTitle());
        assertTrue(d.log());
        assertFalse(d.transpose());
    }

    @Test
    void seriesAndTranspose() throws Exception {
        assertEquals("protocol", ChartDirective.parse("bars" + MINIMAL + " series=protocol", 1).series());
        assertTrue(ChartDirective.parse("bars" + MINIMAL + " transpose", 1).transpose());
        assertRefused("bars" + MINIMAL + " series=p transpose", "series= and transpose do not go together");
        assertRefused("bars title=T out=t.png x=a y=b,c unit=u series=p", "with series=, y names one column (it has 2)");
    }

    @Test
    void theKindComesFirst() {
        assertRefused("", "no kind: a chart directive starts with 'bars' or 'lines'");
        assertRefused("pie" + MINIMAL, "'pie' is not a kind of chart: bars or lines");
        assertRefused(MINIMAL.strip(), "'title=T' is not a kind of chart");
    }

    @Test
    void optionsAreKnownGivenOnceAndTheRequiredOnesPresent() {
        assertRefused("bars" + MINIMAL + " colour=red", "no option 'colour' (options: title, out, x, y, unit, series");
        assertRefused("bars" + MINIMAL + " stacked", "'stacked' is neither an option (NAME=VALUE) nor a flag (log, transpose)");
        assertRefused("bars" + MINIMAL + " title=U", "'title' is given twice");
        assertRefused("bars" + MINIMAL + " log log", "'log' is given twice");
        assertRefused("bars title=T out=t.png x=a y=b", "'unit' is missing (required: title, out, x, y, unit)");
        assertRefused("bars out=t.png x=a y=b unit=u", "'title' is missing");
    }

    @Test
    void valuesAreQuotedWhole() {
        assertRefused("bars title=\"T out=t.png x=a y=b unit=u", "a '\"' is not closed");
        assertRefused("bars title=a\"b\" out=t.png x=a y=b unit=u", "title=a\"b\": a quote must enclose a whole value");
        assertRefused("bars title=\"a\"b out=t.png x=a y=b unit=u", "a quote must enclose a whole value");
        assertRefused("bars title=T out=t.png x=\"a\"b,c y=b unit=u", "x=\"a\"b,c: a quote must enclose a whole item");
        assertRefused("bars title=\"\" out=t.png x=a y=b unit=u", "title=\"\": an empty value");
        assertRefused("bars title=T out=t.png x=a,,b y=b unit=u", "x=a,,b: an empty item");
        assertRefused("bars title=T out=t.png x=a, y=b unit=u", "x=a,: an empty item after the last comma");
    }

    @Test
    void theFileNameIsSafe() {
        for (String out : new String[] {"T.png", "a b.png", "../x.png", "x.svg", "charts/x.png", "-x.png"}) {
            assertRefused("bars title=T out=\"" + out + "\" x=a y=b unit=u",
                    "a file name of lower-case letters, digits and '-', ending in .png");
        }
    }

    @Test
    void rowsTakeMissingAndRefAreChecked() {
        assertRefused("bars" + MINIMAL + " rows=0", "rows=0: '0' is not a range of rows from 1 up");
        assertRefused("bars" + MINIMAL + " rows=3-2", "'3-2' is not a range of rows from 1 up");
        assertRefused("bars" + MINIMAL + " rows=1,x", "'x' is not a row number or a range N-M");
        assertRefused("bars" + MINIMAL + " rows=1-3,2", "row 2 is named twice");
        assertRefused("bars" + MINIMAL + " take=max", "take=max: value, mean or median");
        assertRefused("bars" + MINIMAL + " missing=zero", "missing=zero: error (the default) or skip");
        assertRefused("bars" + MINIMAL + " ref=one", "ref=one: a number, such as 1 or 0.8");
        assertRefused("bars" + MINIMAL + " ref=NaN", "ref=NaN: a number");
    }

    private static void assertRefused(String body, String problem) {
        BadDirective e = assertThrows(BadDirective.class, () -> ChartDirective.parse(body, 1), body);
        assertTrue(e.getMessage().contains(problem), "says " + problem + ": " + e.getMessage());
    }
}
