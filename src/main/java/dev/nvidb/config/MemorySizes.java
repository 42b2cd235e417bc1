package dev.nvidb.config;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Memory sizes as people write them: {@code 20G}, {@code 20GiB}, {@code 1.5g}, {@code 512M},
 * {@code 24576} (MiB). G and GB mean GiB, as GPU memory is counted in binary units everywhere it
 * is shown. The command line's {@code --vram} and a node's {@code policy.yml} read them alike.
 */
public final class MemorySizes {

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([kmgt]?)(?:i?b)?");
    /** The largest size accepted: 1 TiB of MiB, well past any card. */
    public static final long MAX_MIB = 1L << 40;

    private MemorySizes() {
    }

    /** The size in MiB (rounded up), or empty when {@code text} is not a size or is implausibly large. */
    public static OptionalLong mebibytes(String text) {
        String trimmed = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        Matcher matcher = SIZE.matcher(trimmed);
        if (!matcher.matches()) {
            return OptionalLong.empty();
        }
        BigDecimal number = new BigDecimal(matcher.group(1));
        BigDecimal factor = switch (matcher.group(2)) {
            case "k" -> BigDecimal.ONE.divide(BigDecimal.valueOf(1024));
            case "g" -> BigDecimal.valueOf(1024);
            case "t" -> BigDecimal.valueOf(1024L * 1024);
            default -> BigDecimal.ONE;
        };
        BigDecimal mebibytes = number.multiply(factor).setScale(0, RoundingMode.CEILING);
        return mebibytes.compareTo(BigDecimal.valueOf(MAX_MIB)) > 0 ? OptionalLong.empty()
                : OptionalLong.of(mebibytes.longValueExact());
    }

    /** Whether {@code text} has the shape of a size (it may still be too large). */
    public static boolean looksLikeSize(String text) {
        return text != null && SIZE.matcher(text.strip().toLowerCase(Locale.ROOT)).matches();
    }
}
