package io.jato.collections;

import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.ConcurrencyControl;
import io.jato.stm.spi.RefItem;
import io.jato.stm.spi.TxnContext;

import java.util.Objects;

/*
 * Design. A singly linked list with a sentinel, as in Michael and Scott's queue but with every
 * pointer a transactional item: head holds the sentinel, each node's own item holds its successor,
 * tail holds the last node. offer reads tail and writes last.next and tail (no read of last.next:
 * tail's version covers it); poll reads head and sentinel.next and writes head. So offers conflict
 * with offers (tail) and polls with polls (head), but an offer and a poll conflict only when the
 * queue is empty (both touch the sentinel's next) - the usual producer/consumer case runs without
 * aborts. A polled node becomes the sentinel and keeps its element until the next poll.
 */

/**
 * A transactional unbounded FIFO queue. {@link #offer} appends, {@link #poll} removes the head or
 * returns null when the queue is empty as of the transaction (the emptiness is validated at
 * commit: an offer that commits first makes the poll retry and find it). Producers and consumers
 * do not conflict with each other unless the queue is empty; producers conflict among themselves,
 * and so do consumers. Elements must not be null. An offer allocates one node.
 *
 * <p>{@link #poll} does not block; {@link #take} (and the timed {@link #poll(Txn, long,
 * java.util.concurrent.TimeUnit)}) waits for an element through {@link Txn#retry()}, without
 * spinning, and composes with other blocking operations through {@link Txn#orElse}.
 *
 * @param <E> element type
 */
public final class TxQueue<E> {
    private final Stm stm;
    private final int domain;
    /** Holds the sentinel node, whose successor is the first element. */
    private final RefItem head;
    /** Holds the last node (the sentinel when empty). */
    private final RefItem tail;
    private final Single<E> single = new Single<>(this);

    /** A list node: its item holds the next node (null for the last). */
    private static final class Node extends RefItem {
        final Object element;

        Node(Object element, int domain) {
            super(null, domain);
            this.element = element;
        }
    }

    /** Creates an empty queue in {@code stm}. */
    public TxQueue(Stm stm) {
        this.stm = Objects.requireNonNull(stm, "stm");
        this.domain = stm.protocolDomain();
        Node sentinel = new Node(null, domain);
        this.head = new RefItem(sentinel, domain);
        this.tail = new RefItem(sentinel, domain);
    }

    /** Appends {@code element} at the tail; always returns true (the queue is unbounded). */
    public boolean offer(Txn txn, E element) {
        Objects.requireNonNull(element, "element");
        TxnContext ctx = TxnContext.of(txn, stm);
        Node last = (Node) ctx.readRef(tail);
        Node fresh = new Node(element, domain);
        ctx.writeRef(last, fresh);
        ctx.writeRef(tail, fresh);
        return true;
    }

    /** Removes and returns the head element, or returns null if the queue is empty as of this transaction. */
    @SuppressWarnings("unchecked")
    public E poll(Txn txn) {
        TxnContext ctx = TxnContext.of(txn, stm);
        Node sentinel = (Node) ctx.readRef(head);
        Node first = (Node) ctx.readRef(sentinel);
        if (first == null) {
            return null;
        }
        ctx.writeRef(head, first);
        return (E) first.element;
    }

    /**
     * Removes and returns the head element, waiting for one if the queue is empty: the
     * transaction {@linkplain Txn#retry() retries}, blocking its thread until an offer commits,
     * then runs again. Composes: in {@code txn.orElse(t -> a.take(t), t -> b.take(t))} the
     * transaction takes from whichever queue has an element, and waits on both if neither has.
     *
     * @throws io.jato.stm.TxnInterruptedException from the transaction if the thread is
     *                                              interrupted while it waits
     */
    public E take(Txn txn) {
        E e = poll(txn);
        if (e == null) {
            throw txn.retry();
        }
        return e;
    }

    /**
     * Removes and returns the head element, waiting up to {@code timeout} for one if the queue is
     * empty (the transaction retries until the deadline, see {@link Txn#retryFor}); returns null
     * if none came in time.
     */
    public E poll(Txn txn, long timeout, java.util.concurrent.TimeUnit unit) {
        E e = poll(txn);
        if (e == null) {
            txn.retryFor(timeout, unit);
        }
        return e;
    }

    /** @return the head element without removing it, or null if the queue is empty as of this transaction */
    @SuppressWarnings("unchecked")
    public E peek(Txn txn) {
        TxnContext ctx = TxnContext.of(txn, stm);
        Node first = (Node) ctx.readRef((Node) ctx.readRef(head));
        return first == null ? null : (E) first.element;
    }

    /** @return true if the queue is empty as of this transaction (validated: an offer that commits first makes it retry) */
    public boolean isEmpty(Txn txn) {
        return peek(txn) == null;
    }

    /**
     * @return the number of elements as of this transaction: walks the whole list (O(size)) and
     *         depends on every link, so any offer or poll that commits first makes it retry
     */
    public int size(Txn txn) {
        TxnContext ctx = TxnContext.of(txn, stm);
        int n = 0;
        for (Node p = (Node) ctx.readRef((Node) ctx.readRef(head)); p != null; p = (Node) ctx.readRef(p)) {
            n++;
        }
        return n;
    }

    /** @return the store this queue belongs to */
    public Stm stm() {
        return stm;
    }

    /**
     * Diagnostics for tests: null if the protocol finds the head, the tail and every node
     * quiescent and the tail is the last node, else what is wrong. Call only while no transaction
     * runs.
     */
    public String checkQuiescent() {
        ConcurrencyControl cc = stm.concurrencyControl();
        for (RefItem item : new RefItem[] {head, tail}) {
            String p = cc.checkQuiescent(item);
            if (p != null) {
                return (item == head ? "head: " : "tail: ") + p;
            }
        }
        Node last = null;
        int i = 0;
        for (Node p = (Node) cc.loadRef(head); p != null; p = (Node) cc.loadRef(p), i++) {
            String problem = cc.checkQuiescent(p);
            if (problem != null) {
                return "node " + i + ": " + problem;
            }
            last = p;
        }
        return cc.loadRef(tail) == last ? null : "tail is not the last node";
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
        private final TxQueue<E> queue;

        private Single(TxQueue<E> queue) {
            this.queue = queue;
        }

        /** Appends {@code element}; always true. */
        public boolean offer(E element) {
            Objects.requireNonNull(element, "element");
            return NonTx.atomic(queue.stm, txn -> queue.offer(txn, element));
        }

        /** Removes and returns the head element, or null if empty. */
        public E poll() {
            return NonTx.atomic(queue.stm, queue::poll);
        }

        /** @return the head element, or null if empty */
        public E peek() {
            return NonTx.readOnly(queue.stm, queue::peek);
        }

        /** @return the number of elements */
        public int size() {
            return NonTx.readOnly(queue.stm, queue::size);
        }
    }
}
