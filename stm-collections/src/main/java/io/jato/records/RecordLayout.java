package io.jato.records;

/**
 * How a record instance maps its declared groups to versions. The layout is chosen per instance
 * when the record is created, so one code base can measure fine against coarse versioning.
 */
public enum RecordLayout {
    /** One version per declared {@link Group} (timestamp splitting). */
    SPLIT,
    /** One version for the whole record, as if every column were in one group. */
    COARSE
}
