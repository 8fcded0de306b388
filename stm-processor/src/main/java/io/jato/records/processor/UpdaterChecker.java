package io.jato.records.processor;

import io.jato.records.processor.SpecReader.Reporter;

import java.util.function.Function;

import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

/**
 * Checks a class annotated {@code @Commutative} or {@code @CommitUpdater}: it is a concrete class,
 * enum or Java record, not an inner class (an updater is plain data: it sees its parameters and
 * the image, not an enclosing instance); its {@code record} is a {@code @TxRecord} specification;
 * its {@code group} is one of that record's groups; and it implements the record's generated
 * {@code Updater} interface.
 *
 * <p>Runs in the last processing round, when the generated {@code Updater} types exist: an updater
 * is usually compiled together with the specification whose record is generated in round one.
 */
final class UpdaterChecker {
    private final Elements elements;
    private final Types types;
    /** The model of a specification; null if the specification is invalid. */
    private final Function<TypeElement, RecordModel> models;
    /** The specification (relative name) a record of this compilation was generated from, by its qualified name. */
    private final Function<String, String> specOfRecord;

    UpdaterChecker(Elements elements, Types types, Function<TypeElement, RecordModel> models,
            Function<String, String> specOfRecord) {
        this.elements = elements;
        this.types = types;
        this.models = models;
        this.specOfRecord = specOfRecord;
    }

    void check(TypeElement updater, Reporter report) {
        String name = Names.relativeName(elements, updater);
        AnnotationMirror commutative = Names.mirror(updater, Names.COMMUTATIVE);
        AnnotationMirror ordered = Names.mirror(updater, Names.COMMIT_UPDATER);
        if (commutative != null && ordered != null) {
            report.error("updater " + name + " is annotated both @Commutative and @CommitUpdater; keep one", updater,
                    ordered);
            return;
        }
        AnnotationMirror a = commutative != null ? commutative : ordered;
        if (a == null) {
            return;
        }
        ElementKind kind = updater.getKind();
        if (kind == ElementKind.INTERFACE || kind == ElementKind.ANNOTATION_TYPE) {
            report.error("updater " + name + " must be a class, enum or record, not " + SpecReader.kindName(kind),
                    updater, a);
            return;
        }
        if (kind == ElementKind.CLASS && updater.getModifiers().contains(Modifier.ABSTRACT)) {
            report.error("updater " + name + " must not be abstract: annotate the concrete class whose instances"
                    + " are applied", updater, a);
            return;
        }
        if (updater.getNestingKind() == NestingKind.MEMBER && !updater.getModifiers().contains(Modifier.STATIC)) {
            report.error("updater " + name + " must be a top-level or static nested class: an inner class captures"
                    + " its enclosing instance", updater, a);
            return;
        }
        Object value = Names.value(elements, a, "record");
        if (!(value instanceof TypeMirror) || ((TypeMirror) value).getKind() == TypeKind.ERROR) {
            return; // an unresolved class literal: javac reports it
        }
        TypeMirror target = (TypeMirror) value;
        TypeElement spec = target.getKind() == TypeKind.DECLARED
                ? (TypeElement) ((DeclaredType) target).asElement() : null;
        if (spec == null || Names.mirror(spec, Names.TX_RECORD) == null) {
            String generatedFrom = spec == null ? null : specOfRecord.apply(spec.getQualifiedName().toString());
            report.error("updater " + name + " is for an unknown record: " + (generatedFrom != null
                    ? Names.relativeName(elements, spec) + " is the generated class; name its specification, "
                            + generatedFrom
                    : target + " is not annotated @TxRecord"), updater, a);
            return;
        }
        RecordModel model = models.apply(spec);
        if (model == null) {
            return; // the specification's own errors are reported against it
        }
        String group = String.valueOf(Names.value(elements, a, "group"));
        if (model.group(group) == null) {
            report.error(group.equals(RecordModel.DEFAULT_GROUP)
                    ? "updater " + name + " names group 'default', which has no columns in " + model.specName()
                            + ": every column has a @Group; its groups: " + model.groupList()
                    : "updater " + name + " names group '" + group + "', which " + model.specName()
                            + " does not have; its groups: " + model.groupList(), updater, a);
            return;
        }
        TypeElement iface = elements.getTypeElement(model.qualifiedName() + ".Updater");
        TypeElement longIface = elements.getTypeElement(model.qualifiedName() + ".LongUpdater");
        if (iface != null && !implementsInterface(updater, iface)
                && (longIface == null || !implementsInterface(updater, longIface))) {
            report.error("updater " + name + " must implement " + model.name() + ".Updater or " + model.name()
                    + ".LongUpdater, the updater interfaces generated from " + model.specName(), updater, a);
        }
    }

    private boolean implementsInterface(TypeElement updater, TypeElement iface) {
        return types.isSubtype(types.erasure(updater.asType()), types.erasure(iface.asType()));
    }
}
