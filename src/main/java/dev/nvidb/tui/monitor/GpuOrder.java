package dev.nvidb.tui.monitor;

import java.util.Comparator;
import java.util.Locale;

/**
 * How the unified view orders GPUs ({@code s} cycles, saved as {@code view.sort}): node order,
 * available GPUs first, or the busiest first. Ties keep node order.
 */
public enum GpuOrder {
    NODE("node", "node order"),
    AVAILABLE("available", "available first"),
    UTIL("util", "highest utilization");

    private final String key;
    private final String label;

    GpuOrder(String key, String label) {
        this.key = key;
        this.label = label;
    }

    public String key() {
        return key;
    }

    public String label() {
        return label;
    }

    public GpuOrder next() {
        return values()[(ordinal() + 1) % values().length];
    }

    /** The order saved as {@code text}; node order for anything unknown. */
    public static GpuOrder parse(String text) {
        for (GpuOrder order : values()) {
            if (order.key.equals(text == null ? "" : text.toLowerCase(Locale.ROOT))) {
                return order;
            }
        }
        return NODE;
    }

    /** Compares GPU rows that are already in node order (the sort is stable). */
    Comparator<GpuRow> comparator() {
        return switch (this) {
            case NODE -> (a, b) -> 0;
            case AVAILABLE -> Comparator.comparing((GpuRow row) -> !GpuFilter.available(row.gpu()));
            case UTIL -> Comparator.comparing((GpuRow row) -> row.gpu().utilPercent() == null ? -1 : row.gpu().utilPercent(),
                    Comparator.reverseOrder());
        };
    }
}
