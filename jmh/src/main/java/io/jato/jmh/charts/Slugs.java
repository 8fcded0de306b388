package io.jato.jmh.charts;

import java.util.Locale;
import java.util.Set;

/**
 * File-name stems for charts: lower case, {@code [a-z0-9-]} only, at most {@value #MAX_LENGTH}
 * characters, so that a name is safe on every file system and in a Markdown link; and made unique
 * among the names of one rendering, so that no chart overwrites another.
 */
final class Slugs {
    /** Well under file-system limits even with many long params; titles and summaries still name everything. */
    static final int MAX_LENGTH = 120;

    private Slugs() {
    }

    /** {@code text} as a stem: runs of anything but letters and digits become one '-'. */
    static String of(String text) {
        String slug = text.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        return slug.length() <= MAX_LENGTH ? slug : slug.substring(0, MAX_LENGTH).replaceAll("-+$", "");
    }

    /**
     * {@code base}, or {@code base-2}, {@code base-3}, ... whichever {@code taken} does not hold yet;
     * added to {@code taken}. Different things can slug alike (names that differ only in case or
     * punctuation): the later ones are numbered rather than overwrite the first's files.
     */
    static String unique(Set<String> taken, String base) {
        String slug = base;
        for (int n = 2; !taken.add(slug); n++) {
            slug = base + "-" + n;
        }
        return slug;
    }
}
