package io.jato.records.processor;

import io.jato.records.processor.RecordModel.Column;
import io.jato.records.processor.RecordModel.Group;
import io.jato.records.processor.RecordModel.Kind;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Reads a {@code @TxRecord} specification into a {@link RecordModel}, reporting every rule it
 * breaks. The rules, and why:
 * <ul>
 * <li>The specification is a class (not an interface, enum or Java record, whose fields are final
 *     or constants), top-level or static, not private (the generated class names it), and extends
 *     nothing: a record's columns are exactly the fields it declares, so no column can come from
 *     two places.
 * <li>Columns are its non-static fields, in declaration order: a primitive, {@code String} or an
 *     enum (immutable values, because a group's version covers the reference), not final. Static
 *     fields are ignored, but a static field with {@code @Group} is an error: it looks like a column.
 * <li>A group name is a Java identifier; {@code @Group("default")} names the default group, the
 *     same as no annotation. Two names that generate the same {@code GROUP_} constant
 *     ({@code hotData}, {@code hot_data}) are an error: the second is almost certainly a typo for
 *     the first, and the class would not compile.
 * <li>Nothing the generated class declares may clash: a column named like a member the generated
 *     record or image inherits or adds ({@code stm}, {@code update}, {@code toString}), or two
 *     columns that give the same setter or constant ({@code foo}/{@code Foo}).
 * <li>1 to 64 columns (one {@code long} of dirty bits) and at most 32 groups (one {@code int} mask).
 * </ul>
 * Group numbering: the default group is 0 if any column is in it; named groups follow in order of
 * first appearance.
 */
final class SpecReader {
    /** Reports an error against an element and, optionally, one of its annotations. */
    interface Reporter {
        void error(String message, Element element, AnnotationMirror annotation);
    }

    private static final int MAX_COLUMNS = 64;
    private static final int MAX_GROUPS = 32;

    private final Elements elements;
    /** Public and protected members of the generated record: inherited from AbstractRecord, or added. */
    private final Set<String> recordMembers;
    /** The same for the generated image. */
    private final Set<String> imageMembers;

    SpecReader(Elements elements) {
        this.elements = elements;
        this.recordMembers = inheritedMembers(elements, Names.ABSTRACT_RECORD,
                "create", "update", "single", "IMAGES", "Image", "Single", "Updater", "LongUpdater");
        this.imageMembers = inheritedMembers(elements, Names.RECORD_IMAGE, "dirty", "clean");
    }

    private static Set<String> inheritedMembers(Elements elements, String type, String... generated) {
        Set<String> names = new HashSet<>(List.of(generated));
        TypeElement t = elements.getTypeElement(type);
        if (t != null) {
            for (Element m : elements.getAllMembers(t)) {
                Set<Modifier> mods = m.getModifiers();
                if (m.getKind() != ElementKind.CONSTRUCTOR
                        && (mods.contains(Modifier.PUBLIC) || mods.contains(Modifier.PROTECTED))) {
                    names.add(m.getSimpleName().toString());
                }
            }
        }
        return names;
    }

    /** One column while the specification is read: the model's column plus what messages need. */
    private record Field(VariableElement element, AnnotationMirror groupAnnotation, String name, String type,
            Kind kind, String group) {
    }

    /** @return the model, or null if {@code spec} breaks a rule (each broken rule is reported) */
    RecordModel read(TypeElement spec, AnnotationMirror txRecord, Reporter report) {
        String specName = Names.relativeName(elements, spec);
        if (spec.getKind() != ElementKind.CLASS) {
            report.error("@TxRecord must annotate a class; " + specName + " is " + kindName(spec.getKind()), spec,
                    txRecord);
            return null;
        }
        Counter counting = new Counter(report);
        checkPlacement(spec, specName, txRecord, counting);
        String pkg = Names.packageOf(elements, spec);
        String name = recordName(spec, specName, txRecord, counting);

        List<Field> fields = new ArrayList<>();
        for (VariableElement f : ElementFilter.fieldsIn(spec.getEnclosedElements())) {
            Field column = readField(f, specName, name == null ? "" : name, pkg, counting);
            if (column != null) {
                fields.add(column);
            }
        }
        if (counting.errors == 0 && fields.isEmpty()) {
            counting.error("@TxRecord " + specName + " declares no columns: give it at least one non-static field",
                    spec, txRecord);
        }
        if (fields.size() > MAX_COLUMNS) {
            counting.error("@TxRecord " + specName + " has " + fields.size() + " columns; a record has at most "
                    + MAX_COLUMNS, spec, txRecord);
        }
        List<String> groupNames = groupOrder(fields);
        if (groupNames.size() > MAX_GROUPS) {
            counting.error("@TxRecord " + specName + " has " + groupNames.size() + " groups; a record has at most "
                    + MAX_GROUPS, spec, txRecord);
        }
        checkClashes(fields, groupNames, specName, counting);
        if (counting.errors != 0 || name == null) {
            return null;
        }
        return model(pkg, name, specName, Names.typeRef(elements, spec, pkg, name), fields, groupNames);
    }

    /** Passes errors on and counts them. */
    private static final class Counter implements Reporter {
        private final Reporter target;
        int errors;

        Counter(Reporter target) {
            this.target = target;
        }

        @Override
        public void error(String message, Element element, AnnotationMirror annotation) {
            errors++;
            target.error(message, element, annotation);
        }
    }

    private void checkPlacement(TypeElement spec, String specName, AnnotationMirror txRecord, Reporter report) {
        NestingKind nesting = spec.getNestingKind();
        if (nesting == NestingKind.LOCAL || nesting == NestingKind.ANONYMOUS
                || nesting == NestingKind.MEMBER && !spec.getModifiers().contains(Modifier.STATIC)) {
            report.error("@TxRecord " + specName + " must be a top-level or static nested class", spec, txRecord);
        }
        for (Element e = spec; e instanceof TypeElement; e = e.getEnclosingElement()) {
            if (e.getModifiers().contains(Modifier.PRIVATE)) {
                report.error("@TxRecord " + specName + " must not be private: the generated class refers to it",
                        spec, txRecord);
                break;
            }
        }
        TypeMirror superclass = spec.getSuperclass();
        if (superclass.getKind() == TypeKind.DECLARED && !((TypeElement) ((DeclaredType) superclass).asElement())
                .getQualifiedName().contentEquals("java.lang.Object")) {
            report.error("@TxRecord " + specName + " must not extend " + superclass
                    + ": a record's columns are the fields declared in its specification", spec, txRecord);
        }
    }

    /** @return the generated class's simple name, or null if it is unusable (reported) */
    private String recordName(TypeElement spec, String specName, AnnotationMirror txRecord, Reporter report) {
        String given = String.valueOf(Names.value(elements, txRecord, "name"));
        String name = given.isEmpty() ? Names.defaultRecordName(spec.getSimpleName().toString()) : given;
        if (!SourceVersion.isIdentifier(name) || SourceVersion.isKeyword(name)) {
            report.error("@TxRecord " + specName + ": name '" + name + "' is not a valid Java class name", spec,
                    txRecord);
            return null;
        }
        Element top = spec;
        while (top.getEnclosingElement() instanceof TypeElement) {
            top = top.getEnclosingElement();
        }
        if (top.getSimpleName().contentEquals(name)) {
            report.error(top == spec
                    ? "@TxRecord " + specName + ": the generated class cannot have the specification's own name, "
                            + name + "; choose another name"
                    : "@TxRecord " + specName + ": the generated class cannot have the name of the specification's"
                            + " top-level class, " + name + "; choose another name", spec, txRecord);
            return null;
        }
        if (Names.USED_TYPE_NAMES.contains(name)) {
            report.error("@TxRecord " + specName + ": the generated name " + name
                    + " clashes with a type the generated code uses; choose another name", spec, txRecord);
            return null;
        }
        return name;
    }

    /** @return the column {@code f} declares, or null if it is not one (static) or breaks a rule (reported) */
    private Field readField(VariableElement f, String specName, String recordName, String pkg, Reporter report) {
        AnnotationMirror group = Names.mirror(f, Names.GROUP);
        String where = specName + "." + f.getSimpleName();
        Set<Modifier> mods = f.getModifiers();
        if (mods.contains(Modifier.STATIC)) {
            if (group != null) {
                report.error("static field " + where + " has @Group, but static fields are not columns", f, group);
            }
            return null;
        }
        String groupName = RecordModel.DEFAULT_GROUP;
        if (group != null) {
            groupName = String.valueOf(Names.value(elements, group, "value"));
            if (!SourceVersion.isIdentifier(groupName)) {
                report.error("group name '" + groupName + "' of column " + where + " is not a Java identifier", f,
                        group);
                return null;
            }
        }
        if (mods.contains(Modifier.FINAL)) {
            report.error("column " + where + " must not be final: transactions write every column", f, null);
            return null;
        }
        TypeMirror t = f.asType();
        Kind kind = columnKind(t);
        if (kind == null) {
            if (t.getKind() != TypeKind.ERROR) { // an unresolved type is javac's to report
                report.error("column " + where + " has unsupported type " + t
                        + ": use a primitive type, String or an enum", f, null);
            }
            return null;
        }
        String type = columnType(t, kind, pkg, recordName);
        if (t.getKind() == TypeKind.DECLARED && isPrivate(((DeclaredType) t).asElement())) {
            report.error("column " + where + " has type " + type
                    + ", which is private: the generated class cannot use it", f, null);
            return null;
        }
        String name = f.getSimpleName().toString();
        if (recordMembers.contains(name) || imageMembers.contains(name)) {
            String owner = recordMembers.contains(name) ? recordName : recordName + ".Image";
            report.error("column " + where + " clashes with member " + name + " of the generated " + owner
                    + "; rename the field", f, null);
            return null;
        }
        return new Field(f, group, name, type, kind, groupName);
    }

    /** @return the kind of a column of type {@code t}, or null if columns cannot have that type */
    private static Kind columnKind(TypeMirror t) {
        switch (t.getKind()) {
            case BOOLEAN:
            case BYTE:
            case SHORT:
            case CHAR:
            case INT:
            case LONG:
            case FLOAT:
            case DOUBLE:
                // TypeKind and Kind name the primitives alike.
                return Kind.valueOf(t.getKind().name());
            case DECLARED:
                TypeElement te = (TypeElement) ((DeclaredType) t).asElement();
                if (te.getQualifiedName().contentEquals("java.lang.String")) {
                    return Kind.STRING;
                }
                return te.getKind() == ElementKind.ENUM ? Kind.ENUM : null;
            default:
                return null;
        }
    }

    /** @return how the generated source writes type {@code t}, a column type of kind {@code kind} */
    private String columnType(TypeMirror t, Kind kind, String pkg, String recordName) {
        switch (kind) {
            case STRING:
                return "String";
            case ENUM:
                return Names.typeRef(elements, (TypeElement) ((DeclaredType) t).asElement(), pkg, recordName);
            default:
                return kind.name().toLowerCase(Locale.ROOT);
        }
    }

    private static boolean isPrivate(Element type) {
        for (Element e = type; e instanceof TypeElement; e = e.getEnclosingElement()) {
            if (e.getModifiers().contains(Modifier.PRIVATE)) {
                return true;
            }
        }
        return false;
    }

    /** @return group names in index order: the default group first if used, then by first appearance */
    private static List<String> groupOrder(List<Field> fields) {
        Set<String> order = new LinkedHashSet<>();
        for (Field f : fields) {
            if (f.group().equals(RecordModel.DEFAULT_GROUP)) {
                order.add(RecordModel.DEFAULT_GROUP);
                break;
            }
        }
        for (Field f : fields) {
            order.add(f.group());
        }
        return new ArrayList<>(order);
    }

    /** Reports generated names two declarations would both produce. */
    private static void checkClashes(List<Field> fields, List<String> groupNames, String specName, Reporter report) {
        Map<String, String> constants = new HashMap<>();
        for (String g : groupNames) {
            String previous = constants.putIfAbsent(Names.groupConstant(g), g);
            if (previous != null) {
                Field first = firstOf(fields, g);
                report.error("groups '" + previous + "' and '" + g + "' of " + specName + " both generate "
                        + Names.groupConstant(g) + "; rename one", first.element(), first.groupAnnotation());
            }
        }
        // Field and setter names of the generated record, and what generates each.
        Map<String, String> fieldNames = new HashMap<>();
        for (String g : groupNames) {
            fieldNames.putIfAbsent(Names.groupConstant(g), "group '" + g + "'");
        }
        Map<String, String> setters = new HashMap<>();
        for (Field f : fields) {
            String owner = "column " + f.name();
            String clash = claim(fieldNames, f.name(), owner);
            if (clash == null) {
                clash = claim(fieldNames, Names.columnConstant(f.name()), owner);
            }
            if (clash == null) {
                clash = claim(setters, Names.setter(f.name()), owner);
            }
            if (clash != null) {
                report.error("column " + specName + "." + f.name() + " clashes with " + clash + "; rename the field",
                        f.element(), null);
            }
        }
    }

    /** @return null if {@code name} is free or already {@code owner}'s, else "its owner: both generate name" */
    private static String claim(Map<String, String> names, String name, String owner) {
        String previous = names.putIfAbsent(name, owner);
        return previous == null || previous.equals(owner) ? null : previous + ": both generate " + name;
    }

    private static Field firstOf(List<Field> fields, String group) {
        for (Field f : fields) {
            if (f.group().equals(group)) {
                return f;
            }
        }
        throw new IllegalStateException("no column in group " + group);
    }

    private static RecordModel model(String pkg, String name, String specName, String specRef, List<Field> fields,
            List<String> groupNames) {
        Map<String, List<Column>> byGroup = new LinkedHashMap<>();
        for (String g : groupNames) {
            byGroup.put(g, new ArrayList<>());
        }
        List<Column> columns = new ArrayList<>(fields.size());
        for (Field f : fields) {
            Column c = new Column(f.name(), f.type(), f.kind(), columns.size(), groupNames.indexOf(f.group()));
            columns.add(c);
            byGroup.get(f.group()).add(c);
        }
        List<Group> groups = new ArrayList<>(groupNames.size());
        for (String g : groupNames) {
            groups.add(new Group(g, groups.size(), List.copyOf(byGroup.get(g))));
        }
        return new RecordModel(pkg, name, specName, specRef, List.copyOf(columns), List.copyOf(groups));
    }

    static String kindName(ElementKind kind) {
        switch (kind) {
            case INTERFACE:
                return "an interface";
            case ENUM:
                return "an enum";
            case ANNOTATION_TYPE:
                return "an annotation type";
            case RECORD:
                return "a record";
            default:
                return "a " + kind.name().toLowerCase(Locale.ROOT).replace('_', ' ');
        }
    }
}
