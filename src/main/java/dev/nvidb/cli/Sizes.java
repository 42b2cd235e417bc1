package dev.nvidb.cli;

import dev.nvidb.error.UsageException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads memory sizes typed on the command line: {@code 20G}, {@code 20GiB}, {@code 1.5g},
 * {@code 512M}, {@code 24576} (MiB). G and GB mean GiB here, as GPU memory is counted in
 * binary units everywhere it is shown.
 */
final class Sizes {

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([kmgt]?)(?:i?b)?");

    private Sizes() {
    }

    /** The size in MiB, or a usage error naming {@code option} and what was typed. */
    static long mebibytes(String text, String option) {
        String trimmed = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        Matcher matcher = SIZE.matcher(trimmed);
        if (!matcher.matches()) {
            throw new UsageException(option + " takes a size such as 20G, 512M or 24576 (MiB), got '" + text + "'",
                    trimmed.startsWith("-") ? "a size cannot be negative" : null);
        }
        BigDecimal number = new BigDecimal(matcher.group(1));
        BigDecimal factor = switch (matcher.group(2)) {
            case "k" -> BigDecimal.ONE.divide(BigDecimal.valueOf(1024));
            case "g" -> BigDecimal.valueOf(1024);
            case "t" -> BigDecimal.valueOf(1024L * 1024);
            default -> BigDecimal.ONE;
        };
        BigDecimal mebibytes = number.multiply(factor).setScale(0, RoundingMode.CEILING);
        if (mebibytes.compareTo(BigDecimal.valueOf(1L << 40)) > 0) {
            throw new UsageException(option + " is implausibly large: '" + text + "'");
        }
        return mebibytes.longValueExact();
    }
}
