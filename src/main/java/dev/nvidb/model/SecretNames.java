package dev.nvidb.model;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Which environment variables hold credentials, judged by name: their values never appear in
 * any output unless the owner asks ({@code job show --reveal}). The rule errs on the side of
 * masking: a name containing TOKEN, SECRET, PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL, API_KEY,
 * APIKEY, ACCESS_KEY, PRIVATE_KEY, AUTH or COOKIE, or ending in {@code _KEY}, {@code _PAT} or
 * {@code _DSN}, whatever its case.
 */
public final class SecretNames {

    /** What a masked value prints as. */
    public static final String MASK = "******";

    private static final List<String> PARTS = List.of("TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE",
            "CREDENTIAL", "API_KEY", "APIKEY", "ACCESS_KEY", "PRIVATE_KEY", "AUTH", "COOKIE");
    private static final List<String> ENDINGS = List.of("_KEY", "_PAT", "_DSN");

    private SecretNames() {
    }

    /** True when a variable of this name probably holds a credential. */
    public static boolean looksSecret(String name) {
        String upper = name.toUpperCase(Locale.ROOT).replace('-', '_');
        return PARTS.stream().anyMatch(upper::contains) || ENDINGS.stream().anyMatch(upper::endsWith);
    }

    /** {@code value}, or {@link #MASK} when {@code name} looks like a credential and not {@code reveal}. */
    public static String shown(String name, String value, boolean reveal) {
        return reveal || !looksSecret(name) ? value : MASK;
    }

    /** The variables with credential values masked (unless {@code reveal}), in their order. */
    public static Map<String, String> masked(Map<String, String> environment, boolean reveal) {
        return environment.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                entry -> shown(entry.getKey(), entry.getValue(), reveal), (a, b) -> a, java.util.LinkedHashMap::new));
    }
}
