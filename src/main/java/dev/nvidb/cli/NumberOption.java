package dev.nvidb.cli;

import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The one converter of every numeric option: a plain decimal number within the option's range,
 * or a usage error ({@code Invalid value for option '--interval': 'NaN' is not a number of
 * seconds from 0.01 to 86400}). NaN, infinities, hexadecimal and type suffixes ({@code 1d}) are
 * never numbers here, and a value outside the range is refused rather than clamped, so no loop
 * can spin without pausing or sleep for ever. Each nested class is one kind of option, named in
 * its {@code @Option(converter = ...)}.
 */
abstract class NumberOption<T> implements ITypeConverter<T> {

    /** Digits with an optional fraction and exponent: what a person types as a number. */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern WHOLE = Pattern.compile("[+-]?\\d{1,18}");

    private final String what;
    private final boolean whole;
    private final double min;
    private final double max;
    private final Function<String, T> parse;

    /**
     * @param what  what a value is, for the refusal ("a whole number of seconds")
     * @param whole whether only whole numbers are accepted (then {@code parse} gets digits only)
     * @param parse the value of a checked text
     */
    NumberOption(String what, boolean whole, double min, double max, Function<String, T> parse) {
        this.what = what;
        this.whole = whole;
        this.min = min;
        this.max = max;
        this.parse = parse;
    }

    @Override
    public T convert(String text) {
        String trimmed = text.strip();
        if (!(whole ? WHOLE : DECIMAL).matcher(trimmed).matches()) {
            throw refused(text);
        }
        double value = Double.parseDouble(trimmed);
        if (!Double.isFinite(value) || value < min || value > max) {
            throw refused(text);
        }
        return parse.apply(trimmed);
    }

    private TypeConversionException refused(String text) {
        return new TypeConversionException("'" + text + "' is not " + what + " from " + format(min) + " to "
                + format(max));
    }

    private static String format(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value) : String.valueOf(value);
    }

    private static final double TEN_YEARS = 315_360_000;
    private static final double MILLION = 1_000_000;

    /** A TCP port to listen on ({@code nvidb web --port}): 1 to 65535. */
    static final class Port extends NumberOption<Integer> {
        Port() {
            super("a port number", true, 1, 65_535, Integer::parseInt);
        }
    }

    /** Seconds between two passes of a loop ({@code --interval}, {@code --watch}): 0.01 s to a day. */
    static final class Interval extends NumberOption<Double> {
        Interval() {
            super("a number of seconds", false, 0.01, 86_400, Double::parseDouble);
        }
    }

    /** Whole seconds a job may run ({@code --timeout}): 1 s to 10 years. */
    static final class Timeout extends NumberOption<Long> {
        Timeout() {
            super("a whole number of seconds", true, 1, TEN_YEARS, Long::parseLong);
        }
    }

    /** Whole seconds a wait may last ({@code job wait --timeout}, {@code --wait-timeout}): 0 (look once) to 10 years. */
    static final class WaitTimeout extends NumberOption<Long> {
        WaitTimeout() {
            super("a whole number of seconds", true, 0, TEN_YEARS, Long::parseLong);
        }
    }

    /** How many lines, jobs or retries ({@code -n}, {@code --logs}, {@code --recent}): 0 to a million. */
    static final class Count extends NumberOption<Integer> {
        Count() {
            super("a whole number", true, 0, MILLION, Integer::parseInt);
        }
    }

    /** OOM retries ({@code job submit --retry-oom}): 0 to {@link dev.nvidb.model.RunPolicy#MAX_RETRY_OOM}. */
    static final class RetryOom extends NumberOption<Integer> {
        RetryOom() {
            super("a whole number", true, 0, dev.nvidb.model.RunPolicy.MAX_RETRY_OOM, Integer::parseInt);
        }
    }

    /** How many, at least one ({@code queue events -n}, {@code --up}, {@code --down}): 1 to a million. */
    static final class PositiveCount extends NumberOption<Integer> {
        PositiveCount() {
            super("a whole number", true, 1, MILLION, Integer::parseInt);
        }
    }

    /** A position: a byte offset or an event id ({@code --offset}, {@code --since}), 0 or more. */
    static final class Position extends NumberOption<Long> {
        Position() {
            super("a whole number", true, 0, 999_999_999_999_999_999.0, Long::parseLong);
        }
    }
}
