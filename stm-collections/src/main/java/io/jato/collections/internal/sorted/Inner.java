package io.jato.collections.internal.sorted;

/**
 * An inner node: {@code count} separators and {@code count + 1} children. Child {@code i} holds the
 * keys {@code k} with {@code sep[i-1] <= k < sep[i]}. Not transactional: the versions that matter
 * for phantoms are the leaves'.
 */
final class Inner extends Node {
    Node[] children;

    Inner(int level, boolean longKeys, int capacity, int domain) {
        super(level, longKeys, capacity, domain);
        children = new Node[capacity + 1];
    }
}
