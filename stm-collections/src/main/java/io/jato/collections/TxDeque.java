package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxnContext;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/*
 * Design. A doubly linked list between two sentinels, every link a transactional item: a node's
 * own item holds its successor, its prev item its predecessor. The head sentinel's successor is
 * the first element, the tail sentinel's predecessor the last. An operation at one end reads the
 * sentinel's link there and the neighbour it needs, and writes the links it changes; operations at
 * opposite ends meet only when the deque has at most one element. A new node is created with both
 * links set, so an offer reads one link and writes two.
 */

/**
 * A transactional unbounded double-ended queue: offer, poll, peek and a blocking take at either
 * end. Transactions working at different ends of a deque of two or more elements do not conflict;
 * those at the same end do. {@code poll} returns null when the deque is empty as of the
 * transaction (validated at commit); {@code take} waits through {@link Txn#retry()}. Elements must
 * not be null. An offer allocates a node (two items). Use {@link TxQueue} for a FIFO queue: its
 * offers and polls touch fewer items.
 *
 * @param <E> element type
 */
public final class TxDeque<E> {
    private final Stm stm;
    private final int domain;
    private final Node head;
    private final Node tail;
    private final Single<E> single = new Single<>(this);

    /** A list node: its item holds the next node, {@link #prev} the previous one. */
    private static final class Node extends RefItem {
        final Object element;
        final RefItem prev;

        Node(Object element, Node next, Node prev, int domain) {
            super(next, domain);
            this.element = element;
            this.prev = new RefItem(prev, domain);
        }
    }

    /** Creates an empty deque in {@code stm}. */
    public TxDeque(Stm stm) {
        this.stm = Objects.requireNonNull(stm, "stm");
        this.domain = stm.protocolDomain();
        this.tail = new Node(null, null, null, domain);
        this.head = new Node(null, tail, null, domain);
        // The tail's predecessor is the head: set before any transaction can see the deque.
        tail.prev.setValueRelease(head);
    }

    /** Inserts {@code element} at the front. */
    public void offerFirst(Txn txn, E element) {
        Objects.requireNonNull(element, "element");
        TxnContext ctx = TxnContext.of(txn, stm);
        Node first = (Node) ctx.readRef(head);
        Node fresh = new Node(element, first, head, domain);
        ctx.writeRef(first.prev, fresh);
        ctx.writeRef(head, fresh);
    }

    /** Inserts {@code element} at the back. */
    public void offerLast(Txn txn, E element) {
        Objects.requireNonNull(element, "element");
        TxnContext ctx = TxnContext.of(txn, stm);
        Node last = (Node) ctx.readRef(tail.prev);
        Node fresh = new Node(element, tail, last, domain);
        ctx.writeRef(last, fresh);
        ctx.writeRef(tail.prev, fresh);
    }

    /** Removes and returns the first element, or returns null if the deque is empty as of this transaction. */
    @SuppressWarnings("unchecked")
    public E pollFirst(Txn txn) {
        TxnContext ctx = TxnContext.of(txn, stm);
        Node first = (Node) ctx.readRef(head);
        if (first == tail) {
            return null;
        }
        Node second = (Node) ctx.readRef(first);
        ctx.writeRef(head, second);
        ctx.writeRef(second.prev, head);
        return (E) first.element;
    }

    /** Removes and returns the last element, or returns null if the deque is empty as of this transaction. */
    @SuppressWarnings("unchecked")
    public E pollLast(Txn txn) {
        TxnContext ctx = TxnContext.of(txn, stm);
        Node last = (Node) ctx.readRef(tail.prev);
        if (last == head) {
            return null;
        }
        Node before = (Node) ctx.readRef(last.prev);
        ctx.writeRef(tail.prev, before);
        ctx.writeRef(before, tail);
        return (E) last.element;
    }

    /** @return the first element, or null if the deque is empty as of this transaction */
    @SuppressWarnings("unchecked")
    public E peekFirst(Txn txn) {
        Node first = (Node) TxnContext.of(txn, stm).readRef(head);
        return first == tail ? null : (E) first.element;
    }

    /** @return the last element, or null if the deque is empty as of this transaction */
    @SuppressWarnings("unchecked")
    public E peekLast(Txn txn) {
        Node last = (Node) TxnContext.of(txn, stm).readRef(tail.prev);
        return last == head ? null : (E) last.element;
    }

    /** Removes and returns the first element, waiting for one through {@link Txn#retry()} if the deque is empty. */
    public E takeFirst(Txn txn) {
        E e = pollFirst(txn);
        if (e == null) {
            throw txn.retry();
        }
        return e;
    }

    /** Removes and returns the last element, waiting for one through {@link Txn#retry()} if the deque is empty. */
    public E takeLast(Txn txn) {
        E e = pollLast(txn);
        if (e == null) {
            throw txn.retry();
        }
        return e;
    }

    /** Removes and returns the first element, waiting up to {@code timeout} (see {@link Txn#retryFor}); null if none came. */
    public E pollFirst(Txn txn, long timeout, TimeUnit unit) {
        E e = pollFirst(txn);
        if (e == null) {
            txn.retryFor(timeout, unit);
        }
        return e;
    }

    /** @return true if the deque is empty as of this transaction (validated at commit) */
    public boolean isEmpty(Txn txn) {
        return TxnContext.of(txn, stm).readRef(head) == tail;
    }

    /** @return the number of elements as of this transaction: walks the list (O(size)), depending on every link */
    public int size(Txn txn) {
        TxnContext ctx = TxnContext.of(txn, stm);
        int n = 0;
        for (Node p = (Node) ctx.readRef(head); p != tail; p = (Node) ctx.readRef(p)) {
            n++;
        }
        return n;
    }

    /** @return the store this deque belongs to */
    public Stm stm() {
        return stm;
    }

    /**
     * Diagnostics for tests: null if every link is quiescent and the links agree (each node's
     * predecessor is the node before it), else what is wrong. Call only while no transaction runs.
     */
    public String checkQuiescent() {
        ConcurrencyControl cc = stm.concurrencyControl();
        int i = 0;
        for (Node p = head; p != null; p = (Node) cc.loadRef(p), i++) {
            String problem = cc.checkQuiescent(p);
            if (problem == null) {
                problem = cc.checkQuiescent(p.prev);
            }
            Node next = (Node) cc.loadRef(p);
            if (problem == null && next != null && cc.loadRef(next.prev) != p) {
                problem = "the next node's predecessor is not this node";
            }
            if (problem != null) {
                return "node " + i + ": " + problem;
            }
        }
        return null;
    }

    /** @return the non-transactional view */
    public Single<E> single() {
        return single;
    }

    /**
     * Non-transactional single operations, each run as a transaction of its own (so linearizable
     * with transactions); refused inside a transaction of the same store.
     *
     * @param <E> element type
     */
    public static final class Single<E> {
        private final TxDeque<E> deque;

        private Single(TxDeque<E> deque) {
            this.deque = deque;
        }

        /** Inserts {@code element} at the front. */
        public void offerFirst(E element) {
            Objects.requireNonNull(element, "element");
            NonTx.atomic(deque.stm, txn -> {
                deque.offerFirst(txn, element);
                return null;
            });
        }

        /** Inserts {@code element} at the back. */
        public void offerLast(E element) {
            Objects.requireNonNull(element, "element");
            NonTx.atomic(deque.stm, txn -> {
                deque.offerLast(txn, element);
                return null;
            });
        }

        /** Removes and returns the first element, or null if empty. */
        public E pollFirst() {
            return NonTx.atomic(deque.stm, deque::pollFirst);
        }

        /** Removes and returns the last element, or null if empty. */
        public E pollLast() {
            return NonTx.atomic(deque.stm, deque::pollLast);
        }

        /** @return the number of elements */
        public int size() {
            return NonTx.readOnly(deque.stm, deque::size);
        }
    }
}
