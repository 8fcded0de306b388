package sample.types;

import io.jato.records.CommitUpdater;

/** An updater of the default group, named implicitly. */
@CommitUpdater(record = AllTypesSpec.class)
public final class Recolor implements AllTypes.Updater {
    private final AllTypesSpec.Color color;

    public Recolor(AllTypesSpec.Color color) {
        this.color = color;
    }

    @Override
    public void apply(AllTypes.Image image) {
        image.setColor(color).setExplicitlyDefault(image.explicitlyDefault() + 1);
    }
}
