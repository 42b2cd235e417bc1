package dev.nvidb.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The dashboard's secret: 128 random bits from {@link SecureRandom}, URL-safe Base64 without
 * padding (22 characters). Whoever shows it (in the URL, a cookie or a header) may read the
 * dashboard; it is compared in constant time, so the comparison tells nothing about how much of
 * a guess was right.
 */
public record AccessToken(String value) {

    public AccessToken {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("an access token is not empty");
        }
    }

    /** A fresh token. */
    public static AccessToken random() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return new AccessToken(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    }

    /** Whether {@code presented} is this token, in time that depends only on the lengths. */
    public boolean matches(String presented) {
        if (presented == null) {
            return false;
        }
        return MessageDigest.isEqual(value.getBytes(StandardCharsets.UTF_8), presented.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "AccessToken[…]";
    }
}
