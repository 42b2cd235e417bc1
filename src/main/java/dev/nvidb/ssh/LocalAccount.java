package dev.nvidb.ssh;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Who reads the ssh config on this machine, for {@code Match localuser}, the default remote
 * user and the tokens {@code %u %d %i %l %L}: the user ({@code $USER}) and home ({@code $HOME})
 * from nvidb's settings, the uid and host name from the system. (OpenSSH takes user and home
 * from the passwd entry; for a normal login they are the same.)
 */
record LocalAccount(String user, Path home, String uid, String hostname) {

    static LocalAccount of(SshSettings settings) {
        return new LocalAccount(settings.localUser(), settings.home(), systemUid(), systemHostname());
    }

    /** The host name up to its first dot ({@code %L}). */
    String shortHostname() {
        int dot = hostname.indexOf('.');
        return dot < 0 ? hostname : hostname.substring(0, dot);
    }

    private static String systemUid() {
        try {
            return String.valueOf(new com.sun.security.auth.module.UnixSystem().getUid());
        } catch (RuntimeException | LinkageError e) {
            return "-1";
        }
    }

    /** gethostname(2), read where Linux keeps it; elsewhere the JVM's idea of it. */
    private static String systemHostname() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException | RuntimeException e) {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (IOException unknown) {
                return "localhost";
            }
        }
    }
}
