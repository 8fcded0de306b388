import io.jato.durable.*;
import io.jato.stm.Stm;
import java.nio.file.*;

/** Loaded-guest timing: load N accounts, time store.checkpoint(), reopen and time recovery. */
public class CkBench {
    public static void main(String[] a) throws Exception {
        Path dir = Path.of(a[0]);
        int n = Integer.parseInt(a[1]);
        try (DurableStore s = open(dir)) {
            DurableMap<Long, Long> m = s.map("accounts");
            for (int from = 0; from < n; from += 10_000) {
                int lo = from;
                s.atomic(tx -> {
                    for (long i = lo; i < Math.min(n, lo + 10_000); i++) {
                        m.put(tx, i, 1000L);
                    }
                    return null;
                });
            }
            for (int r = 0; r < 3; r++) {
                long t0 = System.nanoTime();
                s.checkpoint();
                System.out.printf("checkpoint %d: %.2f s%n", r, (System.nanoTime() - t0) / 1e9);
            }
        }
        long bytes = 0;
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                System.out.println("  " + p.getFileName() + " " + Files.size(p));
            }
        }
        long t0 = System.nanoTime();
        try (DurableStore s = open(dir)) {
            System.out.printf("reopen: %.2f s; %s%n", (System.nanoTime() - t0) / 1e9, s.recoveryReport());
        }
    }

    static DurableStore open(Path dir) {
        return DurableStore.builder(dir, Stm.builder().build()).mode(DurabilityMode.ASYNC)
                .map("accounts", Codecs.longs(), Codecs.longs()).open();
    }
}
