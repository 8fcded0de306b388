package sample.grouped;

import io.jato.stm.Stm;

/** Run by GeneratedRecordTest: updaters of one group leave the others alone. */
public final class InventoryCheck implements Runnable {
    @Override
    public void run() {
        Stm stm = Stm.create();
        InventoryRecord r = InventoryRecord.create(stm);
        r.single().set(new InventoryRecord.Image().setOnHand(10).setSku("A-1").setCents(250));
        stm.run(txn -> r.update(txn, new Reserve(3)));
        InventoryRecord.Image im = r.single().get();
        if (im.onHand() != 7 || im.reserved() != 3 || !"A-1".equals(im.sku()) || im.cents() != 250) {
            throw new AssertionError(im.toString());
        }
        if (InventoryRecord.GROUP_STOCK != 0 || InventoryRecord.GROUP_META != 1 || InventoryRecord.GROUP_PRICE != 2) {
            throw new AssertionError("group order");
        }
    }
}
