package io.jato.jmh.workloads;

import java.util.ArrayList;
import java.util.List;

/**
 * How the workload benchmarks name a store's protocols in one JMH parameter value, where a comma
 * cannot appear (JMH splits {@code -p name=a,b} into two values): {@code occ} is one protocol;
 * {@code occ+stock=tictoc+customer=tictoc} is a store on {@code occ} with the objects named after
 * the first {@code +} bound to other protocols (the runner's {@code --table-protocols
 * stock=tictoc,customer=tictoc}).
 */
final class Protocols {
    /** The seed of every trial's generators: trials of one configuration load and draw the same. */
    static final long SEED = 42;

    private Protocols() {
    }

    /**
     * @param value            the parameter's value
     * @param bindingsOption   the runner option that binds objects to protocols
     * @param bindingSeparator how that option separates its bindings
     * @return the runner options selecting the protocols {@code value} names
     */
    static List<String> options(String value, String bindingsOption, String bindingSeparator) {
        String[] parts = value.split("\\+", -1);
        List<String> line = new ArrayList<>(List.of("--protocol", parts[0]));
        if (parts.length > 1) {
            List<String> bindings = new ArrayList<>(List.of(parts).subList(1, parts.length));
            line.add(bindingsOption);
            line.add(String.join(bindingSeparator, bindings));
        }
        return line;
    }
}
