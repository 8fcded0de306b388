package io.jato.protocols.maat;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The soft-lock slots of one store: which live transaction state holds each of the (at most 64)
 * bits of an item's {@link SoftLocks} word. A state gets the lowest free slot when its context is
 * made and gives it back when its thread dies; a state made while every slot is taken has none.
 *
 * <p>Slots are handed out and taken back under this object's monitor (rare: once per thread and
 * store). The slot-to-state array is written there with release stores and read by committing
 * writers with acquire loads, without the monitor. A bit left on an item by a dead state (whose
 * last attempt did not finish) only narrows the slot's next holder until that holder's own
 * finish clears it.
 */
final class SlotTable {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(MaatTxnState[].class);

    private final MaatTxnState[] bySlot = new MaatTxnState[SoftLocks.SLOTS];
    /** Slots not handed out; guarded by this. */
    private long free;

    /** @param slots how many slots to hand out, 0 to {@link SoftLocks#SLOTS} */
    SlotTable(int slots) {
        this.free = slots == SoftLocks.SLOTS ? -1L : (1L << slots) - 1;
    }

    /** @return a new state holding the lowest free slot, or no slot if none is free */
    synchronized MaatTxnState newState() {
        int slot = -1;
        if (free != 0) {
            slot = Long.numberOfTrailingZeros(free);
            free &= ~(1L << slot);
        }
        MaatTxnState s = new MaatTxnState(slot);
        if (slot >= 0) {
            SLOT.setRelease(bySlot, slot, s);
        }
        return s;
    }

    /** Takes back the slot of a state whose thread died. */
    synchronized void release(MaatTxnState s) {
        if (s.slot >= 0 && SLOT.getAcquire(bySlot, s.slot) == s) {
            SLOT.setRelease(bySlot, s.slot, null);
            free |= s.bit;
        }
    }

    /** @return the live state holding {@code slot}, or null */
    MaatTxnState holder(int slot) {
        return (MaatTxnState) SLOT.getAcquire(bySlot, slot);
    }

    /** @return the bits of {@code mask} whose slots a live state holds */
    long live(long mask) {
        long live = 0;
        for (long m = mask; m != 0; m &= m - 1) {
            if (SLOT.getAcquire(bySlot, Long.numberOfTrailingZeros(m)) != null) {
                live |= m & -m;
            }
        }
        return live;
    }
}
