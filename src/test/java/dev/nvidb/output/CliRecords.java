package dev.nvidb.output;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;

/**
 * Builds the command documents of {@link JsonCommands} by name through their canonical
 * constructors, so a golden test reads like the document it pins. A renamed record or a changed
 * component list fails loudly: that is a change of the JSON contract.
 */
final class CliRecords {

    private CliRecords() {
    }

    /** A new instance of the record {@code JsonCommands.<name>}. */
    static Object create(String name, Object... values) throws ReflectiveOperationException {
        Class<?> type = Class.forName(JsonCommands.class.getName() + "$" + name);
        RecordComponent[] components = type.getRecordComponents();
        if (components == null) {
            throw new IllegalArgumentException(type + " is not a record");
        }
        Class<?>[] types = Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new);
        Constructor<?> constructor = type.getDeclaredConstructor(types);
        constructor.setAccessible(true);
        return constructor.newInstance(values);
    }
}
