package sample.types;

import io.jato.records.RecordLayout;
import io.jato.stm.Stm;

import java.util.Objects;

/** Run by GeneratedRecordTest: every column round-trips, updaters apply, in both layouts. */
public final class AllTypesCheck implements Runnable {
    @Override
    public void run() {
        for (RecordLayout layout : RecordLayout.values()) {
            check(layout);
        }
    }

    private static void check(RecordLayout layout) {
        Stm stm = Stm.create();
        AllTypes r = AllTypes.create(stm, layout, new AllTypes.Image().setValue("v").setL(1));
        expect(stm.readOnly(txn -> r.value(txn) + r.l(txn)), "v1", "initial image");
        stm.run(txn -> {
            r.setFlag(txn, true);
            r.setB(txn, (byte) 2);
            r.setS(txn, (short) 3);
            r.setCh(txn, 'x');
            r.setC(txn, 4);
            r.setF(txn, 5.5f);
            r.setD(txn, 6.25);
            r.setColor(txn, AllTypesSpec.Color.GREEN);
            r.setLevel(txn, Level.HIGH);
            r.setExplicitlyDefault(txn, 7);
        });
        stm.run(txn -> {
            r.update(txn, new AddToLong(10));
            r.update(txn, AppendBang.INSTANCE);
            r.update(txn, new Recolor(AllTypesSpec.Color.RED));
        });
        // Read after update in one transaction: the getter sees the updated value.
        long seen = stm.atomic(txn -> {
            r.update(txn, new AddToLong(100));
            return r.l(txn);
        });
        expect(seen, 111L, "l read after its update");
        AllTypes.Image im = r.single().get();
        expect(im.flag(), true, "flag");
        expect(im.b(), (byte) 2, "b");
        expect(im.s(), (short) 3, "s");
        expect(im.ch(), 'x', "ch");
        expect(im.c(), 4, "c");
        expect(im.l(), 111L, "l");
        expect(im.f(), 5.5f, "f");
        expect(im.d(), 6.25, "d");
        expect(im.value(), "v!", "value");
        expect(im.color(), AllTypesSpec.Color.RED, "color");
        expect(im.level(), Level.HIGH, "level");
        expect(im.explicitlyDefault(), 8, "explicitlyDefault");
        expect(AllTypes.GROUP_DEFAULT, 0, "default group index");
        expect(AllTypes.GROUP_FLOATING_POINT, 3, "floatingPoint group index");
        r.single().update(new AddToLong(-11));
        expect(stm.readOnly(txn -> r.l(txn)), 100L, "single().update");
        expect(r.checkQuiescent(), null, "quiescent");
    }

    private static void expect(Object actual, Object expected, String what) {
        if (!Objects.equals(actual, expected)) {
            throw new AssertionError(what + ": expected " + expected + " but was " + actual);
        }
    }
}
