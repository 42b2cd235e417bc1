package dev.nvidb.tui.monitor;

import dev.nvidb.monitor.Capacity;
import dev.nvidb.model.GpuSnapshot;
import java.util.Locale;

/**
 * Which GPUs the unified view shows ({@code f} cycles, saved as {@code view.filter}): all, the
 * available ones (utilization under 5 % and VRAM under 10 %), the busy ones (utilization of 50 %
 * or more), or none at all but the nodes whose latest probe failed.
 */
public enum GpuFilter {
    ALL("all"),
    AVAILABLE("available"),
    BUSY("busy"),
    ERRORS("errors");

    private final String key;

    GpuFilter(String key) {
        this.key = key;
    }

    public String key() {
        return key;
    }

    public GpuFilter next() {
        return values()[(ordinal() + 1) % values().length];
    }

    /** The filter saved as {@code text}; all for anything unknown. */
    public static GpuFilter parse(String text) {
        for (GpuFilter filter : values()) {
            if (filter.key.equals(text == null ? "" : text.toLowerCase(Locale.ROOT))) {
                return filter;
            }
        }
        return ALL;
    }

    /** Whether this filter shows {@code gpu}. */
    boolean shows(GpuSnapshot gpu) {
        return switch (this) {
            case ALL -> true;
            case AVAILABLE -> available(gpu);
            case BUSY -> busy(gpu);
            case ERRORS -> false;
        };
    }

    /** Idle enough to take work (the shared definition: {@link Capacity#available}). */
    static boolean available(GpuSnapshot gpu) {
        return Capacity.available(gpu);
    }

    static boolean busy(GpuSnapshot gpu) {
        return Capacity.busy(gpu);
    }
}
