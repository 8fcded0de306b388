package io.jato.records.processor;

import java.io.IOException;
import java.io.Writer;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.Messager;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.RoundEnvironment;
import javax.annotation.processing.SupportedAnnotationTypes;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.ElementFilter;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

/*
 * Design. One generated class per @TxRecord specification, written in the round that sees the
 * specification, from a RecordModel that holds only strings (elements are not reused across
 * rounds). Validation is compile errors through the Messager, each against the element at fault:
 * SpecReader's rules for specifications and their fields, UpdaterChecker's for updater classes.
 *
 * Updaters are checked in the last round, by name: an updater implements Account.Updater, a type
 * that does not exist until this processor has written Account, so in the round where both the
 * specification and the updater appear the updater's interface is still an error type. By the
 * last round every record of the compilation exists; a specification compiled earlier is read
 * from its class file (@TxRecord and @Group have class retention) without reporting.
 *
 * Updaters without their annotation (a plain class, an anonymous class, a lambda) have no
 * annotation to be found by: UpdaterUseChecker looks at javac's attributed trees instead, through
 * the Compiler Tree API (jdk.compiler), as each class finishes analysis.
 *
 * The processor claims its own annotations, so that -Xlint:processing does not list them as
 * unclaimed. It matches them by qualified name and has no dependency: the processor jar runs on
 * the processor path alone, and the runtime never sees java.compiler.
 */

/**
 * Generates the implementation of every {@code @TxRecord} specification and checks specifications,
 * groups and updaters: see {@link SpecReader}, {@link UpdaterChecker} and {@link UpdaterUseChecker}
 * for the rules. Register it
 * on the processor path ({@code annotationProcessorPaths} in Maven); it has no options.
 */
@SupportedAnnotationTypes({Names.TX_RECORD, Names.GROUP, Names.COMMUTATIVE, Names.COMMIT_UPDATER})
public final class RecordProcessor extends AbstractProcessor {
    /** Valid specifications' models (null if invalid), by the specification's qualified name. */
    private final Map<String, RecordModel> models = new HashMap<>();
    /** The specification (relative name) of each generated record, by the record's qualified name. */
    private final Map<String, String> generated = new HashMap<>();
    /** Updater classes seen so far, by qualified name, checked in the last round. */
    private final Set<String> updaters = new LinkedHashSet<>();
    private SpecReader reader;

    /** Creates the processor; javac does so through {@link java.util.ServiceLoader}. */
    public RecordProcessor() {
    }

    @Override
    public synchronized void init(ProcessingEnvironment env) {
        super.init(env);
        reader = new SpecReader(env.getElementUtils());
        UpdaterUseChecker.register(env);
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
        // The processor reads declarations only (classes, fields, annotations), which every
        // source version since 17 spells the same way.
        return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
        if (round.processingOver()) {
            checkUpdaters();
            return false;
        }
        for (TypeElement annotation : annotations) {
            String name = annotation.getQualifiedName().toString();
            Set<? extends Element> annotated = round.getElementsAnnotatedWith(annotation);
            if (name.equals(Names.TX_RECORD)) {
                for (TypeElement spec : ElementFilter.typesIn(annotated)) {
                    generate(spec);
                }
            } else if (name.equals(Names.GROUP)) {
                for (Element field : annotated) {
                    checkGroupPlacement(field);
                }
            } else {
                for (TypeElement updater : ElementFilter.typesIn(annotated)) {
                    updaters.add(updater.getQualifiedName().toString());
                }
            }
        }
        return true;
    }

    private void generate(TypeElement spec) {
        AnnotationMirror txRecord = Names.mirror(spec, Names.TX_RECORD);
        RecordModel model = reader.read(spec, txRecord, this::error);
        String specName = spec.getQualifiedName().toString();
        models.put(specName, model);
        if (model == null) {
            return;
        }
        String previous = generated.putIfAbsent(model.qualifiedName(), model.specName());
        if (previous != null) {
            error("@TxRecord " + model.specName() + " generates " + model.qualifiedName() + ", as " + previous
                    + " does; choose another name", spec, txRecord);
            models.put(specName, null);
            return;
        }
        try {
            JavaFileObject file = processingEnv.getFiler().createSourceFile(model.qualifiedName(), spec);
            try (Writer w = file.openWriter()) {
                w.write(RecordWriter.write(model, specName));
            }
        } catch (IOException e) {
            error("cannot write " + model.qualifiedName() + " for @TxRecord " + model.specName() + ": "
                    + e.getMessage(), spec, txRecord);
        }
    }

    /** A {@code @Group} outside a specification does nothing: most likely {@code @TxRecord} is missing. */
    private void checkGroupPlacement(Element field) {
        Element owner = field.getEnclosingElement();
        if (owner instanceof TypeElement && Names.mirror(owner, Names.TX_RECORD) == null) {
            String ownerName = Names.relativeName(processingEnv.getElementUtils(), (TypeElement) owner);
            error("@Group on " + ownerName + "." + field.getSimpleName() + " has no effect: " + ownerName
                    + " is not annotated @TxRecord", field, Names.mirror(field, Names.GROUP));
        }
    }

    private void checkUpdaters() {
        UpdaterChecker checker = new UpdaterChecker(processingEnv.getElementUtils(), processingEnv.getTypeUtils(),
                this::model, generated::get);
        for (String name : updaters) {
            TypeElement updater = processingEnv.getElementUtils().getTypeElement(name);
            if (updater != null) {
                checker.check(updater, this::error);
            }
        }
    }

    /** @return the model of {@code spec}, read quietly if it comes from a class file; null if invalid */
    private RecordModel model(TypeElement spec) {
        String name = spec.getQualifiedName().toString();
        if (!models.containsKey(name)) {
            models.put(name, reader.read(spec, Names.mirror(spec, Names.TX_RECORD), (message, element, a) -> { }));
        }
        return models.get(name);
    }

    private void error(String message, Element element, AnnotationMirror annotation) {
        Messager messager = processingEnv.getMessager();
        if (annotation == null) {
            messager.printMessage(Diagnostic.Kind.ERROR, message, element);
        } else {
            messager.printMessage(Diagnostic.Kind.ERROR, message, element, annotation);
        }
    }
}
