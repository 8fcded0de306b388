/**
 * Jato's annotation processor for {@code @TxRecord} specifications. On a plain processor path
 * javac finds it through {@code META-INF/services}; on a processor module path, through this
 * descriptor. It reads only the JDK's compiler modules: the {@code io.jato.records} annotations are
 * matched by name, so the processor needs no Jato jar beside it. {@code jdk.compiler}'s Compiler
 * Tree API finds updaters that lack their annotation (lambdas included) under javac.
 */
module io.jato.processor {
    requires java.compiler;
    requires jdk.compiler;

    provides javax.annotation.processing.Processor with io.jato.records.processor.RecordProcessor;
}
