package dev.nvidb.tui.monitor;

import java.util.List;

/** Block bars and sparklines, drawn with characters every terminal font has. */
final class Bars {

    private static final char[] LEVELS = {'▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'};

    private Bars() {
    }

    /** A bar {@code width} cells wide, filled to {@code percent}; blank when unknown. */
    static String bar(Integer percent, int width) {
        if (percent == null) {
            return " ".repeat(width);
        }
        int filled = (int) Math.round(Math.max(0, Math.min(100, percent)) * width / 100.0);
        return "█".repeat(filled) + "░".repeat(width - filled);
    }

    /**
     * The last {@code width} values as a sparkline scaled to {@code max} (null values are gaps);
     * shorter histories are padded on the left so the newest sample is always at the right.
     */
    static String sparkline(List<Double> values, double max, int width) {
        StringBuilder line = new StringBuilder();
        int from = Math.max(0, values.size() - width);
        line.append(" ".repeat(Math.max(0, width - (values.size() - from))));
        for (int i = from; i < values.size(); i++) {
            Double value = values.get(i);
            if (value == null || max <= 0) {
                line.append(' ');
                continue;
            }
            int level = (int) Math.round(Math.max(0, Math.min(1, value / max)) * (LEVELS.length - 1));
            line.append(LEVELS[level]);
        }
        return line.toString();
    }
}
