package sample.grouped;

import io.jato.records.Commutative;

/** Moves stock from on-hand to reserved at commit. */
@Commutative(record = Inventory.class, group = "stock")
final class Reserve implements InventoryRecord.Updater {
    private final int count;

    Reserve(int count) {
        this.count = count;
    }

    @Override
    public void apply(InventoryRecord.Image image) {
        image.setOnHand(image.onHand() - count).setReserved(image.reserved() + count);
    }
}
