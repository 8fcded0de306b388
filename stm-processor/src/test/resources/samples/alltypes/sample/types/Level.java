package sample.types;

/** A top-level enum column type. */
public enum Level {
    LOW, HIGH
}
