/**
 * Jato's annotation processor for {@code @TxRecord} specifications. On a plain processor path
 * javac finds it through {@code META-INF/services}; on a processor module path, through this
 * descriptor. It reads only {@code java.compiler}: the {@code io.jato.records} annotations are
 * matched by name, so the processor needs no Jato jar beside it.
 */
module io.jato.processor {
    requires java.compiler;

    provides javax.annotation.processing.Processor with io.jato.records.processor.RecordProcessor;
}
