package sample.grouped;

import io.jato.records.Group;
import io.jato.records.TxRecord;

/** Every column grouped, so there is no default group; no "Spec" suffix, so the record is InventoryRecord. */
@TxRecord
class Inventory {
    @Group("stock")
    int onHand;
    @Group("meta")
    String sku;
    @Group("stock")
    int reserved;
    @Group("price")
    long cents;
}
