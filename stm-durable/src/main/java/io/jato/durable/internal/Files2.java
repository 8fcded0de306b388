package io.jato.durable.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** File names and directory syncs of a store directory. */
final class Files2 {
    static final String SEGMENT_PREFIX = "log-";
    static final String SEGMENT_SUFFIX = ".jlog";
    static final String CHECKPOINT_PREFIX = "checkpoint-";
    static final String CHECKPOINT_SUFFIX = ".jck";
    static final String MAP_FILE_SUFFIX = ".cmap";
    static final String STORE_FILE = "store.id";
    static final String LOCK_FILE = "store.lock";

    private Files2() {
    }

    static String segmentName(long number) {
        return SEGMENT_PREFIX + String.format("%016d", number) + SEGMENT_SUFFIX;
    }

    static String checkpointName(long firstSegment) {
        return CHECKPOINT_PREFIX + String.format("%016d", firstSegment) + CHECKPOINT_SUFFIX;
    }

    /** A checkpoint's Chronicle Map file of one map: checkpoint-N-IIIIIIII.cmap (I: the map id in hex). */
    static String mapFileName(long firstSegment, int mapId) {
        return CHECKPOINT_PREFIX + String.format("%016d-%08x", firstSegment, mapId) + MAP_FILE_SUFFIX;
    }

    /** @return the checkpoint number in a checkpoint map file's name, or -1 if the name is not one */
    static long mapFileNumber(String name) {
        if (!name.startsWith(CHECKPOINT_PREFIX) || !name.endsWith(MAP_FILE_SUFFIX)) {
            return -1;
        }
        int dash = name.lastIndexOf('-');
        if (dash != name.length() - MAP_FILE_SUFFIX.length() - 9) {
            return -1;
        }
        return number(name.substring(0, dash) + CHECKPOINT_SUFFIX, CHECKPOINT_PREFIX, CHECKPOINT_SUFFIX);
    }

    /** @return the number in a segment or checkpoint file name, or -1 if the name is not one */
    static long number(String name, String prefix, String suffix) {
        if (!name.startsWith(prefix) || !name.endsWith(suffix)) {
            return -1;
        }
        String digits = name.substring(prefix.length(), name.length() - suffix.length());
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(Character::isDigit)) {
            return -1;
        }
        return Long.parseLong(digits);
    }

    /** Forces the directory's entries (a created, renamed or deleted file) to the device. */
    static void syncDir(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
