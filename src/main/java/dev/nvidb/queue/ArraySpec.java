package dev.nvidb.queue;

import dev.nvidb.error.UsageException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An {@code --array} value: the cells' indices and the most that may run at once. Forms, joined
 * by commas: {@code N}, {@code A-B} (both ends included), {@code A-B:STEP}; then optionally
 * {@code %CAP}. {@code 0-99%8} is 100 cells, at most 8 running; {@code 1,3,5} three cells;
 * {@code 0-20:5} is 0, 5, 10, 15, 20. Indices are 0 to {@value #MAX_INDEX}, each at most once, and
 * an array has at most {@value #MAX_CELLS} cells.
 *
 * @param indices the cells, in the order written
 * @param cap     at most this many cells run at once, or null for no limit
 */
public record ArraySpec(List<Integer> indices, Integer cap) {

    /** The most cells one array may have. */
    public static final int MAX_CELLS = 10_000;
    /** The largest index. */
    public static final int MAX_INDEX = 1_000_000_000;

    private static final Pattern PART = Pattern.compile("(\\d{1,10})(?:-(\\d{1,10})(?::(\\d{1,10}))?)?");
    private static final String HINT = "--array takes A-B[:STEP][%CAP] or a list: 0-99%8, 0-20:5, 1,3,5";

    public ArraySpec {
        indices = List.copyOf(indices);
    }

    /** Parses {@code text}; a {@link UsageException} saying what is wrong otherwise. */
    public static ArraySpec parse(String text) {
        String body = text.strip();
        Integer cap = null;
        int percent = body.indexOf('%');
        if (percent >= 0) {
            String capText = body.substring(percent + 1);
            if (!capText.matches("\\d{1,9}") || Integer.parseInt(capText) == 0) {
                throw bad(text, "the cap after % must be a whole number of at least 1");
            }
            cap = Integer.parseInt(capText);
            body = body.substring(0, percent);
        }
        if (body.isEmpty()) {
            throw bad(text, "no indices");
        }
        Set<Integer> seen = new LinkedHashSet<>();
        for (String part : body.split(",", -1)) {
            Matcher matcher = PART.matcher(part.strip());
            if (!matcher.matches()) {
                throw bad(text, "'" + part + "' is not N, A-B or A-B:STEP");
            }
            long first = Long.parseLong(matcher.group(1));
            long last = matcher.group(2) == null ? first : Long.parseLong(matcher.group(2));
            long step = matcher.group(3) == null ? 1 : Long.parseLong(matcher.group(3));
            if (first > MAX_INDEX || last > MAX_INDEX) {
                throw bad(text, "indices go up to " + MAX_INDEX);
            }
            if (last < first) {
                throw bad(text, "'" + part + "' ends before it starts");
            }
            if (step == 0) {
                throw bad(text, "a step must be at least 1");
            }
            for (long index = first; index <= last; index += step) {
                if (!seen.add((int) index)) {
                    throw bad(text, "index " + index + " is given twice");
                }
                if (seen.size() > MAX_CELLS) {
                    throw new UsageException("--array " + text + " has more than " + MAX_CELLS + " cells",
                            "split it into several arrays of one --group, or use a step");
                }
            }
        }
        return new ArraySpec(new ArrayList<>(seen), cap);
    }

    private static UsageException bad(String text, String why) {
        return new UsageException("--array " + text + ": " + why, HINT);
    }
}
