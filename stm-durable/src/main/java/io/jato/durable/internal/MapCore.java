package io.jato.durable.internal;

import io.jato.collections.TxHashMap;
import io.jato.durable.Codec;
import io.jato.stm.Stm;
import io.jato.stm.Txn;
import io.jato.stm.spi.Entry;
import io.jato.stm.spi.TxnContext;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * A durable map's state: the transactional map holding its values, its codecs, and the stripes
 * that order its writes per key ({@link LogStripe}). Writes go to the map and are noted in the
 * thread's {@link ThreadLog}; the stripe's custom entry makes the commit call the engine's
 * participant.
 */
public final class MapCore<K, V> {
    /** Stripes per map: fixed by the format (a key's stripe must not change across restarts). */
    public static final int STRIPES = 1024;

    /** Stable id in log records: CRC32C of the name's UTF-8 bytes (collisions refused at build). */
    public final int id;
    public final String name;
    final Codec<K> keyCodec;
    final Codec<V> valueCodec;
    public final TxHashMap<K, V> map;
    final LogStripe[] stripes = new LogStripe[STRIPES];
    private final DurableEngine engine;

    MapCore(DurableEngine engine, String name, Codec<K> keyCodec, Codec<V> valueCodec) {
        this.engine = engine;
        this.name = name;
        this.id = idOf(name);
        this.keyCodec = keyCodec;
        this.valueCodec = valueCodec;
        Stm stm = engine.stm;
        this.map = new TxHashMap<>(stm);
        int domain = stm.protocolDomain();
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new LogStripe(domain);
        }
    }

    static int idOf(String name) {
        CRC32C c = new CRC32C();
        c.update(name.getBytes(StandardCharsets.UTF_8));
        return (int) c.getValue();
    }

    static int stripeIndex(Object key) {
        int h = key.hashCode() * 0x9E3779B9;
        return h >>> 22; // the top 10 bits: STRIPES = 1024
    }

    LogStripe stripe(Object key) {
        return stripes[stripeIndex(key)];
    }

    /** Transactional put, logged at commit. */
    public V put(Txn txn, K key, V value) {
        V old = map.put(txn, key, value);
        log(txn, key, value, LogFormat.OP_PUT);
        return old;
    }

    /** Transactional remove, logged at commit (also when the key was absent: the write still orders). */
    public V remove(Txn txn, K key) {
        V old = map.remove(txn, key);
        if (old != null) {
            log(txn, key, null, LogFormat.OP_REMOVE);
        }
        return old;
    }

    private void log(Txn txn, Object key, Object value, byte op) {
        TxnContext tc = TxnContext.of(txn, engine.stm);
        ThreadLog log = engine.threadLog(tc);
        LogStripe s = stripe(key);
        log.add(this, s, key, value, op);
        Entry e = tc.entry(s);
        if ((e.flags() & Entry.WRITE) == 0) {
            tc.writeCustom(e, engine.participant, null, log);
            tc.requestCheck(e, engine.participant);
            tc.requestCleanup(e, engine.participant);
        }
    }
}
