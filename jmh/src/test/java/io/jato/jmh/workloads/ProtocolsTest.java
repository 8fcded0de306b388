package io.jato.jmh.workloads;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How one JMH parameter value names a store's protocols (JMH splits values at commas). */
class ProtocolsTest {
    @Test
    void aNameIsTheStoresProtocol() {
        assertEquals(List.of("--protocol", "tictoc"), Protocols.options("tictoc", "--table-protocols", ","));
    }

    @Test
    void bindingsAfterPlusSignsBecomeTheRunnersBindingOption() {
        assertEquals(List.of("--protocol", "occ", "--table-protocols", "stock=tictoc,customer=tictoc"),
                Protocols.options("occ+stock=tictoc+customer=tictoc", "--table-protocols", ","));
    }

    @Test
    void anEmptyBindingIsPassedOnForTheRunnerToRefuse() {
        assertEquals(List.of("--protocol", "occ", "--table-protocols", ""),
                Protocols.options("occ+", "--table-protocols", ","));
    }
}
