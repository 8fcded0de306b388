package io.jato.jcstress;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;
import org.jctools.queues.atomic.MpmcAtomicArrayQueue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Proves the hand-over that pooled transaction contexts rely on: a virtual thread writes a
 * context's fields with plain stores (its counters, its access set), gives it back to the store's
 * pool (JCTools' {@code MpmcAtomicArrayQueue.offer}, as {@code StoreContexts} uses it), and the next virtual thread that takes it ({@code poll})
 * must see those writes, with no other synchronization. Here the context is a box with a plain
 * field: the producer writes 42 and offers the box; the consumer polls and reads the field.
 *
 * <p>Run: {@code java -jar jcstress-tests/target/jcstress.jar -t PoolHandOverTest}
 */
@JCStressTest
@Outcome(id = "-1", expect = ACCEPTABLE, desc = "The poll came before the offer: the pool was empty.")
@Outcome(id = "42", expect = ACCEPTABLE, desc = "The consumer took the box and saw the producer's write.")
@Outcome(expect = FORBIDDEN, desc = "The consumer took the box but not the write made before it was offered.")
@State
public class PoolHandOverTest {
    /** What a pooled context is to this test: an object with plain fields its holder writes. */
    static final class Box {
        int value;
    }

    private final MpmcAtomicArrayQueue<Box> pool = new MpmcAtomicArrayQueue<>(2);
    private final Box box = new Box();

    @Actor
    public void giveBack() {
        box.value = 42;
        pool.offer(box);
    }

    @Actor
    public void borrow(I_Result r) {
        Box b = pool.poll();
        r.r1 = b == null ? -1 : b.value;
    }
}
