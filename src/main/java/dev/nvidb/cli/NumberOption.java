package dev.nvidb.cli;

import java.util.Locale;
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

    NumberOption(String what) {
        this.what = what;
    }

    @Override
    public T convert(String text) {
        String trimmed = text.strip();
        if (!(whole() ? WHOLE : DECIMAL).matcher(trimmed).matches()) {
            throw refused(text);
        }
        double value = Double.parseDouble(trimmed);
        if (!Double.isFinite(value) || value < min() || value > max()) {
            throw refused(text);
        }
        return of(trimmed, value);
    }

    private TypeConversionException refused(String text) {
        return new TypeConversionException("'" + text + "' is not " + what + " from " + format(min()) + " to "
                + format(max()));
    }

    private static String format(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value) : String.valueOf(value);
    }

    abstract boolean whole();

    abstract double min();

    abstract double max();

    abstract T of(String text, double value);

    /** Seconds between two passes of a loop ({@code --interval}, {@code --watch}): 0.01 s to a day. */
    static final class Interval extends NumberOption<Double> {
        Interval() {
            super("a number of seconds");
        }

        boolean whole() {
            return false;
        }

        double min() {
            return 0.01;
        }

        double max() {
            return 86_400;
        }

        Double of(String text, double value) {
            return value;
        }
    }

    /** Whole seconds a job may run or a wait may last ({@code --timeout}): 1 s to 10 years. */
    static final class Timeout extends NumberOption<Long> {
        Timeout() {
            super("a whole number of seconds");
        }

        boolean whole() {
            return true;
        }

        double min() {
            return 1;
        }

        double max() {
            return 315_360_000;
        }

        Long of(String text, double value) {
            return Long.parseLong(text);
        }
    }

    /** Whole seconds a wait may last ({@code job wait --timeout}, {@code --wait-timeout}): 0 (look once) to 10 years. */
    static final class WaitTimeout extends NumberOption<Long> {
        WaitTimeout() {
            super("a whole number of seconds");
        }

        boolean whole() {
            return true;
        }

        double min() {
            return 0;
        }

        double max() {
            return 315_360_000;
        }

        Long of(String text, double value) {
            return Long.parseLong(text);
        }
    }

    /** How many lines, jobs or retries ({@code -n}, {@code --logs}, {@code --recent}): 0 to a million. */
    static final class Count extends NumberOption<Integer> {
        Count() {
            super("a whole number");
        }

        boolean whole() {
            return true;
        }

        double min() {
            return 0;
        }

        double max() {
            return 1_000_000;
        }

        Integer of(String text, double value) {
            return Integer.parseInt(text);
        }
    }

    /** How many, at least one ({@code queue events -n}, {@code --up}, {@code --down}): 1 to a million. */
    static final class PositiveCount extends NumberOption<Integer> {
        PositiveCount() {
            super("a whole number");
        }

        boolean whole() {
            return true;
        }

        double min() {
            return 1;
        }

        double max() {
            return 1_000_000;
        }

        Integer of(String text, double value) {
            return Integer.parseInt(text);
        }
    }

    /** A position: a byte offset or an event id ({@code --offset}, {@code --since}), 0 or more. */
    static final class Position extends NumberOption<Long> {
        Position() {
            super("a whole number");
        }

        boolean whole() {
            return true;
        }

        double min() {
            return 0;
        }

        double max() {
            return 999_999_999_999_999_999.0;
        }

        Long of(String text, double value) {
            return Long.parseLong(text);
        }
    }
}
