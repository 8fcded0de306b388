package io.jato.records.processor;

import java.util.Locale;
import java.util.Set;

import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;

/** The names the processor matches and the names it generates. */
final class Names {
    static final String TX_RECORD = "io.jato.records.TxRecord";
    static final String GROUP = "io.jato.records.Group";
    static final String COMMUTATIVE = "io.jato.records.Commutative";
    static final String COMMIT_UPDATER = "io.jato.records.CommitUpdater";
    static final String ABSTRACT_RECORD = "io.jato.records.AbstractRecord";
    static final String RECORD_IMAGE = "io.jato.records.RecordImage";

    /**
     * Simple type names the generated source uses unqualified: its imports, its nested types and
     * the java.lang types it names. The generated class may not take one of these names, and a
     * column type or specification whose name starts with one is written fully qualified.
     */
    static final Set<String> USED_TYPE_NAMES = Set.of(
            "AbstractRecord", "ColumnInput", "ColumnOutput", "CommitUpdater", "Commutative", "RecordImage",
            "RecordLayout", "RecordLongUpdater", "RecordUpdater", "Stm", "Txn", "Entry", "Scratch", "TxnContext",
            "Image", "Single", "Updater", "LongUpdater",
            "String", "Object", "Class", "Override");

    private static final String SPEC_SUFFIX = "Spec";

    private Names() {
    }

    /** @return the default generated name: without a trailing {@code Spec}, else with {@code Record} appended */
    static String defaultRecordName(String specSimpleName) {
        if (specSimpleName.endsWith(SPEC_SUFFIX) && specSimpleName.length() > SPEC_SUFFIX.length()) {
            return specSimpleName.substring(0, specSimpleName.length() - SPEC_SUFFIX.length());
        }
        return specSimpleName + "Record";
    }

    /** @return the public index constant of group {@code name}: {@code hotData} gives {@code GROUP_HOT_DATA} */
    static String groupConstant(String name) {
        return "GROUP_" + upperSnake(name);
    }

    /** @return the private bit constant of column {@code name} */
    static String columnConstant(String name) {
        return "C_" + upperSnake(name);
    }

    /** @return the setter of column {@code name}: {@code setName} */
    static String setter(String name) {
        return "set" + name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
    }

    /** {@code lastLogin} gives {@code LAST_LOGIN}, {@code URLPath} gives {@code URL_PATH}. */
    static String upperSnake(String name) {
        StringBuilder b = new StringBuilder(name.length() + 4);
        for (int i = 0; i < name.length(); i++) {
            char ch = name.charAt(i);
            if (i > 0 && Character.isUpperCase(ch)) {
                char prev = name.charAt(i - 1);
                boolean wordEnds = Character.isLowerCase(prev) || Character.isDigit(prev);
                boolean acronymEnds = Character.isUpperCase(prev) && i + 1 < name.length()
                        && Character.isLowerCase(name.charAt(i + 1));
                if (wordEnds || acronymEnds) {
                    b.append('_');
                }
            }
            b.append(Character.toUpperCase(ch));
        }
        return b.toString();
    }

    /** @return the type's name relative to its package ({@code Outer.Inner}), for messages */
    static String relativeName(Elements elements, TypeElement type) {
        String qualified = type.getQualifiedName().toString();
        String pkg = packageOf(elements, type);
        return pkg.isEmpty() ? qualified : qualified.substring(pkg.length() + 1);
    }

    /**
     * @return how source in package {@code pkg} that declares class {@code recordName} refers to
     *         {@code type}: relative to the package when that name cannot be shadowed, else qualified
     */
    static String typeRef(Elements elements, TypeElement type, String pkg, String recordName) {
        if (!packageOf(elements, type).equals(pkg)) {
            return type.getQualifiedName().toString();
        }
        String relative = relativeName(elements, type);
        int dot = relative.indexOf('.');
        String first = dot < 0 ? relative : relative.substring(0, dot);
        boolean shadowed = USED_TYPE_NAMES.contains(first) || first.equals(recordName);
        return shadowed && !pkg.isEmpty() ? type.getQualifiedName().toString() : relative;
    }

    static String packageOf(Elements elements, Element e) {
        PackageElement p = elements.getPackageOf(e);
        return p.isUnnamed() ? "" : p.getQualifiedName().toString();
    }

    /** @return the annotation of type {@code annotation} (a qualified name) on {@code e}, or null */
    static AnnotationMirror mirror(Element e, String annotation) {
        for (AnnotationMirror m : e.getAnnotationMirrors()) {
            Element type = m.getAnnotationType().asElement();
            if (type instanceof TypeElement && ((TypeElement) type).getQualifiedName().contentEquals(annotation)) {
                return m;
            }
        }
        return null;
    }

    /** @return the value of {@code m}'s element {@code name}, its default if not given, or null */
    static Object value(Elements elements, AnnotationMirror m, String name) {
        for (var e : elements.getElementValuesWithDefaults(m).entrySet()) {
            ExecutableElement key = e.getKey();
            if (key.getSimpleName().contentEquals(name)) {
                AnnotationValue v = e.getValue();
                return v.getValue();
            }
        }
        return null;
    }
}
