package io.jato.workloads;

import io.jato.durable.DurabilityMode;

import java.nio.file.Path;
import java.util.List;

/**
 * The {@code --durable DIR}, {@code --durability MODE} and {@code --checkpoint SECONDS} options
 * of the workloads whose tables can live in a durable store (tpcc, ycsb; see docs/durability.md).
 *
 * @param dir              the store's directory
 * @param mode             whether a writing transaction returns only once it is on disk
 * @param checkpointMillis background checkpoint period, 0 for none
 */
public record DurabilityOptions(Path dir, DurabilityMode mode, long checkpointMillis) {
    /** @return the three options, for a command's option list */
    public static List<Option> options() {
        return List.of(
                Option.valued("durable", "DIR", "keep the tables in a durable store in DIR: loaded if empty,"
                        + " recovered otherwise (docs/durability.md)"),
                Option.valued("durability", "MODE", "with --durable: durable (wait for the disk, default) or async"),
                Option.valued("checkpoint", "SECONDS", "with --durable: checkpoint every SECONDS, 0 never (default 0)"));
    }

    /**
     * @return the options given, or null when the run is not durable
     * @throws UsageException if {@code --durability} or {@code --checkpoint} come without
     *                        {@code --durable}, or a value is invalid
     */
    public static DurabilityOptions parse(Options o) throws UsageException {
        String dir = o.string("durable", null);
        if (dir == null) {
            if (o.has("durability") || o.has("checkpoint")) {
                throw new UsageException("--durability and --checkpoint need --durable DIR");
            }
            return null;
        }
        DurabilityMode mode = o.choice("durability", "durable", List.of("durable", "async")).equals("async")
                ? DurabilityMode.ASYNC : DurabilityMode.DURABLE;
        return new DurabilityOptions(Path.of(dir), mode, o.intValue("checkpoint", 0, 0, 86_400) * 1000L);
    }
}
