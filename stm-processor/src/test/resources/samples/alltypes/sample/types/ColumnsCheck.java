package sample.types;

import io.jato.records.ColumnInput;
import io.jato.records.ColumnOutput;
import io.jato.records.RecordLayout;
import io.jato.stm.Stm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Run by ColumnValuesTest: AllTypes' columns go out through writeColumns and come back through
 * readColumns, for all groups and for some. It lives in the record's package because the two
 * methods are protected.
 */
public final class ColumnsCheck implements Runnable {
    private static final int NUMBERS_AND_FLOATING = (1 << AllTypes.GROUP_NUMBERS)
            | (1 << AllTypes.GROUP_FLOATING_POINT);

    @Override
    public void run() {
        Stm stm = Stm.create();
        for (RecordLayout layout : RecordLayout.values()) {
            allGroups(stm, layout, edges(), "edge values");
            allGroups(stm, layout, ordinary(), "ordinary values");
        }
        someGroups(stm);
        noGroup(stm);
    }

    /**
     * Edge values, distinct within each type (two int columns, two enum columns), with both nulls:
     * if the reader took two columns in another order than the writer, a column would differ.
     */
    private static AllTypes.Image edges() {
        return new AllTypes.Image().setFlag(true).setColor(AllTypesSpec.Color.GREEN)
                .setExplicitlyDefault(Integer.MAX_VALUE)
                .setB(Byte.MIN_VALUE).setS(Short.MIN_VALUE).setC(Integer.MIN_VALUE).setL(Long.MIN_VALUE)
                .setCh('\uffff').setValue(null).setLevel(null)
                .setF(Float.NaN).setD(-0.0);
    }

    /** Other values for every column: no nulls, the other enum constants. */
    private static AllTypes.Image ordinary() {
        return new AllTypes.Image().setFlag(false).setColor(null).setExplicitlyDefault(-7)
                .setB((byte) 1).setS((short) 2).setC(3).setL(Long.MAX_VALUE)
                .setCh('\0').setValue("").setLevel(Level.HIGH)
                .setF(-Float.MAX_VALUE).setD(Double.MIN_VALUE);
    }

    /** A record holding {@code columns}, written and read back with every group in the mask. */
    private static void allGroups(Stm stm, RecordLayout layout, AllTypes.Image columns, String what) {
        AllTypes r = AllTypes.create(stm, layout, columns);
        AllTypes.Image snapshot = r.single().get();
        ValueLog log = new ValueLog();
        r.writeColumns(snapshot, -1, log);
        // The documented order: groups by index (default, numbers, text, floatingPoint), then
        // declaration order within each group.
        expect(log.values, Arrays.<Object>asList(
                columns.flag(), name(columns.color()), columns.explicitlyDefault(),
                columns.b(), columns.s(), columns.c(), columns.l(),
                columns.ch(), columns.value(), name(columns.level()),
                columns.f(), columns.d()), what + ", " + layout + ": values written");

        AllTypes.Image back = new AllTypes.Image();
        AllTypes.create(stm).readColumns(log, -1, back);
        log.expectAllRead(what);
        expectSame(back, snapshot, what + ", " + layout);
    }

    /** Two groups of four: only their six columns are written and read, the others are untouched. */
    private static void someGroups(Stm stm) {
        AllTypes r = AllTypes.create(stm, RecordLayout.SPLIT, edges());
        ValueLog log = new ValueLog();
        r.writeColumns(r.single().get(), NUMBERS_AND_FLOATING, log);
        expect(log.values.size(), 6, "values written for groups numbers and floatingPoint");

        AllTypes.Image back = ordinary();
        AllTypes.create(stm).readColumns(log, NUMBERS_AND_FLOATING, back);
        log.expectAllRead("two groups");
        AllTypes.Image expected = ordinary().setB(Byte.MIN_VALUE).setS(Short.MIN_VALUE).setC(Integer.MIN_VALUE)
                .setL(Long.MIN_VALUE).setF(Float.NaN).setD(-0.0);
        expectSame(back, expected, "two groups read over ordinary values");
    }

    /** An empty mask writes and reads nothing. */
    private static void noGroup(Stm stm) {
        AllTypes r = AllTypes.create(stm, RecordLayout.SPLIT, edges());
        ValueLog log = new ValueLog();
        r.writeColumns(r.single().get(), 0, log);
        expect(log.values.size(), 0, "values written for no group");
        AllTypes.Image back = ordinary();
        r.readColumns(log, 0, back);
        expectSame(back, ordinary(), "no group read");
    }

    /** Compares every column; boxing makes NaN equal to NaN and tells -0.0 from 0.0. */
    private static void expectSame(AllTypes.Image actual, AllTypes.Image expected, String what) {
        expect(actual.flag(), expected.flag(), what + ": flag");
        expect(actual.b(), expected.b(), what + ": b");
        expect(actual.s(), expected.s(), what + ": s");
        expect(actual.ch(), expected.ch(), what + ": ch");
        expect(actual.c(), expected.c(), what + ": c");
        expect(actual.l(), expected.l(), what + ": l");
        expect(actual.f(), expected.f(), what + ": f");
        expect(actual.d(), expected.d(), what + ": d");
        expect(actual.value(), expected.value(), what + ": value");
        expect(actual.color(), expected.color(), what + ": color");
        expect(actual.level(), expected.level(), what + ": level");
        expect(actual.explicitlyDefault(), expected.explicitlyDefault(), what + ": explicitlyDefault");
    }

    private static String name(Enum<?> e) {
        return e == null ? null : e.name();
    }

    private static void expect(Object actual, Object expected, String what) {
        if (!Objects.equals(actual, expected)) {
            throw new AssertionError(what + ": expected " + expected + " but was " + actual);
        }
    }

    /**
     * Column values in a list, each with the kind of call that wrote it; reading checks the kind,
     * so a read of another type than was written at that position fails at once. Enums are kept
     * by name, as the interfaces ask.
     */
    private static final class ValueLog implements ColumnOutput, ColumnInput {
        final List<Object> values = new ArrayList<>();
        private final List<String> kinds = new ArrayList<>();
        private int next;

        private void put(String kind, Object v) {
            kinds.add(kind);
            values.add(v);
        }

        private Object take(String kind) {
            if (next == values.size()) {
                throw new AssertionError("read " + kind + " after the last of " + values.size() + " values");
            }
            if (!kinds.get(next).equals(kind)) {
                throw new AssertionError("value " + next + " was written as " + kinds.get(next) + ", read as " + kind);
            }
            return values.get(next++);
        }

        void expectAllRead(String what) {
            expect(next, values.size(), what + ": values read");
        }

        @Override
        public void writeBoolean(boolean v) {
            put("boolean", v);
        }

        @Override
        public void writeByte(byte v) {
            put("byte", v);
        }

        @Override
        public void writeShort(short v) {
            put("short", v);
        }

        @Override
        public void writeChar(char v) {
            put("char", v);
        }

        @Override
        public void writeInt(int v) {
            put("int", v);
        }

        @Override
        public void writeLong(long v) {
            put("long", v);
        }

        @Override
        public void writeFloat(float v) {
            put("float", v);
        }

        @Override
        public void writeDouble(double v) {
            put("double", v);
        }

        @Override
        public void writeString(String v) {
            put("String", v);
        }

        @Override
        public void writeEnum(Enum<?> v) {
            put("enum", name(v));
        }

        @Override
        public boolean readBoolean() {
            return (Boolean) take("boolean");
        }

        @Override
        public byte readByte() {
            return (Byte) take("byte");
        }

        @Override
        public short readShort() {
            return (Short) take("short");
        }

        @Override
        public char readChar() {
            return (Character) take("char");
        }

        @Override
        public int readInt() {
            return (Integer) take("int");
        }

        @Override
        public long readLong() {
            return (Long) take("long");
        }

        @Override
        public float readFloat() {
            return (Float) take("float");
        }

        @Override
        public double readDouble() {
            return (Double) take("double");
        }

        @Override
        public String readString() {
            return (String) take("String");
        }

        @Override
        public <E extends Enum<E>> E readEnum(Class<E> type) {
            String name = (String) take("enum");
            return name == null ? null : Enum.valueOf(type, name);
        }
    }
}
