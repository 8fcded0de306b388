package io.jato.workloads;

import io.jato.stm.Stm;

import java.util.List;
import java.util.Map;

/**
 * A workload with no data whose last worker, or whose check, throws the error a test gives: the
 * runner's and {@link Main}'s failure paths without running out of heap for real. Or, as
 * {@link Where#HOARD}, one whose workers keep everything they allocate until the heap runs out
 * for real ({@link #main}, run in a JVM of its own).
 */
final class FailingWorkload implements Workload {
    /** Where the error is thrown. */
    enum Where { WORKER, CHECK, HOARD }

    /** What hoarding workers keep: a chain, so that the heap fills up to its last few bytes. */
    private static final class Link {
        final Link next;
        final long[] payload = new long[14];

        Link(Link next) {
            this.next = next;
        }
    }

    /** Every hoarding worker's chain, kept reachable from the workload. */
    private final Link[] hoards = new Link[64];

    /**
     * Runs {@code jato failing} with hoarding workers, through {@link Main#runWorkload}, in this
     * JVM (which should have a small heap), and exits with its status.
     */
    public static void main(String[] args) {
        System.exit(Main.runWorkload(command(Where.HOARD, null), new String[] {"failing", "--threads", "2",
                "--warmup", "0", "--duration", "600"}, System.out, System.err));
    }

    private final Where where;
    private final Error error;
    private final int threads;

    private FailingWorkload(Where where, Error error, int threads) {
        this.where = where;
        this.error = error;
        this.threads = threads;
    }

    /** @return the command {@code failing}, whose workload throws {@code error} at {@code where} */
    static WorkloadCommand command(Where where, Error error) {
        return new WorkloadCommand() {
            @Override
            public String name() {
                return "failing";
            }

            @Override
            public String summary() {
                return "throws " + error + " from its " + where;
            }

            @Override
            public String description() {
                return summary();
            }

            @Override
            public List<Option> options() {
                return List.of();
            }

            @Override
            public Workload create(Options options, Stm stm, long seed) throws UsageException {
                return new FailingWorkload(where, error, options.intValue("threads", 2, 1, 64));
            }
        };
    }

    @Override
    public String name() {
        return "failing";
    }

    @Override
    public Map<String, Object> parameters() {
        return Map.of("where", where.name());
    }

    @Override
    public void load(Loader loader) {
    }

    @Override
    public Worker newWorker(int index) {
        boolean fails = where == Where.WORKER && index == threads - 1;
        boolean hoarding = where == Where.HOARD;
        return new Worker() {
            @Override
            public boolean runOne() {
                if (fails) {
                    throw error;
                }
                if (hoarding) {
                    for (int i = 0; i < 100; i++) {
                        hoards[index] = new Link(hoards[index]);
                    }
                }
                Thread.onSpinWait();
                return true;
            }
        };
    }

    @Override
    public CheckResult check() {
        if (where == Where.CHECK) {
            throw error;
        }
        return CheckResult.ok("nothing to check");
    }
}
