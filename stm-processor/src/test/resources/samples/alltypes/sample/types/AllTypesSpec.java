package sample.types;

import io.jato.records.Group;
import io.jato.records.TxRecord;

/**
 * Every supported column type; default-group columns interleaved with three named groups, one
 * camel-cased; column names a generated local could shadow ({@code c}, {@code value}).
 */
@TxRecord
public class AllTypesSpec {
    /** A nested enum column type. */
    public enum Color {
        RED, GREEN
    }

    /** Static fields are not columns. */
    static int ignored;

    boolean flag;
    @Group("numbers")
    byte b;
    @Group("numbers")
    short s;
    @Group("text")
    char ch;
    @Group("numbers")
    int c;
    @Group("numbers")
    long l;
    @Group("floatingPoint")
    float f;
    @Group("floatingPoint")
    double d;
    @Group("text")
    String value;
    Color color;
    @Group("text")
    Level level;
    @Group(Group.DEFAULT)
    int explicitlyDefault;
}
