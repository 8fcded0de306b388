package io.jato.records.processor;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.MemberReferenceTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TaskEvent;
import com.sun.source.util.TaskListener;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;

import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.Diagnostic;

/*
 * Why a task listener and not the processor's rounds: an annotation processor sees declarations,
 * not method bodies, and neither a class without annotations nor a lambda can be found through
 * the annotations it lacks. Before, both failed only at run time, when the record asked the
 * updater's class for its annotation (UpdaterInfo: "must be a class annotated @Commutative or
 * @CommitUpdater"). javac's Compiler Tree API lets the processor look at every class once javac has
 * attributed it (TaskEvent.Kind.ANALYZE), when the target type of each lambda and method reference
 * is known. The listener is registered only under javac (JavacTask.instance refuses other
 * compilers' environments: they keep the run-time check).
 */

/**
 * Reports, at compile time, updaters that cannot work: a concrete class implementing
 * {@code RecordUpdater} or {@code RecordLongUpdater} (a record's generated {@code Updater} or
 * {@code LongUpdater}) without {@code @Commutative} or {@code @CommitUpdater}, an anonymous class
 * implementing one, and a lambda or method reference given where one is expected. Each would throw
 * {@code IllegalArgumentException} when first applied: the annotation names the updater's group.
 */
final class UpdaterUseChecker implements TaskListener {
    static final String RECORD_UPDATER = "io.jato.records.RecordUpdater";
    static final String RECORD_LONG_UPDATER = "io.jato.records.RecordLongUpdater";

    private final Trees trees;
    private final Elements elements;
    private final Types types;

    private UpdaterUseChecker(Trees trees, Elements elements, Types types) {
        this.trees = trees;
        this.elements = elements;
        this.types = types;
    }

    /** Registers the checker with javac; does nothing under a compiler without the Compiler Tree API. */
    static void register(ProcessingEnvironment env) {
        JavacTask task;
        try {
            task = JavacTask.instance(env);
        } catch (IllegalArgumentException | LinkageError e) {
            return; // not javac: updaters are checked when first applied, as before
        }
        task.addTaskListener(new UpdaterUseChecker(Trees.instance(env), env.getElementUtils(), env.getTypeUtils()));
    }

    @Override
    public void finished(TaskEvent e) {
        if (e.getKind() != TaskEvent.Kind.ANALYZE || e.getTypeElement() == null) {
            return;
        }
        TypeElement updaterType = elements.getTypeElement(RECORD_UPDATER);
        if (updaterType == null) {
            return; // Jato's collections are not on the class path: nothing can be an updater
        }
        TypeElement longUpdaterType = elements.getTypeElement(RECORD_LONG_UPDATER);
        TreePath path = trees.getPath(e.getTypeElement());
        if (path != null) {
            new Scanner(e.getCompilationUnit(), types.erasure(updaterType.asType()),
                    longUpdaterType == null ? null : types.erasure(longUpdaterType.asType())).scan(path, null);
        }
    }

    /** Scans one top-level class's tree, nested and local classes included. */
    private final class Scanner extends TreePathScanner<Void, Void> {
        private final CompilationUnitTree unit;
        private final TypeMirror updater;
        /** {@code RecordLongUpdater}, or null with collections older than it on the class path. */
        private final TypeMirror longUpdater;

        Scanner(CompilationUnitTree unit, TypeMirror updater, TypeMirror longUpdater) {
            this.unit = unit;
            this.updater = updater;
            this.longUpdater = longUpdater;
        }

        @Override
        public Void visitClass(ClassTree tree, Void unused) {
            Element e = trees.getElement(getCurrentPath());
            if (e instanceof TypeElement && isUpdater(e.asType())) {
                checkClass((TypeElement) e, tree);
            }
            return super.visitClass(tree, unused);
        }

        @Override
        public Void visitLambdaExpression(LambdaExpressionTree tree, Void unused) {
            checkFunctional(tree, "a lambda");
            return super.visitLambdaExpression(tree, unused);
        }

        @Override
        public Void visitMemberReference(MemberReferenceTree tree, Void unused) {
            checkFunctional(tree, "a method reference");
            return super.visitMemberReference(tree, unused);
        }

        /** A lambda or method reference whose target type (known after attribution) is an updater. */
        private void checkFunctional(Tree tree, String what) {
            if (isUpdater(trees.getTypeMirror(getCurrentPath()))) {
                error("an updater cannot be " + what + ": a record updater is a class annotated @Commutative or"
                        + " @CommitUpdater, which names the group it updates; declare one (a static nested or"
                        + " top-level class)", tree);
            }
        }

        private void checkClass(TypeElement type, ClassTree tree) {
            if (type.getNestingKind() == NestingKind.ANONYMOUS) {
                error("an updater cannot be an anonymous class: it cannot carry @Commutative or @CommitUpdater,"
                        + " which name the group it updates; declare a static nested or top-level class", tree);
                return;
            }
            ElementKind kind = type.getKind();
            if (kind == ElementKind.INTERFACE || kind == ElementKind.ANNOTATION_TYPE
                    || type.getModifiers().contains(Modifier.ABSTRACT)
                    || Names.mirror(type, Names.COMMUTATIVE) != null
                    || Names.mirror(type, Names.COMMIT_UPDATER) != null) {
                return; // UpdaterChecker checks annotated updaters; abstract bases need no annotation
            }
            error("updater " + Names.relativeName(elements, type) + " implements "
                    + (isSubtype(type.asType(), updater) ? RECORD_UPDATER : RECORD_LONG_UPDATER) + " but is annotated neither @Commutative nor @CommitUpdater: annotate it with the record and"
                    + " group it updates", tree);
        }

        private boolean isUpdater(TypeMirror t) {
            return t != null && t.getKind() == TypeKind.DECLARED
                    && (isSubtype(t, updater) || longUpdater != null && isSubtype(t, longUpdater));
        }

        private boolean isSubtype(TypeMirror t, TypeMirror of) {
            return types.isSubtype(types.erasure(t), of);
        }

        private void error(String message, Tree tree) {
            trees.printMessage(Diagnostic.Kind.ERROR, message, tree, unit);
        }
    }
}
