package io.jato.jmh.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jato.jmh.charts.CellNumbers.CellValue;
import io.jato.jmh.charts.CellNumbers.NotANumber;
import io.jato.jmh.charts.CellNumbers.Take;
import org.junit.jupiter.api.Test;

/** The cell grammar: what each kind of cell the benchmark pages hold is read as, and what is refused. */
class CellNumbersTest {
    @Test
    void plainAndGroupedNumbers() throws Exception {
        assertValue("67,834", 67834, 0, "");
        assertValue("1,062,070", 1062070, 0, "");
        assertValue("0.006", 0.006, 0, "");
        assertValue("1894.2", 1894.2, 0, "");
        assertValue("+5.6", 5.6, 0, "");
        assertValue("-3", -3, 0, "");
        assertValue("−0.5", -0.5, 0, "");
    }

    @Test
    void multipliersAndUnits() throws Exception {
        assertValue("125K", 125_000, 0, "");
        assertValue("2.57M", 2_570_000, 0, "");
        assertValue("1.40 M", 1_400_000, 0, "");
        assertValue("0.95×", 0.95, 0, "×");
        assertValue("2x", 2, 0, "×");
        assertValue("12,086×", 12086, 0, "×");
        assertValue("12.6%", 12.6, 0, "%");
        assertValue("27.6 ns", 27.6, 0, "ns");
        assertValue("3 us", 3, 0, "µs");
        assertValue("40 B/op", 40, 0, "B/op");
        assertValue("125K txn/s", 125_000, 0, "txn/s");
    }

    @Test
    void anErrorIsTheErrorBarsHalfWidth() throws Exception {
        assertValue("1894.2 ± 782.5", 1894.2, 782.5, "");
        assertValue("1,057 ± 232", 1057, 232, "");
        assertValue("27.8 ± 0.6 ns", 27.8, 0.6, "ns");
    }

    @Test
    void aRangeIsItsMidpointWithABarToBothEnds() throws Exception {
        assertValue("0.91–1.04", 0.975, 0.065, "");
        assertValue("2951–4559", 3755, 804, "");
        assertValue("0.45–0.47%", 0.46, 0.01, "%");
        assertValue("2.15–2.96M", 2_555_000, 405_000, "");
        assertValue("1.40–1.83 M", 1_615_000, 215_000, "");
    }

    @Test
    void whatFollowsTheLeadingValueIsANote() throws Exception {
        assertValue("64,074 (63K, 69K, 60K, 65K)", 64074, 0, "");
        assertValue("0.83× (0.39–0.94)", 0.83, 0, "×");
        assertValue("26.8 ns (21.7–32.7), 1 version", 26.8, 0, "ns");
        assertValue("21.5%: read validation 19.0%", 21.5, 0, "%");
        assertValue("35.5 / 35.5", 35.5, 0, "");
        assertValue("8 threads", 8, 0, "");
    }

    @Test
    void aLeadingBoldSpanIsTheHeadlineAndBoldElsewhereIsEmphasis() throws Exception {
        assertValue("**238.3K** (237.2K, 306.7K, 238.3K)", 238_300, 0, "");
        assertValue("**9.0×**", 9.0, 0, "×");
        assertValue("`**41.1 ns**` (39.1–43.6)", 41.1, 0, "ns");
        assertValue("47.5 ns (35.3–82.1), **40 B/op**", 47.5, 0, "ns");
    }

    @Test
    void anArrowLeadsToTheValue() throws Exception {
        assertValue("1.03, 0.88, 1.06 → **1.03**", 1.03, 0, "");
        assertValue("12.6% → 12.4%", 12.4, 0, "%");
        assertEquals(0.94, CellNumbers.parse("1.00, 0.94, 0.89 → **0.94**", Take.MEAN).value(), 1e-12);
    }

    @Test
    void listsGiveTheirMeanOrMedian() throws Exception {
        assertList("0.25, 0.75", Take.MEAN, 0.5, "");
        assertList("3,389,268 (12.41%), 2,943,532 (13.33%)", Take.MEAN, 3_166_400, "");
        assertList("27.95 ± 1.85, 27.53 ± 0.88", Take.MEAN, 27.74, "");
        assertList("1 · 2 · 3", Take.MEAN, 2, "");
        assertList("1.12 0.96 1.06 0.90", Take.MEDIAN, 1.01, "");
        assertList("3.29/10.80/10.64%", Take.MEDIAN, 10.64, "%");
        assertList("1.67%, 13.64%, 12.93%", Take.MEDIAN, 12.93, "%");
        assertList("0.45% (rollbacks only)", Take.MEDIAN, 0.45, "%");
        assertList("17.4K, 100.2K, 79.1K", Take.MEDIAN, 79_100, "");
        assertList("2.06, 2.23", Take.MEDIAN, 2.145, "");
    }

    @Test
    void dashesAndNaAreMissing() throws Exception {
        for (String cell : new String[] {"", "—", "–", "-", "n/a", "`—`", "— (same as above: one item)"}) {
            assertNull(CellNumbers.parse(cell, Take.VALUE), cell);
            assertNull(CellNumbers.parse(cell, Take.MEAN), cell);
        }
    }

    @Test
    void aCellWithoutANumberIsRefusedAndNamed() {
        assertRefused("yes", Take.VALUE, "'yes' is not a number: 'yes' does not start with a number");
        assertRefused("≈ 0", Take.VALUE, "'≈ 0' is not a number: '≈ 0' does not start with a number");
        assertRefused("c4a7afb", Take.VALUE, "'c4a7afb' is not a number: 'c4a7afb' does not start with a number");
        assertRefused("— yes", Take.VALUE, "'— yes' does not start with a number");
    }

    @Test
    void malformedNumbersAreRefused() {
        assertRefused("8d0574e", Take.VALUE, "'8d0574e' is not a number with a known unit");
        assertRefused("1W×1T", Take.VALUE, "'1W×1T' is not a number with a known unit");
        assertRefused("12.5kg", Take.VALUE, "is not a number with a known unit");
        assertRefused("1,2345", Take.VALUE, "digits after a comma come in threes");
        assertRefused("1.03,0.88", Take.MEAN, "digits after a comma come in threes");
        assertRefused("16-op", Take.VALUE, "'-op' follows its number without a space");
        assertRefused("5 ±", Take.VALUE, "it ends where a number should follow");
        assertRefused("5 ± -1", Take.VALUE, "its error is negative");
        assertRefused("5 ns ± 1%", Take.VALUE, "its error is in '%', its value in 'ns'");
        assertRefused("4–2", Take.VALUE, "its range runs from high to low");
        assertRefused("1 ns–2%", Take.VALUE, "its range runs from 'ns' to '%'");
        assertRefused("**1.5 and 2**", Take.VALUE, "its bold part '1.5 and 2' is more than one value");
    }

    @Test
    void aListMustBeAListOfValues() {
        assertRefused("0.45% ×4 / 0.45% ×4", Take.MEAN, "'×4 / 0.45% ×4' does not start with a number");
        assertRefused("1% and 2%", Take.MEDIAN, "'and 2%' does not start with a number");
        assertRefused("1, 2 (three", Take.MEAN, "a '(' is not closed");
        assertRefused("1%, 2 ns", Take.MEAN, "'1%, 2 ns' mixes units '%' and 'ns'");
        assertRefused("1(2)3", Take.MEAN, "'3' follows a value of the list without a separator");
    }

    private static void assertValue(String cell, double value, double error, String unit) throws NotANumber {
        CellValue v = CellNumbers.parse(cell, Take.VALUE);
        assertEquals(value, v.value(), 1e-9 * Math.max(1, Math.abs(value)), cell);
        assertEquals(error, v.error(), 1e-9 * Math.max(1, Math.abs(value)), cell);
        assertEquals(unit, v.unit(), cell);
    }

    /** A list's value has no error bar. */
    private static void assertList(String cell, Take take, double value, String unit) throws NotANumber {
        CellValue v = CellNumbers.parse(cell, take);
        assertEquals(value, v.value(), 1e-9 * Math.max(1, Math.abs(value)), cell);
        assertEquals(0, v.error(), cell);
        assertEquals(unit, v.unit(), cell);
    }

    private static void assertRefused(String cell, Take take, String problem) {
        NotANumber e = assertThrows(NotANumber.class, () -> CellNumbers.parse(cell, take), cell);
        assertTrue(e.getMessage().contains(problem), "says " + problem + ": " + e.getMessage());
    }
}
