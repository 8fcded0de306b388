package io.jato.workloads.tpcc;

import io.jato.records.TxRecord;

/** ITEM: read-only after loading; one group. Price in cents. The item id is the key. */
@TxRecord(name = "Item")
final class ItemSpec {
    int imageId;
    String name;
    long price;
    String data;

    private ItemSpec() {
    }
}
