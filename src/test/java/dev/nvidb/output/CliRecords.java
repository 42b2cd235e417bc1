package dev.nvidb.output;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;

/**
 * Builds the JSON records that live beside their commands in {@code dev.nvidb.cli} (package
 * private there), so their shape is pinned here with the others. A renamed record or a changed
 * component list fails loudly: that is a change of the JSON contract.
 */
final class CliRecords {

    private CliRecords() {
    }

    /** A new instance of the record {@code dev.nvidb.cli.<name>} (nested names with {@code $}). */
    static Object create(String name, Object... values) throws ReflectiveOperationException {
        Class<?> type = Class.forName("dev.nvidb.cli." + name);
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
