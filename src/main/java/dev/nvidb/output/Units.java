package dev.nvidb.output;

import java.util.Locale;

/** Human formatting of the quantities tables show. */
public final class Units {

    private Units() {
    }

    /** MiB as "512M" or "23.2G"; a dash when unknown. */
    public static String mebibytes(Long mib) {
        if (mib == null) {
            return "-";
        }
        if (Math.abs(mib) < 1024) {
            return mib + "M";
        }
        return String.format(Locale.ROOT, "%.1fG", mib / 1024.0);
    }

    /** A percentage as "7%"; a dash when unknown. */
    public static String percent(Integer value) {
        return value == null ? "-" : value + "%";
    }

    /** Cuts {@code text} to {@code width} characters, marking the cut with an ellipsis. */
    public static String fit(String text, int width) {
        if (text == null) {
            return "-";
        }
        if (text.length() <= width) {
            return text;
        }
        return width <= 1 ? text.substring(0, width) : text.substring(0, width - 1) + "…";
    }
}
