package io.jato.protocols.suite;

import io.jato.collections.TxCounter;
import io.jato.collections.TxDeque;
import io.jato.collections.TxHashMap;
import io.jato.collections.TxHashSet;
import io.jato.collections.TxLongArray;
import io.jato.collections.TxLongHashMap;
import io.jato.collections.TxLongHashSet;
import io.jato.collections.TxQueue;
import io.jato.collections.TxRefArray;
import io.jato.collections.TxLong;
import io.jato.collections.TxLongSortedMap;
import io.jato.collections.TxRef;
import io.jato.collections.TxSortedMap;
import io.jato.records.AbstractRecord;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The check run after every test that used transactional objects: no lock may be left held and
 * every version word must be sane ({@code checkQuiescent()} returns null). Call it only once every
 * thread that ran transactions has finished.
 */
public final class Quiescence {
    private Quiescence() {
    }

    /** @return what is wrong with each object that is not quiescent (empty if all are) */
    public static List<String> problems(Object... objects) {
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < objects.length; i++) {
            Object o = objects[i];
            String p;
            if (o instanceof TxRef) {
                p = ((TxRef<?>) o).checkQuiescent();
            } else if (o instanceof TxLong) {
                p = ((TxLong) o).checkQuiescent();
            } else if (o instanceof TxCounter) {
                p = ((TxCounter) o).checkQuiescent();
            } else if (o instanceof TxHashMap) {
                p = ((TxHashMap<?, ?>) o).checkQuiescent();
            } else if (o instanceof TxLongHashMap) {
                p = ((TxLongHashMap<?>) o).checkQuiescent();
            } else if (o instanceof TxHashSet) {
                p = ((TxHashSet<?>) o).checkQuiescent();
            } else if (o instanceof TxLongHashSet) {
                p = ((TxLongHashSet) o).checkQuiescent();
            } else if (o instanceof TxLongArray) {
                p = ((TxLongArray) o).checkQuiescent();
            } else if (o instanceof TxRefArray) {
                p = ((TxRefArray<?>) o).checkQuiescent();
            } else if (o instanceof TxDeque) {
                p = ((TxDeque<?>) o).checkQuiescent();
            } else if (o instanceof TxQueue) {
                p = ((TxQueue<?>) o).checkQuiescent();
            } else if (o instanceof TxSortedMap) {
                p = ((TxSortedMap<?, ?>) o).checkQuiescent();
            } else if (o instanceof TxLongSortedMap) {
                p = ((TxLongSortedMap<?>) o).checkQuiescent();
            } else if (o instanceof AbstractRecord) {
                p = ((AbstractRecord) o).checkQuiescent();
            } else if (o instanceof Quiescent) {
                p = ((Quiescent) o).checkQuiescent();
            } else {
                throw new IllegalArgumentException("not a transactional object: " + o);
            }
            if (p != null) {
                problems.add("object #" + i + " (" + o.getClass().getSimpleName() + "): " + p);
            }
        }
        return problems;
    }

    /** Fails, listing every problem, unless all {@code objects} are quiescent. */
    public static void assertQuiescent(Object... objects) {
        List<String> problems = problems(objects);
        if (!problems.isEmpty()) {
            fail("not quiescent after the test:\n  " + String.join("\n  ", problems));
        }
    }

    /** A test-side wrapper around one or more transactional objects that can check them itself. */
    public interface Quiescent {
        /** @return null if every wrapped object is quiescent, else what is wrong */
        String checkQuiescent();
    }
}
