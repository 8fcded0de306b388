package io.jato.jmh.charts;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The chart tools' output directory, written so that a reader never sees a half-done rendering:
 * files are rendered into a temporary directory inside OUT_DIR and moved into place only by
 * {@link #publish}, the summary last (and a previous summary is removed first), so a summary is
 * only ever there beside the complete set of files it links. {@link #close} removes the temporary
 * directory, whether or not anything was published.
 */
final class StagedOutput implements Closeable {
    private final Path outDir;
    private final Path staging;
    private final List<String> staged = new ArrayList<>();

    private StagedOutput(Path outDir, Path staging) {
        this.outDir = outDir;
        this.staging = staging;
    }

    /**
     * Creates {@code outDir} if missing and a hidden temporary directory in it.
     *
     * @param prefix the temporary directory's name prefix (".scaling-charts-")
     */
    static StagedOutput create(Path outDir, String prefix) throws IOException {
        Files.createDirectories(outDir);
        // Same directory as the targets, so that the final moves stay on one file system.
        return new StagedOutput(outDir, Files.createTempDirectory(outDir, prefix));
    }

    /** Where to render the file {@code name}; it is published, in the order staged, by {@link #publish}. */
    Path stage(String name) {
        staged.add(name);
        return staging.resolve(name);
    }

    /**
     * Writes the summary and moves everything staged into OUT_DIR, replacing files of the same
     * names: first the old summary goes, then the staged files, then the new summary.
     *
     * @return the files written, the summary last
     */
    List<Path> publish(String summaryName, String summary) throws IOException {
        Files.writeString(staging.resolve(summaryName), summary);
        // The old summary goes first, the new one comes last, so that at no moment does a summary
        // stand beside files it does not describe.
        Files.deleteIfExists(outDir.resolve(summaryName));
        List<Path> written = publish();
        Path from = staging.resolve(summaryName);
        Path to = outDir.resolve(summaryName);
        try {
            written.add(Files.move(from, to, StandardCopyOption.ATOMIC_MOVE));
        } catch (AtomicMoveNotSupportedException e) {
            written.add(Files.move(from, to, StandardCopyOption.REPLACE_EXISTING));
        }
        return written;
    }

    /**
     * Moves everything staged into OUT_DIR, in the order staged, replacing files of the same names;
     * for output without a summary (the table charts, whose page is their summary).
     *
     * @return the files written
     */
    List<Path> publish() throws IOException {
        List<Path> written = new ArrayList<>();
        for (String name : staged) {
            written.add(Files.move(staging.resolve(name), outDir.resolve(name), StandardCopyOption.REPLACE_EXISTING));
        }
        return written;
    }

    /**
     * Removes the temporary directory, best effort: one that cannot be removed is a hidden
     * subdirectory, which no reader of the summary looks into, and failing a run whose output is
     * already in place would misreport it.
     */
    @Override
    public void close() {
        try (Stream<Path> walk = Files.walk(staging)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // left as it is (see above)
        }
    }
}
