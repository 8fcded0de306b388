package io.jato.ycsb;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.StringByteIterator;
import site.ycsb.measurements.Measurements;

/** Helpers shared by the tests: properties, databases, and records as text. */
final class Ycsb {
    private Ycsb() {
    }

    /**
     * Gives YCSB's measurements singleton its properties, as YCSB's client does before anything
     * else: CoreWorkload's constructor asks for the singleton, which cannot be made without them.
     */
    static synchronized void measurements() {
        Measurements.setProperties(new Properties());
    }

    /** Properties from name, value pairs. */
    static Properties props(String... nameValue) {
        Properties p = new Properties();
        for (int i = 0; i < nameValue.length; i += 2) {
            p.setProperty(nameValue[i], nameValue[i + 1]);
        }
        return p;
    }

    /** A database with {@code p}, initialized. */
    static JatoYcsbDb open(Properties p) throws DBException {
        JatoYcsbDb db = new JatoYcsbDb();
        db.setProperties(p);
        db.init();
        return db;
    }

    /** Fields as YCSB passes them, from name, value pairs. */
    static Map<String, ByteIterator> fields(String... nameValue) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            m.put(nameValue[i], nameValue[i + 1]);
        }
        return StringByteIterator.getByteIteratorMap(m);
    }

    /** A record read from YCSB as sorted text (draining the iterators). */
    static TreeMap<String, String> text(Map<String, ByteIterator> record) {
        TreeMap<String, String> out = new TreeMap<>();
        record.forEach((k, v) -> out.put(k, new String(v.toArray(), StandardCharsets.UTF_8)));
        return out;
    }
}
