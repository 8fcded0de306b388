package io.jato.protocols.mvcc;

import io.jato.stm.spi.Items;
import io.jato.stm.spi.TxItem;

/**
 * The versions one thread's commits pushed onto chains, and the delta groups it closed, oldest
 * first (a ring), so that the thread
 * can cut each one once the horizon passes its end. A writer trims a chain only when it pushes onto
 * it; an item written once and never again (an inserted row's "absent before", the old columns of a
 * row updated once) would otherwise keep its old version for the rest of the run: in TPC-C that was
 * most of 8.6 M live versions. Once no snapshot or tracked attempt reads below the version's end,
 * no reader can need it or anything older, so the chain can go whole: a CAS of the item's chain
 * head from the version to null, which fails harmlessly if a later writer pushed on top of it (that
 * writer's own trim then cuts it).
 *
 * <p>Owner thread only: {@link #add} runs in its publish, {@link #cutUpTo} in its finish.
 * {@link #reserve} grows the ring before a commit's install phase so that {@link #add} never
 * allocates.
 */
final class PushedVersions {
    private TxItem[] items = new TxItem[64];
    private Version[] versions = new Version[64];
    /** Index of the oldest version noted. */
    private int first;
    private int size;

    /** Makes room for {@code more} versions (allocates; call before the install phase). */
    void reserve(int more) {
        int need = size + more;
        if (need > items.length) {
            int n = Math.max(need, items.length * 2);
            TxItem[] is = new TxItem[n];
            Version[] vs = new Version[n];
            for (int i = 0; i < size; i++) {
                int at = (first + i) % items.length;
                is[i] = items[at];
                vs[i] = versions[at];
            }
            items = is;
            versions = vs;
            first = 0;
        }
    }

    /**
     * Notes that {@code v}, whose end is now its commit's timestamp, heads {@code item}'s chain.
     * Room was reserved; should it not have been, the version is simply not noted (a later writer
     * of the item trims it, as before), rather than allocate inside a publish.
     */
    void add(TxItem item, Version v) {
        if (size == items.length) {
            return;
        }
        int at = (first + size) % items.length;
        items[at] = item;
        versions[at] = v;
        size++;
    }

    int size() {
        return size;
    }

    /**
     * Cuts, oldest first, every noted version whose end is at or below {@code horizon}, with the
     * rest of its chain, if it still heads its item's chain. Ends grow along the ring (the thread
     * commits in timestamp order) except after a closed delta group, whose end is its newest
     * member's timestamp, perhaps another thread's and above the closer's next commits; the first
     * one above the horizon stops the walk, which at worst keeps those behind it until the horizon
     * passes it too.
     *
     * @return how many left the ring
     */
    int cutUpTo(long horizon) {
        int done = 0;
        while (size != 0) {
            Version v = versions[first];
            if (v.end() > horizon) {
                break;
            }
            Items.casExt(items[first], v, null);
            items[first] = null;
            versions[first] = null;
            first = (first + 1) % items.length;
            size--;
            done++;
        }
        return done;
    }

    @Override
    public String toString() {
        return size + " pushed versions";
    }
}
