package dev.nvidb.web;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;

/**
 * A request's query parameters, read strictly: a number that is not one, or out of range, is a
 * 400 naming the parameter and what it takes, never a silent default.
 */
record Parameters(Map<String, String> values) {

    Parameters {
        values = Map.copyOf(values);
    }

    String text(String name) {
        String value = values.get(name);
        return value == null || value.isEmpty() ? null : value;
    }

    /** A whole number in [min, max], or null when absent. */
    Long whole(String name, long min, long max) {
        String value = text(name);
        if (value == null) {
            return null;
        }
        try {
            long number = Long.parseLong(value);
            if (number >= min && number <= max) {
                return number;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw ApiException.badRequest("parameter " + name + "=" + value + " is not a whole number from " + min + " to " + max);
    }

    /** A time as seconds since the epoch (fractions allowed) or ISO-8601 ({@code 2026-01-02T03:04:05Z}), or null. */
    Instant time(String name) {
        String value = text(name);
        if (value == null) {
            return null;
        }
        try {
            BigDecimal seconds = new BigDecimal(value);
            return Instant.ofEpochMilli(seconds.movePointRight(3).longValueExact());
        } catch (NumberFormatException | ArithmeticException e) {
            // not seconds; ISO below
        }
        try {
            return Instant.parse(value);
        } catch (java.time.format.DateTimeParseException e) {
            throw ApiException.badRequest("parameter " + name + "=" + value
                    + " is not a time: give seconds since the epoch or ISO-8601 like 2026-01-02T03:04:05Z");
        }
    }

    /** 0 or 1 (also false/true), or {@code otherwise} when absent. */
    boolean flag(String name, boolean otherwise) {
        String value = text(name);
        if (value == null) {
            return otherwise;
        }
        return switch (value) {
            case "1", "true" -> true;
            case "0", "false" -> false;
            default -> throw ApiException.badRequest("parameter " + name + "=" + value + " is not 0 or 1");
        };
    }
}
