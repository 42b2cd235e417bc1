package dev.nvidb.config;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * Picks the valid key a mistyped one most likely meant, by edit distance (a swap of two
 * neighbouring letters counts as one edit), ignoring case and {@code -}/{@code _}. A typed key of
 * three or more letters that starts a valid one ({@code host} for {@code hostname}) is preferred.
 */
final class KeySuggester {

    private KeySuggester() {
    }

    /** The closest of {@code valid} to {@code typed}, if it is close enough to be a plausible typo. */
    static Optional<String> closest(String typed, Collection<String> valid) {
        String wanted = normalize(typed);
        if (wanted.length() >= 3) {
            Optional<String> extended = valid.stream().filter(c -> normalize(c).startsWith(wanted)).findFirst();
            if (extended.isPresent()) {
                return extended;
            }
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : valid) {
            int distance = distance(wanted, normalize(candidate));
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return best != null && bestDistance <= allowed(wanted.length()) ? Optional.of(best) : Optional.empty();
    }

    private static int allowed(int length) {
        if (length <= 3) {
            return 1;
        }
        return length <= 6 ? 2 : 3;
    }

    private static String normalize(String key) {
        return key.toLowerCase(Locale.ROOT).replace('-', '_');
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
