/** Jato's transactional data types, built on the {@code io.jato.stm} SPI. */
module io.jato.collections {
    requires transitive io.jato.stm;

    exports io.jato.collections;
    exports io.jato.records;
}
