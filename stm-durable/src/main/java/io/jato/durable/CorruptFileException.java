package io.jato.durable;

import java.nio.file.Path;

/**
 * A log segment, checkpoint or store file that recovery refuses to apply: truncated inside its
 * header, a record whose checksum does not match (other than a torn last write), a file of another
 * store, or not a Jato file at all. Names the file and the byte offset of the first bad byte;
 * nothing of the store is opened when it is thrown.
 */
public final class CorruptFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;

    public CorruptFileException(Path file, long offset, String problem) {
        super(file + " at offset " + offset + ": " + problem);
        this.file = file;
        this.offset = offset;
    }

    /** @return the file that failed the check */
    public Path file() {
        return file;
    }

    /** @return the byte offset in {@link #file()} where the problem starts */
    public long offset() {
        return offset;
    }
}
