package io.jato.workloads;

import io.jato.stm.Stm;

import java.util.List;

/**
 * A workload's subcommand of {@link Main}: its name, help and options, and how to create the
 * workload from parsed options. The runner's own options (protocol, threads, duration, warm-up,
 * seed, JSON output) are shared by every command and handled by {@link Main}.
 */
public interface WorkloadCommand {
    /** @return the subcommand, e.g. {@code ycsb} */
    String name();

    /** @return one line for the command list */
    String summary();

    /** @return a paragraph for the command's {@code --help}, lines already wrapped */
    String description();

    /** @return the workload's own options (not the runner's) */
    List<Option> options();

    /**
     * The protocols, besides the runner's {@code --protocol}, that the workload's options bind some
     * of its objects to: {@link Main} builds the store with each as an {@link
     * Stm.Builder#objectProtocol object protocol}, so that {@link #create} can use {@link
     * Stm#withProtocol}. Names are checked by {@link Main} (one equal to {@code --protocol} is
     * ignored).
     *
     * @return the protocol names, in any order; none by default
     * @throws UsageException if an option naming them is invalid
     */
    default List<String> objectProtocols(Options options) throws UsageException {
        return List.of();
    }

    /**
     * The transaction types the workload's transactions carry ({@code stm.run(type, ...)}), by
     * name: {@code --tree} requires a group for each of them.
     *
     * @return the names; none by default (the workload runs untyped transactions)
     */
    default List<String> txnTypes() {
        return List.of();
    }

    /**
     * Validates the workload's options and creates the workload over {@code stm}, without loading it.
     *
     * @param seed the run's seed, from which the workload derives all its randomness
     * @throws UsageException if an option is invalid or the combination makes no sense
     */
    Workload create(Options options, Stm stm, long seed) throws UsageException;
}
