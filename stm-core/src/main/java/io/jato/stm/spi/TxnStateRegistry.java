package io.jato.stm.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.RandomAccess;

/*
 * The registry of live transaction states ({@link ProtocolContext#txnStates()}) as slots that never
 * move. A state takes a vacant slot (the most recently vacated one, or the next never-used one) and
 * keeps it until it leaves; leaving nulls the slot. Readers load the number of slots ever used
 * (`limit`), then each slot, with volatile loads and no lock; writers serialize on the registry's
 * monitor and do O(1) work there (the identity map finds a state's slot).
 *
 * Why a reader's get(i) sees every state registered in slot i before the call: get loads the
 * array, then the slot, both volatile. A state registered earlier was stored (volatile) into the
 * array current then; if get loads a later array, that array is a copy made under the monitor
 * after the store, and published before any slot of it was written. A new slot's store also
 * precedes the release of `limit` past it, so size() never counts a slot before its first state.
 * What a reader may see extra: a state removed after get loaded an older array (the copy kept
 * it), which the contract allows, as the copy-on-write list before it did.
 *
 * It replaced a copy-on-write list whose every registration copied the whole list under the
 * store's lock: O(n) per new context, O(n^2) for n threads (issue 17 item 7).
 */

/** A store's registry of live transaction states: O(1) registration and removal, lock-free reads. */
final class TxnStateRegistry {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    /** The slots; replaced (by a larger copy) under the monitor, read by anyone. */
    private volatile Object[] slots = new Object[16];
    /** Slots ever used: [0, limit) may hold states. Raised under the monitor after the slot is written. */
    private volatile int limit;

    // Guarded by this.
    private final IdentityHashMap<Object, Integer> slotOf = new IdentityHashMap<>();
    private int[] vacant = new int[16];
    private int vacantCount;

    /** What {@link ProtocolContext#txnStates()} returns: a live view, one per registry. */
    final List<Object> view = new View();

    /** Registers {@code state} (not null, not registered) in a vacant slot. */
    synchronized void add(Object state) {
        int i;
        if (vacantCount > 0) {
            i = vacant[vacantCount - 1];
            slotOf.put(state, i);
            vacantCount--;
            SLOT.setVolatile(slots, i, state);
            return;
        }
        i = limit;
        Object[] s = slots;
        if (i == s.length) {
            // Publish the copy before any slot of it is written: a reader of either array sees
            // every state registered before its read.
            s = Arrays.copyOf(s, i * 2);
            slots = s;
        }
        slotOf.put(state, i);
        SLOT.setVolatile(s, i, state);
        limit = i + 1;
    }

    /** Removes {@code state}; returns false if it was not registered. */
    synchronized boolean remove(Object state) {
        Integer i = slotOf.remove(state);
        if (i == null) {
            return false;
        }
        if (vacantCount == vacant.length) {
            vacant = Arrays.copyOf(vacant, vacantCount * 2);
        }
        SLOT.setVolatile(slots, i.intValue(), null);
        vacant[vacantCount++] = i;
        return true;
    }

    /** The live view: {@code size()} is the slots ever used, {@code get(i)} a slot's state or null. */
    private final class View extends AbstractList<Object> implements RandomAccess {
        @Override
        public int size() {
            return limit;
        }

        @Override
        public Object get(int index) {
            Object[] s = slots;
            if (index < 0 || index >= s.length) {
                throw new IndexOutOfBoundsException("slot " + index + " of " + limit);
            }
            return SLOT.getVolatile(s, index);
        }
    }
}
