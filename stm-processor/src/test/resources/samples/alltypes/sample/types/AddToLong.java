package sample.types;

import io.jato.records.Commutative;

/** A commutative updater as a Java record. */
@Commutative(record = AllTypesSpec.class, group = "numbers")
public record AddToLong(long delta) implements AllTypes.Updater {
    @Override
    public void apply(AllTypes.Image image) {
        image.setL(image.l() + delta);
    }
}
