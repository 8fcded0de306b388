package io.jato.durable.internal;

import io.jato.durable.DurabilityException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.jctools.queues.MpscUnboundedArrayQueue;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/*
 * The logger thread: group commit in epochs (Silo's scheme, in our own form).
 *
 * Committing threads announce the open epoch E in their ThreadLog while they commit, and put
 * their transaction's record, tagged with E, into their own ring. Each round the logger:
 *   1. opens epoch e+1 (a volatile store: a thread that announces e afterwards re-reads the
 *      epoch and moves to e+1, see ThreadLog.prepare);
 *   2. waits until no thread announces e or below, draining rings meanwhile (a thread may be
 *      waiting for room in its ring);
 *   3. drains every ring: every record of epoch <= e is now in the file buffer, some of e+1 too;
 *   4. appends the marker EPOCH(e), writes and forces the segment, publishes durable = e and
 *      wakes the threads waiting for it.
 * A round in which nothing was appended skips the marker and the force: every record of e or
 * below is on disk already. Rounds run every epochMillis, at once while a thread waits.
 *
 * Why epochs make recovery atomic and dependency-closed: a transaction reads the epoch with every
 * write lock held and before publishing anything, so a transaction that read or overwrote its
 * writes reads the epoch later and gets one at least as large. Replaying exactly the epochs up to
 * the last marker therefore never keeps a transaction without one it depends on, and never part
 * of one (all of a transaction's writes are one record).
 */

/** The store's logger thread and the epoch clock of its log. */
public final class LogWriter implements Runnable {
    private final Path dir;
    private final long storeId;
    private final long epochNanos;
    private final AtomicLong budget;
    /** A segment is closed once it holds this much (at the end of a round), and a new one opened. */
    private final long segmentBytes;
    private final MpscUnboundedArrayQueue<ThreadLog> registrations = new MpscUnboundedArrayQueue<>(64);
    /** The rings this thread drains; logger thread only. */
    private final ArrayList<ThreadLog> logs = new ArrayList<>();
    private final AtomicInteger waiters = new AtomicInteger();
    private final Object monitor = new Object();
    private final MessageHandler drain = this::onMessage;
    /** Records too large for their thread's ring; any thread offers, the logger drains. */
    private final MpscUnboundedArrayQueue<byte[]> large = new MpscUnboundedArrayQueue<>(16);
    /** Futures waiting for an epoch: any thread offers, the logger thread completes them. */
    private final MpscUnboundedArrayQueue<Pending> futures = new MpscUnboundedArrayQueue<>(64);
    /** Logger thread only: futures taken from the queue whose epoch is not durable yet. */
    private final ArrayList<Pending> pending = new ArrayList<>();

    private record Pending(long epoch, CompletableFuture<Long> future) {
    }

    /** The open epoch: written by the logger thread only (volatile), read by committing threads. */
    private volatile long epoch;
    /** Every record of this epoch and below is on disk: written by the logger thread only. */
    private volatile long durable;
    /** Why the logger stopped logging; written once by the logger thread. */
    private volatile Throwable failure;
    private volatile boolean closing;
    private volatile boolean stopped;
    private volatile CompletableFuture<long[]> rollRequest;

    // Logger thread only.
    private RecordOutput out;
    private long segment;
    private long maxRecordEpoch;
    private long lastMarker;
    private IOException drainFailure;
    private Thread thread;

    LogWriter(Path dir, long storeId, long epochMillis, long segmentBytes, AtomicLong budget) {
        this.segmentBytes = segmentBytes;
        this.dir = dir;
        this.storeId = storeId;
        this.epochNanos = epochMillis * 1_000_000L;
        this.budget = budget;
    }

    /**
     * Opens segment {@code segment} (header: voids records of earlier segments above
     * {@code cutLow}) and starts the thread with epoch {@code firstEpoch} open.
     */
    void start(long segment, long cutLow, long firstEpoch, String storeName) throws IOException {
        this.segment = segment;
        this.epoch = firstEpoch;
        this.durable = firstEpoch - 1;
        this.maxRecordEpoch = firstEpoch - 1;
        this.lastMarker = firstEpoch - 1;
        this.out = openSegment(segment, cutLow, firstEpoch);
        out.sync();
        Files2.syncDir(dir);
        thread = new Thread(this, "jato-logger-" + storeName);
        thread.setDaemon(true);
        thread.start();
    }

    private RecordOutput openSegment(long number, long cutLow, long base) throws IOException {
        return new RecordOutput(dir.resolve(Files2.segmentName(number)),
                LogFormat.header(LogFormat.LOG_MAGIC, storeId, number, cutLow, base), budget);
    }

    void register(ThreadLog log) {
        registrations.offer(log);
    }

    /** @return the open epoch */
    public long epoch() {
        return epoch;
    }

    /** @return the last epoch whose every record is on disk */
    public long durable() {
        return durable;
    }

    void checkHealthy() {
        Throwable f = failure;
        if (f != null) {
            throw new DurabilityException("the log failed and accepts no more durable writes: " + f, f);
        }
        if (stopped) {
            throw new IllegalStateException("the durable store is closed");
        }
    }

    /** Committing thread: puts a record into its ring, waiting for room while the logger drains. */
    void append(ThreadLog log, DirectBuffer record, int length) {
        if (length > log.ring.maxMsgLength()) {
            // Larger than the ring takes (an eighth of it): a copy goes through the queue of large
            // records, drained with the rings. Allocates, but only for such transactions.
            byte[] copy = new byte[length];
            record.getBytes(0, copy);
            large.offer(copy);
            LockSupport.unpark(thread);
            return;
        }
        if (log.sinceWake(length)) {
            // A quarter of the ring written since the last wake-up: let the logger drain it now
            // rather than at the end of the epoch, so the ring never fills in steady state.
            LockSupport.unpark(thread);
        }
        int spins = 0;
        while (!log.ring.write(ThreadLog.TXN_MESSAGE, record, 0, length)) {
            if (failure != null || stopped) {
                return; // the waiters learn it from awaitDurable; the commit stays in memory only
            }
            LockSupport.unpark(thread);
            if (++spins < 64) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    /**
     * Waits until every record of epoch {@code target} and below is on disk.
     *
     * @throws DurabilityException if the log failed before that
     */
    public void awaitDurable(long target) {
        if (durable >= target) {
            return;
        }
        waiters.incrementAndGet();
        try {
            LockSupport.unpark(thread);
            synchronized (monitor) {
                while (durable < target) {
                    Throwable f = failure;
                    if (f != null) {
                        throw new DurabilityException("commits up to epoch " + target
                                + " may not be durable: the log failed: " + f, f);
                    }
                    if (stopped) {
                        throw new IllegalStateException("the durable store was closed before epoch " + target
                                + " became durable");
                    }
                    monitor.wait(100);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DurabilityException("interrupted waiting for epoch " + target + " to become durable", e);
        } finally {
            waiters.decrementAndGet();
        }
    }

    /**
     * @return a future completed with the durable epoch once every record of epoch {@code target}
     *         and below is on disk, or exceptionally with a {@link DurabilityException} if the log
     *         fails (or an {@link IllegalStateException} if the store closes) first; completed by
     *         the logger thread at the end of a round
     */
    public CompletableFuture<Long> durableFuture(long target) {
        long d = durable;
        if (d >= target) {
            return CompletableFuture.completedFuture(d);
        }
        CompletableFuture<Long> f = new CompletableFuture<>();
        futures.offer(new Pending(target, f));
        if (stopped) {
            // The logger may have finished its last round before the offer: nobody else completes it.
            fail(f, target);
        }
        return f;
    }

    private void fail(CompletableFuture<Long> f, long target) {
        if (durable >= target) {
            f.complete(durable);
            return;
        }
        Throwable cause = failure;
        f.completeExceptionally(cause != null
                ? new DurabilityException("commits up to epoch " + target + " may not be durable: the log failed: "
                        + cause, cause)
                : new IllegalStateException("the durable store was closed before epoch " + target + " became durable"));
    }

    private void completeFutures() {
        Pending p;
        while ((p = futures.poll()) != null) {
            pending.add(p);
        }
        long d = durable;
        boolean down = stopped;
        pending.removeIf(q -> {
            if (q.epoch <= d) {
                q.future.complete(d);
                return true;
            }
            if (down) {
                fail(q.future, q.epoch);
                return true;
            }
            return false;
        });
    }

    /**
     * Closes the current segment after the next round and opens the next one.
     *
     * @return {the new segment's number, the largest epoch of any record in earlier segments}
     */
    long[] roll() {
        CompletableFuture<long[]> f = new CompletableFuture<>();
        synchronized (this) {
            while (rollRequest != null) {
                Thread.onSpinWait();
            }
            rollRequest = f;
        }
        LockSupport.unpark(thread);
        try {
            while (true) {
                checkHealthy();
                try {
                    return f.get(100, java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException again) {
                    LockSupport.unpark(thread);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DurabilityException("interrupted waiting for the log to roll", e);
        } catch (ExecutionException e) {
            throw new DurabilityException("the log could not roll to a new segment", e.getCause());
        }
    }

    /** Waits until the open epoch is above {@code e}. */
    void awaitEpochAbove(long e) {
        while (epoch <= e) {
            checkHealthy();
            LockSupport.unpark(thread);
            LockSupport.parkNanos(200_000L);
        }
    }

    @Override
    public void run() {
        try {
            while (true) {
                boolean last = closing;
                round();
                if (last) {
                    break;
                }
                long deadline = System.nanoTime() + epochNanos;
                while (waiters.get() == 0 && rollRequest == null && !closing) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    LockSupport.parkNanos(left);
                    // Woken by a filling ring (or spuriously): empty the rings into the segment
                    // while the epoch stays open; the next round's marker covers them.
                    drainAll();
                }
            }
        } catch (Throwable t) {
            failure = t;
        } finally {
            stopped = true;
            try {
                out.close();
            } catch (IOException | RuntimeException ignored) {
                // The failure (if any) is already recorded; closing cannot lose acknowledged data.
            }
            synchronized (monitor) {
                monitor.notifyAll();
            }
            CompletableFuture<long[]> r = rollRequest;
            if (r != null) {
                r.completeExceptionally(failure != null ? failure : new IllegalStateException("closed"));
            }
            completeFutures();
        }
    }

    private void round() throws IOException {
        final long e = epoch;
        epoch = e + 1;
        // After opening e+1: a thread that joined epoch e read it before that store, and it
        // registered its ring before reading it, so its ring is in the queue now.
        ThreadLog t;
        while ((t = registrations.poll()) != null) {
            logs.add(t);
        }
        for (int i = 0, n = logs.size(); i < n; i++) {
            ThreadLog log = logs.get(i);
            int spins = 0;
            while (log.active() <= e) {
                drainAll();
                if (++spins > 64) {
                    Thread.yield();
                }
            }
        }
        drainAll();
        // A marker is due if this round appended anything, and also if an earlier round drained a
        // record of a later epoch than its marker (a thread that committed in e while e-1 closed):
        // that record is on disk already but only a marker of its epoch makes recovery apply it.
        if (out.dirty() || maxRecordEpoch > lastMarker) {
            out.appendLong(LogFormat.EPOCH, e);
            out.sync();
            lastMarker = e;
        }
        durable = e;
        if (waiters.get() != 0) {
            synchronized (monitor) {
                monitor.notifyAll();
            }
        }
        if (!pending.isEmpty() || !futures.isEmpty()) {
            completeFutures();
        }
        CompletableFuture<long[]> r = rollRequest;
        if (r != null) {
            rollSegment();
            rollRequest = null;
            r.complete(new long[] {segment, maxRecordEpoch});
        } else if (out.size() >= segmentBytes) {
            // Bounded segments: recovery reads a segment whole, and only whole segments are deleted.
            rollSegment();
        }
    }

    /** Closes the current segment (synced by the round) and opens the next; the epoch open now is its base. */
    private void rollSegment() throws IOException {
        out.close();
        segment++;
        out = openSegment(segment, LogFormat.NO_CUT, epoch);
        out.sync();
        Files2.syncDir(dir);
    }

    private void drainAll() throws IOException {
        byte[] big;
        while ((big = large.poll()) != null) {
            onMessage(ThreadLog.TXN_MESSAGE, new UnsafeBuffer(big), 0, big.length);
            if (drainFailure != null) {
                IOException x = drainFailure;
                drainFailure = null;
                throw x;
            }
        }
        for (int i = 0, n = logs.size(); i < n; i++) {
            ThreadLog log = logs.get(i);
            while (log.ring.read(drain) != 0) {
                if (drainFailure != null) {
                    IOException x = drainFailure;
                    drainFailure = null;
                    throw x;
                }
            }
        }
    }

    private void onMessage(int type, MutableDirectBuffer buffer, int index, int length) {
        if (drainFailure != null) {
            return;
        }
        long e = buffer.getLong(index, ByteOrder.LITTLE_ENDIAN);
        if (e > maxRecordEpoch) {
            maxRecordEpoch = e;
        }
        try {
            out.append(LogFormat.TXN, buffer, index, length);
        } catch (IOException x) {
            drainFailure = x;
        }
    }

    /** Makes everything committed so far durable, stops the thread and closes the segment. */
    void close() {
        closing = true;
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return why the logger stopped logging, or null */
    Throwable failure() {
        return failure;
    }
}
