package dev.nvidb.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A shared install (issue 6, item 12): one account builds nvidb, others run it. A copy of the
 * built tree (launcher, sources, jar, class-data archive, native library), owned by one test
 * user, is run by a second one who cannot write it: it starts with the archive, loads SQLite's
 * native library from the install without extracting it, never tries to build, and changes
 * nothing in the install. Needs root (to create the users and run as them).
 */
class SharedInstallIT {

    private static final String OWNER = "nvidbt20";
    private static final String OTHER = "nvidbt21";
    private static Path install;
    private static Path otherHome;
    private static Path ownerHome;

    @BeforeAll
    static void copyTheBuiltInstall() throws Exception {
        Prerequisites.requireOpenSsh();   // root, for the users
        Path project = Path.of(System.getProperty("nvidb.project.dir", ".")).toAbsolutePath();
        Path build = Path.of(System.getProperty("nvidb.build.dir", project.resolve("target").toString()));
        ownerHome = OpenSshHost.ensureUser(OWNER);
        otherHome = OpenSshHost.ensureUser(OTHER);
        OpenSshHost.run("rm", "-rf", otherHome.resolve(".nvidb").toString());   // a queue from an earlier run
        Files.createDirectories(OpenSshHost.SHARED);
        install = Files.createTempDirectory(OpenSshHost.SHARED, "install-");
        Files.setPosixFilePermissions(install, PosixFilePermissions.fromString("rwxr-xr-x"));
        for (String part : List.of("bin", "pom.xml", "src/main", "src/cds", "remote-agent", "mvnw", ".mvn")) {
            if (Files.exists(project.resolve(part))) {
                Files.createDirectories(install.resolve(part).getParent());
                OpenSshHost.run("cp", "-a", project.resolve(part).toString(), install.resolve(part).toString());
            }
        }
        Path target = Files.createDirectories(install.resolve("target"));
        for (String part : List.of("nvidb.jar", "nvidb.jsa", "nvidb.jsa.path", "native")) {
            assertTrue(Files.exists(build.resolve(part)), "the build made " + build.resolve(part));
        }
        OpenSshHost.run("cp", "-a", build.resolve("nvidb.jar").toString(), target.resolve("nvidb.jar").toString());
        // The archive fits only the jar where it was made (JDK 17), so the copy gets its own, as
        // an owner's build in this place would make it: the package phase's last step.
        Path sshdCore = Path.of(org.apache.sshd.server.SshServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        OpenSshHost.run("bash", install.resolve("src/cds/train.sh").toString(), System.getProperty("java.home"),
                target.toString(), sshdCore.toString());
        assertTrue(Files.exists(target.resolve("nvidb.jsa")), "train.sh made the archive");
        OpenSshHost.run("chown", "-R", OWNER + ":", install.toString());
    }

    @AfterAll
    static void removeTheCopy() throws Exception {
        if (install != null) {
            OpenSshHost.run("rm", "-rf", install.toString());
        }
    }

    @Test
    void productionJarHasNoSshServer() throws Exception {
        try (ZipFile jar = new ZipFile(install.resolve("target/nvidb.jar").toFile())) {
            assertTrue(jar.getEntry("org/apache/sshd/client/SshClient.class") != null, "the client is there");
            assertTrue(jar.getEntry("org/apache/sshd/server/SshServer.class") == null, "no SSH server");
            assertTrue(jar.getEntry("org/apache/sshd/server/session/ServerSessionImpl.class") == null, "no server sessions");
        }
        // Every server class that a class in the jar refers to is still in the jar (pom.xml's trim).
        Path jdeps = Path.of(System.getProperty("java.home"), "bin", "jdeps");
        Run deps = exec(List.of(jdeps.toString(), "-filter:none", "-verbose:class", install.resolve("target/nvidb.jar").toString()), Map.of());
        List<String> missing = deps.stdout().lines()
                .filter(line -> line.contains("-> org.apache.sshd.server.") && line.contains("not found")).toList();
        assertEquals(List.of(), missing);
    }

    @Test
    void anotherAccountStartsWithTheArchiveAndWritesNothingInTheInstall() throws Exception {
        Map<String, FileState> before = snapshot(install);
        Path log = otherHome.resolve("class-load.log");
        Run version = asUser(OTHER, otherHome, Map.of("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + log), "--version");
        assertEquals(0, version.exitCode(), version.stderr());
        assertTrue(version.stdout().startsWith("nvidb "), version.stdout());
        assertFalse(version.stderr().contains("building"), version.stderr());
        String loaded = Files.readString(log);
        assertTrue(loaded.contains("dev.nvidb.cli.Main source: shared objects file"),
                "nvidb's classes come from the install's class-data archive:\n" + tail(loaded));

        // A queue command opens SQLite: its native library loads from the install. Extraction
        // is made impossible (a temporary folder this account cannot create), so a command that
        // needed one would fail.
        Map<String, String> noExtraction = Map.of("JAVA_TOOL_OPTIONS",
                "-Dorg.sqlite.tmpdir=" + OpenSshHost.SHARED.resolve("no-such-dir"));
        Run submit = asUser(OTHER, otherHome, noExtraction, "job", "submit", "--gpus", "0", "--wait", "--", "echo hello");
        assertEquals(0, submit.exitCode(), submit.stdout() + submit.stderr());
        assertEquals("1 completed exit 0\n", submit.stdout());
        Run ls = asUser(OTHER, otherHome, noExtraction, "job", "ls", "--no-tick", "--json");
        assertEquals(0, ls.exitCode(), ls.stderr());
        assertTrue(ls.stdout().contains("\"completed\""), ls.stdout());

        assertEquals(before, snapshot(install), "the install is unchanged");
        assertTrue(Files.exists(otherHome.resolve(".nvidb/queue.db")), "the queue lives in the user's own home");
    }

    /**
     * The jar run without the launcher ({@code java -jar}) still loads the install's native
     * library: a driver that unpacked its own copy into the temporary folder would leave it
     * there whenever the process is halted (every submit's exit) or killed.
     */
    @Test
    void theJarRunWithoutTheLauncherLoadsTheInstallsNativeLibraryToo() throws Exception {
        Map<String, FileState> before = snapshot(install);
        Path queueHome = otherHome.resolve("jar-queue");
        OpenSshHost.run("rm", "-rf", queueHome.toString());   // a queue from an earlier run
        Path noTemp = OpenSshHost.SHARED.resolve("no-such-dir");
        List<String> command = new ArrayList<>(List.of("runuser", "-u", OTHER, "--", "env", "-i",
                "HOME=" + otherHome, "PATH=/usr/local/bin:/usr/bin:/bin", "USER=" + OTHER, "LOGNAME=" + OTHER,
                "NVIDB_HOME=" + queueHome,
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dorg.sqlite.tmpdir=" + noTemp, "-Djava.io.tmpdir=" + noTemp,
                "-jar", install.resolve("target/nvidb.jar").toString(),
                "job", "submit", "--gpus", "0", "--wait", "--", "true"));
        Run submit = exec(command, Map.of());
        assertEquals(0, submit.exitCode(), submit.stdout() + submit.stderr());
        assertEquals("1 completed exit 0\n", submit.stdout());
        assertEquals(before, snapshot(install), "the install is unchanged");
    }

    @Test
    void anotherAccountNeverBuildsEvenWhenTheSourcesChanged() throws Exception {
        Path source = install.resolve("pom.xml");
        Files.setLastModifiedTime(source, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        try {
            Map<String, FileState> before = snapshot(install);
            Run version = asUser(OTHER, otherHome, Map.of(), "--version");
            assertEquals(0, version.exitCode(), version.stderr());
            assertEquals("", version.stderr(), "no build attempt, no note");
            assertEquals(before, snapshot(install), "the install is unchanged");
        } finally {
            Files.setLastModifiedTime(source, Files.getLastModifiedTime(install.resolve("target/nvidb.jar")));
        }
    }

    @Test
    void anotherAccountWithoutTheArchiveRunsWithoutIt() throws Exception {
        Path jsa = install.resolve("target/nvidb.jsa");
        Path aside = install.resolve("target/nvidb.jsa.aside");
        Files.move(jsa, aside);
        try {
            Map<String, FileState> before = snapshot(install);
            Run version = asUser(OTHER, otherHome, Map.of(), "--version");
            assertEquals(0, version.exitCode(), version.stderr());
            assertEquals("", version.stderr());
            assertEquals(before, snapshot(install), "no archive is made by a run");
        } finally {
            Files.move(aside, jsa);
        }
    }

    @Test
    void aMovedInstallRunsWithoutItsArchiveButWithTheJdks() throws Exception {
        Path moved = install.resolveSibling(install.getFileName() + "-moved");
        Files.move(install, moved);
        try {
            Map<String, FileState> before = snapshot(moved);
            Path log = otherHome.resolve("class-load-moved.log");
            Run version = asUser(OTHER, otherHome, moved,
                    Map.of("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + log), "--version");
            assertEquals(0, version.exitCode(), version.stderr());
            String loaded = Files.readString(log);
            assertTrue(loaded.contains("java.lang.Object source: shared objects file"), "the JDK's archive:\n" + tail(loaded));
            assertFalse(loaded.contains("dev.nvidb.cli.Main source: shared objects file"), "not the archive of the old place");
            assertEquals(before, snapshot(moved), "the install is unchanged");
        } finally {
            Files.move(moved, install);
        }
    }

    /** Start-up of the owner and of another account, interleaved; printed, not asserted. */
    @Test
    void startUpAsOwnerAndAsAnotherAccount() throws Exception {
        List<Long> owner = new ArrayList<>();
        List<Long> other = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            owner.add(timed(OWNER, ownerHome));
            other.add(timed(OTHER, otherHome));
        }
        System.out.printf("SharedInstallIT: bin/nvidb --version median %d ms as the owner, %d ms as another account%n",
                median(owner), median(other));
    }

    private static long timed(String user, Path home) throws Exception {
        long start = System.nanoTime();
        Run run = asUser(user, home, Map.of(), "--version");
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals(0, run.exitCode(), run.stderr());
        return ms;
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get((sorted.size() - 1) / 2);
    }

    private static String tail(String text) {
        return text.length() < 2000 ? text : text.substring(text.length() - 2000);
    }

    /** What a listing shows of one file: kind, size, modification time, owner and mode. */
    record FileState(boolean directory, long size, long modifiedNanos, String owner, String mode) {
    }

    private static Map<String, FileState> snapshot(Path root) throws IOException {
        Map<String, FileState> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : (Iterable<Path>) walk::iterator) {
                PosixFileAttributes attributes = Files.readAttributes(path, PosixFileAttributes.class,
                        LinkOption.NOFOLLOW_LINKS);
                files.put(root.relativize(path).toString(), new FileState(attributes.isDirectory(), attributes.size(),
                        attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS), attributes.owner().getName(),
                        PosixFilePermissions.toString(attributes.permissions())));
            }
        }
        return files;
    }

    record Run(int exitCode, String stdout, String stderr) {
    }

    /** Runs the install's bin/nvidb as {@code user}, with a clean login-like environment. */
    private static Run asUser(String user, Path home, Map<String, String> extra, String... args) throws Exception {
        return asUser(user, home, install, extra, args);
    }

    private static Run asUser(String user, Path home, Path root, Map<String, String> extra, String... args)
            throws Exception {
        List<String> command = new ArrayList<>(List.of("runuser", "-u", user, "--", "env", "-i",
                "HOME=" + home, "PATH=/usr/local/bin:/usr/bin:/bin", "USER=" + user, "LOGNAME=" + user));
        extra.forEach((key, value) -> command.add(key + "=" + value));
        command.add(root.resolve("bin/nvidb").toString());
        command.addAll(List.of(args));
        return exec(command, Map.of());
    }

    private static Run exec(List<String> command, Map<String, String> environment) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).directory(new java.io.File("/"));
        builder.environment().putAll(environment);
        Process process = builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish in 120 s");
        }
        return new Run(process.exitValue(), out.join(), err.join());
    }

    private static String read(java.io.InputStream stream) {
        try (stream) {
            return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
