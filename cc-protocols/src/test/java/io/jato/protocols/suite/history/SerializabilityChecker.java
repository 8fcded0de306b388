package io.jato.protocols.suite.history;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/*
 * Conflict-serializability of a recorded history (Adya's direct serialization graph, restricted
 * to the item reads and writes a test records).
 *
 * Version order. Every write names the version it replaced, so the versions of an item form a
 * tree rooted at T0's initial version; in a correct history the tree is a chain. A fork (two
 * committed writers replaced the same version) is a lost update and is reported as such; a write
 * that replaced a version no committed transaction wrote means the writer read uncommitted data.
 *
 * Edges, between committed transactions (T0 has no incoming edge, so it is never on a cycle):
 *   ww  Ti -> Tj  Tj's write replaced Ti's version of an item;
 *   wr  Ti -> Tj  Tj read Ti's version of an item;
 *   rw  Ti -> Tj  Ti read a version of an item that Tj's write replaced (anti-dependency).
 * The history is serializable iff the graph is acyclic; a cycle is reported edge by edge with the
 * item and versions that caused each edge, which is what one needs to reconstruct the interleaving.
 *
 * Absent keys are items too: a key that starts absent reads as T0's version until its insert
 * replaces it; a key that starts present and is deleted (at most once, never re-inserted) reads
 * absent as the deleting transaction's version. So a phantom - reading a key absent while an insert
 * or delete of it commits around the reader - is an ordinary rw/wr edge here.
 */

/** Checks recorded histories for serializability; see the essay above. */
public final class SerializabilityChecker {
    private static final int MAX_LISTED_PROBLEMS = 10;

    private SerializabilityChecker() {
    }

    /** Checks {@code committed}, the records of every committed transaction. */
    public static Report check(Collection<TxnRecord> committed) {
        return check(committed, Map.of());
    }

    /**
     * Checks {@code committed} and, for every key of {@code finalState}, that the version found at
     * the end (its writer's id; {@link TxnRecord#DELETED} for a deleted key) is the last one of the
     * key's version chain.
     */
    public static Report check(Collection<TxnRecord> committed, Map<String, Long> finalState) {
        return new Analysis(committed).run(finalState);
    }

    /** The verdict: problems found (empty if serializable), with a readable description. */
    public static final class Report {
        private final List<String> problems;
        private final List<Long> cycle;
        private final int transactions;

        Report(List<String> problems, List<Long> cycle, int transactions) {
            this.problems = List.copyOf(problems);
            this.cycle = cycle == null ? List.of() : List.copyOf(cycle);
            this.transactions = transactions;
        }

        public boolean isSerializable() {
            return problems.isEmpty();
        }

        /** @return every problem found, each described in full */
        public List<String> problems() {
            return problems;
        }

        /** @return the transactions of the dependency cycle found, in order (empty if none) */
        public List<Long> cycle() {
            return cycle;
        }

        /** @return true if a problem mentions a lost update (a forked version chain) */
        public boolean hasLostUpdate() {
            return problems.stream().anyMatch(p -> p.startsWith("lost update"));
        }

        /** @return the number of committed transactions checked */
        public int transactions() {
            return transactions;
        }

        /** @return a readable account of the problems (at most a few listed in full) */
        public String describe() {
            if (problems.isEmpty()) {
                return "serializable (" + transactions + " committed transactions)";
            }
            StringBuilder sb = new StringBuilder("NOT serializable: ").append(problems.size())
                    .append(" problem(s) among ").append(transactions).append(" committed transactions");
            for (int i = 0; i < Math.min(MAX_LISTED_PROBLEMS, problems.size()); i++) {
                sb.append("\n- ").append(problems.get(i).replace("\n", "\n  "));
            }
            if (problems.size() > MAX_LISTED_PROBLEMS) {
                sb.append("\n- ... and ").append(problems.size() - MAX_LISTED_PROBLEMS).append(" more");
            }
            return sb.toString();
        }

        /** @throws AssertionError describing the problems, unless the history is serializable */
        public void assertSerializable(String context) {
            if (!problems.isEmpty()) {
                throw new AssertionError(context + ": " + describe());
            }
        }

        @Override
        public String toString() {
            return describe();
        }
    }

    /** One run of the analysis. */
    private static final class Analysis {
        private final Map<Long, TxnRecord> txns = new LinkedHashMap<>();
        private final List<String> problems = new ArrayList<>();
        /** key -> replaced version's writer -> writers that replaced it */
        private final Map<String, Map<Long, TreeSet<Long>>> children = new TreeMap<>();
        /** key -> writers whose write was a delete */
        private final Map<String, Set<Long>> deleters = new HashMap<>();
        /** key -> writers of committed versions reachable from T0's (the version tree) */
        private final Map<String, Set<Long>> versions = new HashMap<>();
        /** from -> to -> why (the first reason found) */
        private final Map<Long, Map<Long, String>> edges = new HashMap<>();

        Analysis(Collection<TxnRecord> committed) {
            for (TxnRecord r : committed) {
                if (txns.put(r.id(), r) != null) {
                    problems.add("transaction " + Version.name(r.id()) + " was recorded twice");
                }
            }
        }

        Report run(Map<String, Long> finalState) {
            buildVersionTrees();
            addReadEdges();
            List<Long> cycle = findCycle();
            if (cycle != null) {
                problems.add(0, describeCycle(cycle));
            }
            checkFinalState(finalState);
            return new Report(problems, cycle, txns.size());
        }

        private void buildVersionTrees() {
            for (TxnRecord r : txns.values()) {
                Set<String> written = new HashSet<>();
                for (TxnRecord.Write w : r.writes()) {
                    if (!written.add(w.key())) {
                        problems.add(Version.name(r.id()) + " recorded two writes of " + w.key());
                    }
                    children.computeIfAbsent(w.key(), k -> new HashMap<>())
                            .computeIfAbsent(w.overwritten(), v -> new TreeSet<>()).add(r.id());
                    if (w.delete()) {
                        deleters.computeIfAbsent(w.key(), k -> new HashSet<>()).add(r.id());
                    }
                    if (w.overwritten() != Version.INITIAL) {
                        addEdge(w.overwritten(), r.id(), "ww on " + w.key() + ": " + Version.name(r.id())
                                + " replaced the version " + Version.name(w.overwritten()) + " wrote");
                    }
                }
            }
            for (Map.Entry<String, Map<Long, TreeSet<Long>>> e : children.entrySet()) {
                String key = e.getKey();
                Map<Long, TreeSet<Long>> tree = e.getValue();
                Set<Long> reached = new HashSet<>();
                Deque<Long> todo = new ArrayDeque<>();
                todo.push(Version.INITIAL);
                while (!todo.isEmpty()) {
                    long v = todo.pop();
                    if (!reached.add(v)) {
                        continue;
                    }
                    TreeSet<Long> next = tree.getOrDefault(v, new TreeSet<>());
                    if (next.size() > 1) {
                        problems.add("lost update on " + key + ": " + names(next) + " all replaced the version "
                                + Version.name(v) + " wrote: the version chain forks, so whichever is serialized"
                                + " later overwrote the other's update without reading it\n" + describeTxns(next));
                    }
                    todo.addAll(next);
                }
                for (Map.Entry<Long, TreeSet<Long>> c : tree.entrySet()) {
                    if (!reached.contains(c.getKey())) {
                        problems.add("on " + key + ", " + names(c.getValue()) + " replaced a version written by "
                                + Version.name(c.getKey()) + ", which committed no write of " + key
                                + " (a write based on uncommitted data)\n" + describeTxns(c.getValue()));
                    }
                }
                versions.put(key, reached);
                Set<Long> d = deleters.getOrDefault(key, Set.of());
                if (d.size() > 1) {
                    problems.add(key + " was deleted by several committed transactions: " + names(d));
                }
            }
        }

        private void addReadEdges() {
            for (TxnRecord r : txns.values()) {
                for (TxnRecord.Read read : r.reads()) {
                    String key = read.key();
                    long version = read.writer();
                    if (version == TxnRecord.DELETED) {
                        Set<Long> d = deleters.getOrDefault(key, Set.of());
                        if (d.isEmpty()) {
                            problems.add(Version.name(r.id()) + " read " + key + " absent (deleted), but no committed"
                                    + " transaction deleted it\n  " + r);
                            continue;
                        }
                        version = d.iterator().next();
                    }
                    if (version != Version.INITIAL && !versions.getOrDefault(key, Set.of()).contains(version)) {
                        problems.add(Version.name(r.id()) + " read the version of " + key + " written by "
                                + Version.name(version) + ", which committed no such version (a dirty read)\n  " + r);
                        continue;
                    }
                    if (version == r.id()) {
                        continue;
                    }
                    if (version != Version.INITIAL) {
                        addEdge(version, r.id(), "wr on " + key + ": " + Version.name(r.id()) + " read the version "
                                + Version.name(version) + " wrote");
                    }
                    Map<Long, TreeSet<Long>> tree = children.getOrDefault(key, Map.of());
                    for (long next : tree.getOrDefault(version, new TreeSet<>())) {
                        addEdge(r.id(), next, "rw on " + key + ": " + Version.name(r.id()) + " read the version "
                                + Version.name(version) + " wrote, which " + Version.name(next) + " replaced");
                    }
                }
            }
        }

        private void checkFinalState(Map<String, Long> finalState) {
            for (Map.Entry<String, Long> e : new TreeMap<>(finalState).entrySet()) {
                String key = e.getKey();
                long seen = e.getValue();
                if (seen == TxnRecord.DELETED) {
                    Set<Long> d = deleters.getOrDefault(key, Set.of());
                    if (d.size() != 1) {
                        problems.add("at the end " + key + " is absent (deleted), but " + d.size()
                                + " committed transactions deleted it");
                        continue;
                    }
                    seen = d.iterator().next();
                }
                Map<Long, TreeSet<Long>> tree = children.getOrDefault(key, Map.of());
                boolean forked = tree.values().stream().anyMatch(s -> s.size() > 1);
                if (forked) {
                    continue; // already reported as a lost update
                }
                long last = Version.INITIAL;
                for (TreeSet<Long> next = tree.get(last); next != null && !next.isEmpty(); next = tree.get(last)) {
                    last = next.first();
                }
                if (seen != last) {
                    problems.add("at the end " + key + " holds the version " + Version.name(seen)
                            + " wrote, but the last committed write of it is " + Version.name(last));
                }
            }
        }

        private void addEdge(long from, long to, String why) {
            if (from == to) {
                return;
            }
            edges.computeIfAbsent(from, f -> new LinkedHashMap<>()).putIfAbsent(to, why);
        }

        /** @return the transactions of a shortest cycle through some node of a cycle, or null */
        private List<Long> findCycle() {
            Map<Long, Integer> color = new HashMap<>(); // absent = white, 1 = on the stack, 2 = done
            for (long start : new TreeSet<>(edges.keySet())) {
                if (color.containsKey(start)) {
                    continue;
                }
                Deque<Long> stack = new ArrayDeque<>();
                Deque<java.util.Iterator<Long>> its = new ArrayDeque<>();
                stack.push(start);
                its.push(successors(start).iterator());
                color.put(start, 1);
                while (!stack.isEmpty()) {
                    java.util.Iterator<Long> it = its.peek();
                    if (it.hasNext()) {
                        long next = it.next();
                        Integer c = color.get(next);
                        if (c == null) {
                            color.put(next, 1);
                            stack.push(next);
                            its.push(successors(next).iterator());
                        } else if (c == 1) {
                            return shortestCycleThrough(next);
                        }
                    } else {
                        color.put(stack.pop(), 2);
                        its.pop();
                    }
                }
            }
            return null;
        }

        private Collection<Long> successors(long node) {
            return edges.getOrDefault(node, Collections.emptyMap()).keySet();
        }

        private List<Long> shortestCycleThrough(long node) {
            Map<Long, Long> parent = new HashMap<>();
            Deque<Long> queue = new ArrayDeque<>();
            queue.add(node);
            while (!queue.isEmpty()) {
                long u = queue.poll();
                for (long v : successors(u)) {
                    if (v == node) {
                        List<Long> cycle = new ArrayList<>();
                        for (long w = u; w != node; w = parent.get(w)) {
                            cycle.add(w);
                        }
                        cycle.add(node);
                        Collections.reverse(cycle);
                        return cycle;
                    }
                    if (!parent.containsKey(v)) {
                        parent.put(v, u);
                        queue.add(v);
                    }
                }
            }
            throw new IllegalStateException("no cycle through " + Version.name(node));
        }

        private String describeCycle(List<Long> cycle) {
            StringBuilder sb = new StringBuilder("dependency cycle through ").append(cycle.size())
                    .append(" committed transactions (no serial order exists):");
            for (int i = 0; i < cycle.size(); i++) {
                long from = cycle.get(i);
                long to = cycle.get((i + 1) % cycle.size());
                String why = edges.get(from).get(to);
                sb.append("\n  ").append(Version.name(from)).append(" -").append(why, 0, 2).append("-> ")
                        .append(Version.name(to)).append("   (").append(why).append(')');
            }
            sb.append("\n").append(describeTxns(cycle));
            return sb.toString();
        }

        private String describeTxns(Collection<Long> ids) {
            StringBuilder sb = new StringBuilder("  where:");
            for (long id : ids) {
                TxnRecord r = txns.get(id);
                sb.append("\n    ").append(r == null ? Version.name(id) + " (not committed)" : r.toString());
            }
            return sb.toString();
        }

        private static String names(Collection<Long> ids) {
            List<String> n = new ArrayList<>();
            for (long id : ids) {
                n.add(Version.name(id));
            }
            return String.join(", ", n);
        }
    }
}
