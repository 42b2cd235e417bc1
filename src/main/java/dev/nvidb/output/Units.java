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

    /** A file's size: "812 bytes", "3.4 KiB", "12.0 MiB", "1.2 GiB". */
    public static String fileSize(long bytes) {
        if (bytes < 1024) {
            return bytes + (bytes == 1 ? " byte" : " bytes");
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double value = bytes / 1024.0;
        int unit = 0;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
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
