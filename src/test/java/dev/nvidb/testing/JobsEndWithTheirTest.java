package dev.nvidb.testing;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;

/**
 * Registered for every test (junit-platform.properties): before a test's temporary directories
 * are deleted, waits until no detached process works in them any more — a job's wrapper that a
 * tick launched on the local node writes its exit file a moment after the command ends, and a
 * directory deleted under it fails the test that is already over. A process still there after
 * {@link #GRACE_MS} is killed with its session, and said so on stderr: a test should not leave
 * jobs running.
 *
 * <p>Processes this JVM started itself (an SSH server, an agent) are the test's own to stop and
 * are not touched; only orphans (the wrappers detach) whose working directory lies under one of
 * the test instance's {@code @TempDir} fields are.
 */
public final class JobsEndWithTheirTest implements AfterEachCallback {

    static final long GRACE_MS = 5_000;

    @Override
    public void afterEach(ExtensionContext context) {
        List<Path> roots = context.getTestInstance().map(JobsEndWithTheirTest::tempDirs).orElse(List.of());
        if (roots.isEmpty()) {
            return;
        }
        if (awaitNone(roots, GRACE_MS)) {
            return;
        }
        Optional<Long> own = session(ProcessHandle.current().pid());
        for (ProcessHandle process : strays(roots)) {
            System.err.println("a process outlived its test " + context.getDisplayName() + " and is killed: "
                    + process.pid() + " " + commandLine(process.pid()));
            session(process.pid()).filter(session -> !session.equals(own.orElse(null)))
                    .ifPresent(session -> kill("pkill", "-KILL", "-s", String.valueOf(session)));
            process.destroyForcibly();
        }
        awaitNone(roots, GRACE_MS);
    }

    private static boolean awaitNone(List<Path> roots, long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (!strays(roots).isEmpty()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(20); // a poll with a deadline
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Live processes, not this JVM's descendants, whose working directory lies under one of {@code roots}. */
    static List<ProcessHandle> strays(List<Path> roots) {
        ProcessHandle self = ProcessHandle.current();
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            return all.filter(process -> process.pid() != self.pid())
                    .filter(process -> underAny(cwd(process.pid()), roots))
                    .filter(process -> !descends(process, self))
                    .filter(process -> !zombie(process.pid()))
                    .toList();
        }
    }

    private static List<Path> tempDirs(Object instance) {
        List<Path> roots = new ArrayList<>();
        for (Class<?> type = instance.getClass(); type != null && type != Object.class; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (field.isAnnotationPresent(TempDir.class) && Path.class.isAssignableFrom(field.getType())) {
                    try {
                        field.setAccessible(true);
                        Object value = field.get(java.lang.reflect.Modifier.isStatic(field.getModifiers()) ? null : instance);
                        if (value != null) {
                            roots.add(((Path) value).toAbsolutePath().normalize());
                        }
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        // a field we cannot read holds nothing we could wait for
                    }
                }
            }
        }
        return roots;
    }

    private static boolean underAny(Path directory, List<Path> roots) {
        return directory != null && roots.stream().anyMatch(directory::startsWith);
    }

    private static boolean descends(ProcessHandle process, ProcessHandle ancestor) {
        for (Optional<ProcessHandle> parent = process.parent(); parent.isPresent(); parent = parent.get().parent()) {
            if (parent.get().pid() == ancestor.pid()) {
                return true;
            }
        }
        return false;
    }

    private static Path cwd(long pid) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/" + pid + "/cwd"));
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return null; // gone, or another user's
        }
    }

    private static String stat(long pid) {
        try {
            return Files.readString(Path.of("/proc/" + pid + "/stat"), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return "";
        }
    }

    private static boolean zombie(long pid) {
        String stat = stat(pid);
        int end = stat.lastIndexOf(')');
        return end < 0 || end + 2 >= stat.length() || stat.charAt(end + 2) == 'Z';
    }

    /** The session id (field 6 of /proc/PID/stat), empty once the process is gone. */
    private static Optional<Long> session(long pid) {
        String stat = stat(pid);
        int end = stat.lastIndexOf(')');
        if (end < 0) {
            return Optional.empty();
        }
        String[] fields = stat.substring(end + 2).split(" ");
        try {
            return fields.length > 3 ? Optional.of(Long.parseLong(fields[3])) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String commandLine(long pid) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8)
                    .replace('\0', ' ').trim();
        } catch (IOException e) {
            return "";
        }
    }

    private static void kill(String... command) {
        try {
            new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start().waitFor();
        } catch (IOException e) {
            // pkill missing: destroyForcibly below still ends the process itself
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
