package io.jato.workloads;

import java.util.List;
import java.util.Map;

/** A minimal JSON writer for the run report: objects, strings, numbers, booleans, nested maps, lists. */
final class Json {
    private Json() {
    }

    /** @return {@code map} as a JSON object, pretty-printed with two-space indents */
    static String write(Map<String, ?> map) {
        StringBuilder sb = new StringBuilder();
        value(sb, map, 0);
        return sb.append('\n').toString();
    }

    private static void value(StringBuilder sb, Object v, int depth) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Map<?, ?> m) {
            object(sb, m, depth);
        } else if (v instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                sb.append(i == 0 ? "" : ", ");
                value(sb, l.get(i), depth);
            }
            sb.append(']');
        } else if (v instanceof Boolean) {
            sb.append(v);
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            sb.append(Double.isFinite(d) ? Double.toString(d) : "null");
        } else if (v instanceof Number) {
            sb.append(v);
        } else {
            string(sb, v.toString());
        }
    }

    private static void object(StringBuilder sb, Map<?, ?> m, int depth) {
        if (m.isEmpty()) {
            sb.append("{}");
            return;
        }
        sb.append("{\n");
        int i = 0;
        for (Map.Entry<?, ?> e : m.entrySet()) {
            indent(sb, depth + 1);
            string(sb, String.valueOf(e.getKey()));
            sb.append(": ");
            value(sb, e.getValue(), depth + 1);
            sb.append(++i < m.size() ? ",\n" : "\n");
        }
        indent(sb, depth);
        sb.append('}');
    }

    private static void indent(StringBuilder sb, int depth) {
        sb.append("  ".repeat(depth));
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
