package dev.nvidb.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** This machine's short host name, read without a DNS lookup (which can stall start-up). */
public final class LocalHost {

    private LocalHost() {
    }

    public static String shortName() {
        String name = null;
        try {
            name = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            name = System.getenv("HOSTNAME");
        }
        if (name == null || name.isBlank()) {
            return "localhost";
        }
        int dot = name.indexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }
}
