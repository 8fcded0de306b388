package sample.types;

import io.jato.records.CommitUpdater;

/** An ordered updater as an enum constant. */
@CommitUpdater(record = AllTypesSpec.class, group = "text")
public enum AppendBang implements AllTypes.Updater {
    INSTANCE;

    @Override
    public void apply(AllTypes.Image image) {
        image.setValue(image.value() + "!");
    }
}
