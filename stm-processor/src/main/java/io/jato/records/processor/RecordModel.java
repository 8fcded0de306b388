package io.jato.records.processor;

import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * A valid record specification, reduced to what the generated class needs: plain strings, so a
 * model outlives the processing round (and the elements) it was read in.
 *
 * @param packageName the specification's package, empty for the unnamed package
 * @param name        the generated class's simple name
 * @param specName    the specification's name relative to its package, for messages
 * @param specRef     how the generated source refers to the specification type
 * @param columns     in declaration order; a column's index is its bit
 * @param groups      in index order
 */
record RecordModel(String packageName, String name, String specName, String specRef, List<Column> columns,
        List<Group> groups) {

    /** The name of the default group; must equal {@code io.jato.records.Group.DEFAULT}. */
    static final String DEFAULT_GROUP = "default";

    /**
     * @param name  the field's name
     * @param type  the column type as written in the generated source
     * @param kind  which of the supported types it is
     * @param index the column's position in declaration order (its bit)
     * @param group the index of the column's group
     */
    record Column(String name, String type, Kind kind, int index, int group) {
    }

    /** The supported column types: one per {@code ColumnOutput} and {@code ColumnInput} method pair. */
    enum Kind {
        BOOLEAN, BYTE, SHORT, CHAR, INT, LONG, FLOAT, DOUBLE, STRING, ENUM;

        /** @return the method name's suffix: {@code Int} for {@code writeInt} and {@code readInt} */
        String methodSuffix() {
            String n = name();
            return n.charAt(0) + n.substring(1).toLowerCase(Locale.ROOT);
        }
    }

    /**
     * @param name    the group's name
     * @param index   the group's index (its version slot)
     * @param columns the group's columns in declaration order
     */
    record Group(String name, int index, List<Column> columns) {
        /** @return the generated {@code GROUP_} constant */
        String constant() {
            return Names.groupConstant(name);
        }
    }

    /** @return the generated class's qualified name */
    String qualifiedName() {
        return packageName.isEmpty() ? name : packageName + "." + name;
    }

    /** @return the group named {@code groupName}, or null */
    Group group(String groupName) {
        for (Group g : groups) {
            if (g.name().equals(groupName)) {
                return g;
            }
        }
        return null;
    }

    /** @return the group names in index order, comma-separated, for messages */
    String groupList() {
        StringJoiner j = new StringJoiner(", ");
        for (Group g : groups) {
            j.add(g.name());
        }
        return j.toString();
    }
}
