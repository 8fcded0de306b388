package io.jato.records.processor;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * Every rule of {@link SpecReader} and {@link UpdaterChecker}: the exact error message, and that
 * javac reports it at the element (or annotation) it names. Also the accepted corner cases.
 */
class ValidationTest {
    /** A valid specification the updater cases refer to: groups default (owner) and hot (balance). */
    private static final String ACCOUNT_SPEC = "package p;\n"
            + "import io.jato.records.*;\n"
            + "@TxRecord\n"
            + "public class AccountSpec {\n"
            + "    String owner;\n"
            + "    @Group(\"hot\") long balance;\n"
            + "}\n";

    private static TestCompiler.Result spec(String body) {
        return TestCompiler.compile(Map.of("p/S.java", "package p;\nimport io.jato.records.*;\n" + body));
    }

    private static TestCompiler.Result withAccount(String updaterSource) {
        return TestCompiler.compile(Map.of("p/AccountSpec.java", ACCOUNT_SPEC, "p/U.java",
                "package p;\nimport io.jato.records.*;\n" + updaterSource));
    }

    // ---------------------------------------------------------------- specification

    @Test
    void specMustBeAClass() {
        spec("@TxRecord\ninterface S { }\n").assertOnlyError("@TxRecord must annotate a class; S is an interface",
                "@TxRecord");
        spec("@TxRecord\nenum S { A }\n").assertOnlyError("@TxRecord must annotate a class; S is an enum",
                "@TxRecord");
        spec("@TxRecord\nrecord S(int x) { }\n").assertOnlyError("@TxRecord must annotate a class; S is a record",
                "@TxRecord");
    }

    @Test
    void specMustBeStaticIfNested() {
        spec("class S {\n  @TxRecord\n  class InnerSpec { int x; }\n}\n").assertOnlyError(
                "@TxRecord S.InnerSpec must be a top-level or static nested class", "@TxRecord");
    }

    @Test
    void specMustNotBePrivate() {
        spec("class S {\n  @TxRecord\n  private static class HiddenSpec { int x; }\n}\n").assertOnlyError(
                "@TxRecord S.HiddenSpec must not be private: the generated class refers to it", "@TxRecord");
    }

    @Test
    void specMustNotExtend() {
        spec("class Base { int inherited; }\n@TxRecord\nclass S extends Base { int x; }\n").assertOnlyError(
                "@TxRecord S must not extend p.Base: a record's columns are the fields declared in its specification",
                "@TxRecord");
    }

    @Test
    void generatedNameMustBeAValidClassName() {
        spec("@TxRecord(name = \"not-a-name\")\nclass S { int x; }\n").assertOnlyError(
                "@TxRecord S: name 'not-a-name' is not a valid Java class name", "@TxRecord");
    }

    @Test
    void generatedNameMustNotBeTheSpecificationsName() {
        spec("@TxRecord(name = \"S\")\nclass S { int x; }\n").assertOnlyError(
                "@TxRecord S: the generated class cannot have the specification's own name, S; choose another name",
                "@TxRecord");
        spec("class S {\n  @TxRecord(name = \"S\")\n  static class NestedSpec { int x; }\n}\n").assertOnlyError(
                "@TxRecord S.NestedSpec: the generated class cannot have the name of the specification's top-level"
                        + " class, S; choose another name", "@TxRecord");
    }

    @Test
    void generatedNameMustNotShadowATypeTheCodeUses() {
        spec("@TxRecord(name = \"Txn\")\nclass S { int x; }\n").assertOnlyError(
                "@TxRecord S: the generated name Txn clashes with a type the generated code uses; choose another name",
                "@TxRecord");
    }

    @Test
    void twoSpecificationsMustNotGenerateOneClass() {
        TestCompiler.compile(Map.of(
                "p/ASpec.java", "package p;\n@io.jato.records.TxRecord(name = \"Same\")\nclass ASpec { int x; }\n",
                "p/BSpec.java", "package p;\n@io.jato.records.TxRecord(name = \"Same\")\nclass BSpec { int y; }\n"))
                .assertOnlyError("@TxRecord BSpec generates p.Same, as ASpec does; choose another name",
                        "@io.jato.records.TxRecord");
    }

    @Test
    void specNeedsAColumn() {
        spec("@TxRecord\nclass S { static int notAColumn; }\n").assertOnlyError(
                "@TxRecord S declares no columns: give it at least one non-static field", "@TxRecord");
    }

    @Test
    void atMost64Columns() {
        StringBuilder b = new StringBuilder("@TxRecord\nclass S {\n");
        for (int i = 0; i < 65; i++) {
            b.append("  int c").append(i).append(";\n");
        }
        spec(b.append("}\n").toString()).assertOnlyError("@TxRecord S has 65 columns; a record has at most 64",
                "@TxRecord");
    }

    @Test
    void atMost32Groups() {
        StringBuilder b = new StringBuilder("@TxRecord\nclass S {\n");
        for (int i = 0; i < 33; i++) {
            b.append("  @Group(\"g").append(i).append("\") int c").append(i).append(";\n");
        }
        spec(b.append("}\n").toString()).assertOnlyError("@TxRecord S has 33 groups; a record has at most 32",
                "@TxRecord");
    }

    // ---------------------------------------------------------------- columns and groups

    @Test
    void unsupportedColumnTypes() {
        TestCompiler.Result r = spec("@TxRecord\nclass S {\n  Integer boxed;\n  int[] array;\n"
                + "  java.util.List<String> list;\n  Object any;\n}\n");
        r.assertError("column S.boxed has unsupported type java.lang.Integer: use a primitive type, String or an enum",
                "Integer boxed;");
        r.assertError("column S.array has unsupported type int[]: use a primitive type, String or an enum",
                "int[] array;");
        r.assertError("column S.list has unsupported type java.util.List<java.lang.String>: use a primitive type,"
                + " String or an enum", "list;");
        r.assertError("column S.any has unsupported type java.lang.Object: use a primitive type, String or an enum",
                "Object any;");
    }

    @Test
    void columnMustNotBeFinal() {
        spec("@TxRecord\nclass S {\n  int x;\n  final int fixed = 1;\n}\n").assertOnlyError(
                "column S.fixed must not be final: transactions write every column", "final int fixed");
    }

    @Test
    void staticFieldMustNotHaveAGroup() {
        spec("@TxRecord\nclass S {\n  int x;\n  @Group(\"hot\") static int shared;\n}\n").assertOnlyError(
                "static field S.shared has @Group, but static fields are not columns", "@Group(\"hot\") static");
    }

    @Test
    void groupNameMustBeAnIdentifier() {
        spec("@TxRecord\nclass S {\n  @Group(\"\") int x;\n}\n").assertOnlyError(
                "group name '' of column S.x is not a Java identifier", "@Group(\"\")");
        spec("@TxRecord\nclass S {\n  @Group(\"hot data\") int x;\n}\n").assertOnlyError(
                "group name 'hot data' of column S.x is not a Java identifier", "@Group(\"hot data\")");
    }

    @Test
    void groupNamesMustNotGenerateOneConstant() {
        spec("@TxRecord\nclass S {\n  @Group(\"hotData\") int x;\n  @Group(\"hot_data\") int y;\n}\n")
                .assertOnlyError("groups 'hotData' and 'hot_data' of S both generate GROUP_HOT_DATA; rename one",
                        "@Group(\"hot_data\")");
    }

    @Test
    void columnMustNotClashWithGeneratedOrInheritedMembers() {
        spec("@TxRecord\nclass S {\n  int stm;\n}\n").assertOnlyError(
                "column S.stm clashes with member stm of the generated SRecord; rename the field", "int stm;");
        spec("@TxRecord\nclass S {\n  long update;\n}\n").assertOnlyError(
                "column S.update clashes with member update of the generated SRecord; rename the field", "update;");
        spec("@TxRecord\nclass S {\n  String toString;\n}\n").assertOnlyError(
                "column S.toString clashes with member toString of the generated SRecord; rename the field",
                "toString;");
        spec("@TxRecord\nclass S {\n  int checkOpen;\n}\n").assertOnlyError(
                "column S.checkOpen clashes with member checkOpen of the generated SRecord.Image; rename the field",
                "checkOpen;");
    }

    @Test
    void columnsMustNotGenerateOneName() {
        spec("@TxRecord\nclass S {\n  int foo;\n  int Foo;\n}\n").assertOnlyError(
                "column S.Foo clashes with column foo: both generate C_FOO; rename the field", "int Foo;");
        spec("@TxRecord\nclass S {\n  int aB;\n  int AB;\n}\n").assertOnlyError(
                "column S.AB clashes with column aB: both generate setAB; rename the field", "int AB;");
        spec("@TxRecord\nclass S {\n  int owner;\n  int C_OWNER;\n}\n").assertOnlyError(
                "column S.C_OWNER clashes with column owner: both generate C_OWNER; rename the field", "C_OWNER;");
        spec("@TxRecord\nclass S {\n  int GROUP_HOT;\n  @Group(\"hot\") int x;\n}\n").assertOnlyError(
                "column S.GROUP_HOT clashes with group 'hot': both generate GROUP_HOT; rename the field",
                "int GROUP_HOT;");
    }

    @Test
    void enumColumnMustBeVisible() {
        spec("@TxRecord\nclass S {\n  private enum Mood { UP }\n  Mood mood;\n}\n").assertOnlyError(
                "column S.mood has type S.Mood, which is private: the generated class cannot use it", "Mood mood;");
    }

    @Test
    void groupOutsideASpecification() {
        spec("class S {\n  @Group(\"hot\") int x;\n}\n").assertOnlyError(
                "@Group on S.x has no effect: S is not annotated @TxRecord", "@Group(\"hot\")");
    }

    // ---------------------------------------------------------------- updaters

    @Test
    void updaterWithBothAnnotations() {
        withAccount("@Commutative(record = AccountSpec.class, group = \"hot\")\n"
                + "@CommitUpdater(record = AccountSpec.class, group = \"hot\")\n"
                + "final class U implements Account.Updater { public void apply(Account.Image i) { } }\n")
                .assertOnlyError("updater U is annotated both @Commutative and @CommitUpdater; keep one",
                        "@CommitUpdater");
    }

    @Test
    void updaterMustBeConcrete() {
        withAccount("@Commutative(record = AccountSpec.class, group = \"hot\")\n"
                + "interface U extends Account.Updater { }\n")
                .assertOnlyError("updater U must be a class, enum or record, not an interface", "@Commutative");
        withAccount("@Commutative(record = AccountSpec.class, group = \"hot\")\n"
                + "abstract class U implements Account.Updater { }\n")
                .assertOnlyError("updater U must not be abstract: annotate the concrete class whose instances are"
                        + " applied", "@Commutative");
    }

    @Test
    void updaterMustNotBeAnInnerClass() {
        withAccount("class U {\n"
                + "  @Commutative(record = AccountSpec.class, group = \"hot\")\n"
                + "  final class Inner implements Account.Updater { public void apply(Account.Image i) { } }\n"
                + "}\n")
                .assertOnlyError("updater U.Inner must be a top-level or static nested class: an inner class captures"
                        + " its enclosing instance", "@Commutative");
    }

    @Test
    void updaterForAnUnknownRecord() {
        withAccount("@Commutative(record = String.class)\nfinal class U { }\n").assertOnlyError(
                "updater U is for an unknown record: java.lang.String is not annotated @TxRecord", "@Commutative");
        withAccount("@Commutative(record = Account.class, group = \"hot\")\n"
                + "final class U implements Account.Updater { public void apply(Account.Image i) { } }\n")
                .assertOnlyError("updater U is for an unknown record: Account is the generated class; name its"
                        + " specification, AccountSpec", "@Commutative");
    }

    @Test
    void updaterNamesAGroupTheRecordLacks() {
        withAccount("@CommitUpdater(record = AccountSpec.class, group = \"cold\")\n"
                + "final class U implements Account.Updater { public void apply(Account.Image i) { } }\n")
                .assertOnlyError("updater U names group 'cold', which AccountSpec does not have; its groups: default,"
                        + " hot", "@CommitUpdater");
    }

    @Test
    void updaterNamesTheDefaultGroupWithNoColumns() {
        TestCompiler.compile(Map.of(
                "p/GSpec.java", "package p;\nimport io.jato.records.*;\n"
                        + "@TxRecord\nclass GSpec {\n  @Group(\"a\") int x;\n  @Group(\"b\") int y;\n}\n",
                "p/U.java", "package p;\nimport io.jato.records.*;\n"
                        + "@Commutative(record = GSpec.class)\n"
                        + "final class U implements G.Updater { public void apply(G.Image i) { } }\n"))
                .assertOnlyError("updater U names group 'default', which has no columns in GSpec: every column has"
                        + " a @Group; its groups: a, b", "@Commutative");
    }

    @Test
    void updaterMustImplementTheGeneratedInterface() {
        withAccount("@Commutative(record = AccountSpec.class, group = \"hot\")\n"
                + "final class U implements Runnable { public void run() { } }\n")
                .assertOnlyError("updater U must implement Account.Updater or Account.LongUpdater, the updater"
                        + " interfaces generated from AccountSpec", "@Commutative");
    }

    @Test
    void longUpdaterIsCheckedLikeAnUpdater() {
        // Accepted: annotated, implementing the generated LongUpdater, used with its operand.
        withAccount("@Commutative(record = AccountSpec.class, group = \"hot\")\n"
                + "final class U implements Account.LongUpdater {\n"
                + "  public void apply(Account.Image i, long n) { i.setBalance(i.balance() + n); }\n"
                + "  static void use(io.jato.stm.Txn t, Account a) { a.update(t, new U(), 5); }\n"
                + "}\n").assertClean();
        withAccount("@CommitUpdater(record = AccountSpec.class, group = \"cold\")\n"
                + "final class U implements Account.LongUpdater { public void apply(Account.Image i, long n) { } }\n")
                .assertOnlyError("updater U names group 'cold', which AccountSpec does not have; its groups: default,"
                        + " hot", "@CommitUpdater");
        withAccount("final class U implements Account.LongUpdater { public void apply(Account.Image i, long n) { } }\n")
                .assertOnlyError("updater U implements io.jato.records.RecordLongUpdater but is annotated neither"
                        + " @Commutative nor @CommitUpdater: annotate it with the record and group it updates",
                        "final class U");
        withAccount("final class U {\n"
                + "  static void use(io.jato.stm.Txn t, Account a) {\n"
                + "    a.update(t, (image, n) -> image.setBalance(n), 3);\n"
                + "  }\n"
                + "}\n")
                .assertOnlyError("an updater cannot be a lambda: a record updater is a class annotated @Commutative or"
                        + " @CommitUpdater, which names the group it updates; declare one (a static nested or"
                        + " top-level class)", "(image, n) -> image.setBalance(n)");
    }

    // Updaters without their annotation: UpdaterUseChecker (before, each threw IllegalArgumentException
    // only when the record first applied it).

    @Test
    void updaterClassWithoutItsAnnotation() {
        withAccount("final class U implements Account.Updater { public void apply(Account.Image i) { } }\n")
                .assertOnlyError("updater U implements io.jato.records.RecordUpdater but is annotated neither"
                        + " @Commutative nor @CommitUpdater: annotate it with the record and group it updates",
                        "final class U");
        withAccount("class U {\n"
                + "  static final class Nested implements Account.Updater { public void apply(Account.Image i) { } }\n"
                + "}\n")
                .assertOnlyError("updater U.Nested implements io.jato.records.RecordUpdater but is annotated neither"
                        + " @Commutative nor @CommitUpdater: annotate it with the record and group it updates",
                        "class Nested");
    }

    @Test
    void updaterLambda() {
        withAccount("final class U {\n"
                + "  static void use(io.jato.stm.Txn t, Account a) {\n"
                + "    a.update(t, image -> image.setBalance(1));\n"
                + "  }\n"
                + "}\n")
                .assertOnlyError("an updater cannot be a lambda: a record updater is a class annotated @Commutative or"
                        + " @CommitUpdater, which names the group it updates; declare one (a static nested or"
                        + " top-level class)", "image -> image.setBalance(1)");
    }

    @Test
    void updaterMethodReference() {
        withAccount("final class U {\n"
                + "  static void zero(Account.Image image) { image.setBalance(0); }\n"
                + "  static void use(io.jato.stm.Txn t, Account a) {\n"
                + "    a.update(t, U::zero);\n"
                + "  }\n"
                + "}\n")
                .assertOnlyError("an updater cannot be a method reference: a record updater is a class annotated"
                        + " @Commutative or @CommitUpdater, which names the group it updates; declare one (a"
                        + " static nested or top-level class)", "U::zero");
    }

    @Test
    void updaterAnonymousClass() {
        withAccount("final class U {\n"
                + "  static void use(io.jato.stm.Txn t, Account a) {\n"
                + "    a.update(t, new Account.Updater() { public void apply(Account.Image i) { } });\n"
                + "  }\n"
                + "}\n")
                .assertOnlyError("an updater cannot be an anonymous class: it cannot carry @Commutative or"
                        + " @CommitUpdater, which name the group it updates; declare a static nested or top-level"
                        + " class", "new Account.Updater()");
    }

    @Test
    void unannotatedAbstractUpdaterBaseWithAnAnnotatedSubclassIsAccepted() {
        withAccount("abstract class Base implements Account.Updater { }\n"
                + "@Commutative(record = AccountSpec.class, group = \"hot\")\n"
                + "final class U extends Base { public void apply(Account.Image i) { } }\n"
                + "final class Use {\n"
                + "  static void use(io.jato.stm.Txn t, Account a) { a.update(t, new U()); }\n"
                + "}\n")
                .assertClean();
    }

    // ---------------------------------------------------------------- accepted

    @Test
    void acceptsNestedSpecificationsAndShadowingTypeNames() {
        // A static nested specification; an enum column type named like the generated Image.
        TestCompiler.Result r = TestCompiler.compile(Map.of(
                "p/Image.java", "package p;\npublic enum Image { SMALL, LARGE }\n",
                "p/Outer.java", "package p;\nimport io.jato.records.*;\n"
                        + "public class Outer {\n  @TxRecord\n  public static class PhotoSpec { Image size; }\n}\n"))
                .assertClean();
        String source = r.source("p.Photo");
        assertTrue(source.contains("private p.Image size;"), source);
        assertTrue(source.contains("return Outer.PhotoSpec.class;"), source);
    }

    @Test
    void acceptsTheUnnamedPackage() {
        TestCompiler.compile(Map.of("PointSpec.java", "@io.jato.records.TxRecord\nclass PointSpec { int x; int y; }\n"))
                .assertClean().source("Point");
    }

    @Test
    void checksUpdatersAgainstASpecificationFromAClassFile() throws Exception {
        TestCompiler.Result first = TestCompiler.compile(Map.of("p/AccountSpec.java", ACCOUNT_SPEC)).assertClean();
        assertTrue(Files.exists(first.classes.resolve("p/Account.class")));
        String good = "package p;\nimport io.jato.records.*;\n"
                + "@Commutative(record = AccountSpec.class, group = \"hot\")\n"
                + "final class Good implements Account.Updater { public void apply(Account.Image i) { } }\n";
        String bad = "package p;\nimport io.jato.records.*;\n"
                + "@Commutative(record = AccountSpec.class, group = \"cold\")\n"
                + "final class Bad implements Account.Updater { public void apply(Account.Image i) { } }\n";
        TestCompiler.compile(Map.of("p/Good.java", good), List.of(first.classes)).assertClean();
        TestCompiler.compile(Map.of("p/Bad.java", bad), List.of(first.classes)).assertOnlyError(
                "updater Bad names group 'cold', which AccountSpec does not have; its groups: default, hot",
                "@Commutative");
    }
}
