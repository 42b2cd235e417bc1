package dev.nvidb.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.cli.CliRunner;
import dev.nvidb.testing.OpenSshOracle;
import dev.nvidb.testing.OpenSshOracle.Answer;
import dev.nvidb.testing.SshConfigCorpus;
import dev.nvidb.testing.SshConfigCorpus.Case;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * nvidb resolves a host as {@code ssh -G} does: for a corpus of generated ssh_config files
 * (user file, Includes, the system-wide file), {@code nvidb ls --detail --json} must give the
 * hostname, port, user, identity and certificate files, IdentitiesOnly and the ProxyJump chain
 * (each jump host resolved as the {@code ssh} that ProxyJump starts resolves it) that the real
 * OpenSSH gives. Where ssh refuses a config, nvidb must refuse it too.
 */
class SshGConformanceTest {

    private static final long SEED = 20260526L;
    private static final int CASES = 220;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path scratch;

    private static OpenSshOracle oracle;

    @BeforeAll
    static void startOracle() {
        OpenSshOracle.Result started = OpenSshOracle.start(scratch);
        // .ci/run installs openssh-client and util-linux (unshare) and CI runs as root: a missing
        // oracle fails there rather than hiding the comparison
        dev.nvidb.testing.Prerequisite.require(started.oracle().isPresent(), "no ssh -G oracle here: " + started.whyNot());
        oracle = started.oracle().get();
    }

    @AfterAll
    static void stopOracle() throws IOException {
        if (oracle != null) {
            oracle.close();
        }
    }

    /** A jump host as a ProxyJump spec names it. */
    record Hop(String user, String host, Integer port) {
    }

    /** One host's resolution, from either side; {@code error} set when it was refused. */
    record Resolution(String error, String hostname, Integer port, String user, List<String> identityFiles,
                      List<String> certificateFiles, Boolean identitiesOnly, List<Hop> proxyJump,
                      List<Resolution> jumps) {

        static Resolution refused(String why) {
            return new Resolution(why, null, null, null, null, null, null, null, null);
        }

        Resolution withoutJumps() {
            return new Resolution(error, hostname, port, user, identityFiles, certificateFiles, identitiesOnly,
                    List.of(), List.of());
        }

        boolean agrees(Resolution other) {
            return error != null ? other.error != null
                    : other.error == null && withoutError().equals(other.withoutError());
        }

        private Resolution withoutError() {
            return new Resolution(null, hostname, port, user, identityFiles, certificateFiles, identitiesOnly,
                    proxyJump, jumps);
        }
    }

    @Test
    void nvidbResolvesEveryGeneratedConfigAsSshGDoes() throws Exception {
        List<Case> corpus = SshConfigCorpus.generate(SEED, CASES, oracle.account().user());
        List<String> mismatches = new ArrayList<>();
        int hosts = 0;
        int refusedByBoth = 0;
        int jumped = 0;
        int certified = 0;
        int renamed = 0;
        for (Case config : corpus) {
            Path root = scratch.resolve("case-" + config.index());
            config.writeUnder(root);
            JsonNode servers = listDetail(root, config.aliases(), false);
            oracle.use(root.resolve("home"), root.resolve("etc/ssh"));
            for (int i = 0; i < config.aliases().size(); i++) {
                String alias = config.aliases().get(i);
                hosts++;
                Resolution expected = expected(List.of(alias), root, 0);
                Resolution actual = fromNvidb(servers.get(i));
                if (!expected.agrees(actual)) {
                    mismatches.add(mismatch(config, alias, expected, servers.get(i)));
                } else if (expected.error() != null) {
                    refusedByBoth++;
                    System.out.println("SshGConformanceTest: case " + config.index() + ", " + alias + " refused by ssh ("
                            + expected.error().lines().findFirst().orElse("") + ") and nvidb (" + actual.error() + ")");
                } else {
                    jumped += expected.jumps().isEmpty() ? 0 : 1;
                    certified += expected.certificateFiles().isEmpty() ? 0 : 1;
                    renamed += expected.hostname().equals(alias) ? 0 : 1;
                }
            }
        }
        String summary = (hosts - mismatches.size()) + " of " + hosts + " hosts in " + corpus.size()
                + " configs resolved as ssh -G does (" + refusedByBoth + " refused by both; " + jumped + " with jump hosts, "
                + certified + " with certificates, " + renamed + " renamed by HostName)";
        System.out.println("SshGConformanceTest: " + summary);
        assertTrue(mismatches.isEmpty(), summary + "\n\n" + String.join("\n\n", mismatches.subList(0,
                Math.min(3, mismatches.size()))));
        assertTrue(refusedByBoth * 10 < hosts, "the corpus should be mostly configs ssh accepts: " + summary);
    }

    /** The real launcher, end to end, on two cases of the corpus: the same answer as in-process. */
    @Test
    void theLauncherAnswersAsSshGDoes() throws Exception {
        for (Case config : SshConfigCorpus.generate(SEED + 1, 2, oracle.account().user())) {
            Path root = scratch.resolve("launcher-" + config.index());
            config.writeUnder(root);
            JsonNode servers = listDetail(root, config.aliases(), true);
            oracle.use(root.resolve("home"), root.resolve("etc/ssh"));
            for (int i = 0; i < config.aliases().size(); i++) {
                Resolution expected = expected(List.of(config.aliases().get(i)), root, 0);
                assertTrue(expected.agrees(fromNvidb(servers.get(i))),
                        mismatch(config, config.aliases().get(i), expected, servers.get(i)));
            }
        }
    }

    /**
     * Known refusals: configs ssh accepts (or would, with DNS) but nvidb cannot follow as ssh
     * would. Each is one line naming file:line, a hint with the fix, exit 2, no stack trace.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            Match exec                  | Match exec "test -f /nonexistent"\\n  User ex           | 1 | Match exec is not supported    | true
            exec after a true criterion | Match originalhost gpu1 exec true\\n  User ex           | 1 | Match exec is not supported    | true
            ProxyCommand                | Host gpu1\\n  ProxyCommand nc %h %p                | 2 | ProxyCommand is not supported  | true
            relative IdentityFile       | Host *\\n  IdentityFile keys/id_gpu              | 2 | is a relative path             | true
            CanonicalDomains            | CanonicalizeHostname yes\\nCanonicalDomains lab | 2 | needs DNS lookups              | false
            CanonicalizePermittedCNAMEs | Host *\\n  CanonicalizePermittedCNAMEs *.a:*.b  | 2 | needs DNS lookups              | false
            ~user IdentityFile          | Host *\\n  IdentityFile ~root/.ssh/id_x          | 2 | does not expand ~user paths    | true
            Port as a service name      | Host gpu1\\n  Port ssh                           | 2 | is not a port number           | true
            """)
    void knownRefusals(String name, String config, int line, String message, boolean sshAccepts) throws Exception {
        Path root = scratch.resolve("refusal-" + name.replace(' ', '-').replace('~', 'T'));
        Files.createDirectories(root.resolve("home/.ssh"));
        Files.createDirectories(root.resolve("etc/ssh"));
        Path file = root.resolve("home/.ssh/config");
        Files.writeString(file, config.replace("\\n", "\n") + "\n");
        Path nvidbHome = Files.createDirectories(root.resolve("nvidb"));
        Files.writeString(nvidbHome.resolve("config.yml"), "basic:\n  ssh_system_config: "
                + root.resolve("etc/ssh/ssh_config") + "\nservers:\n  - hostname: gpu1\n");
        CliRunner.Result result = CliRunner.run(Map.of("HOME", root.resolve("home").toString(),
                "NVIDB_HOME", nvidbHome.toString(), "USER", oracle.account().user()), "ls", "--detail", "--json");

        assertEquals(2, result.exitCode(), result.stderr());
        List<String> lines = result.stderr().lines().toList();
        assertTrue(lines.get(0).startsWith("nvidb: " + file + ":" + line + ": ") && lines.get(0).contains(message),
                result.stderr());
        assertTrue(lines.size() == 2 && lines.get(1).startsWith("  hint: "), result.stderr());
        assertTrue(JSON.readTree(result.stdout()).get("servers").get(0).get("resolve_error").asText().contains(message));
        if (sshAccepts) { // the others would make ssh look names up in DNS
            oracle.use(root.resolve("home"), root.resolve("etc/ssh"));
            assertEquals(0, oracle.config(List.of("gpu1")).status(), "ssh accepts it: " + name);
        }
    }

    /** The CLI's answer for {@code aliases}, one server each, run in-process (or through bin/nvidb). */
    static JsonNode listDetail(Path root, List<String> aliases, boolean launcher) throws Exception {
        Path nvidbHome = Files.createDirectories(root.resolve("nvidb"));
        StringBuilder yaml = new StringBuilder("basic:\n  ssh_system_config: " + root.resolve("etc/ssh/ssh_config")
                + "\nservers:\n");
        aliases.forEach(alias -> yaml.append("  - hostname: \"").append(alias).append("\"\n"));
        Files.writeString(nvidbHome.resolve("config.yml"), yaml);
        Map<String, String> env = Map.of("HOME", root.resolve("home").toString(), "NVIDB_HOME", nvidbHome.toString(),
                "USER", oracle.account().user());
        CliRunner.Result result = launcher ? Launcher.run(root, env, "ls", "--detail", "--json")
                : CliRunner.run(env, "ls", "--detail", "--json");
        JsonNode document = JSON.readTree(result.stdout());
        assertTrue(document.has("servers"), result.stdout() + result.stderr());
        assertEquals(aliases.size(), document.get("servers").size(), result.stdout() + result.stderr());
        return document.get("servers");
    }

    /** What OpenSSH makes of {@code args} (ending with the host), jump hosts resolved as ProxyJump's ssh does. */
    static Resolution expected(List<String> args, Path root, int depth) throws IOException {
        Answer answer = oracle.config(args);
        if (answer.status() != 0) {
            return Resolution.refused(String.join("\n", answer.lines()));
        }
        List<String> files = new ArrayList<>(answer.all("identityfile"));
        int identityCount = files.size();
        files.addAll(answer.all("certificatefile"));
        List<String> expanded = oracle.expand(files, args).stream().map(path -> inCase(path, root)).toList();
        List<String> identities = expanded.subList(0, identityCount);
        List<String> certificates = expanded.subList(identityCount, expanded.size());
        String spec = answer.first("proxyjump");
        List<Hop> hops = spec == null ? List.of() : hops(spec);
        List<Resolution> jumps = new ArrayList<>();
        if (!hops.isEmpty()) {
            if (depth > 6) {
                return Resolution.refused("ProxyJump loop");
            }
            String[] specs = spec.split(",");
            for (int i = 0; i < hops.size(); i++) {
                List<String> hopArgs = new ArrayList<>();
                Hop hop = hops.get(i);
                if (hop.user() != null) {
                    hopArgs.addAll(List.of("-l", hop.user()));
                }
                if (hop.port() != null) {
                    hopArgs.addAll(List.of("-p", hop.port().toString()));
                }
                if (i > 0) {
                    hopArgs.addAll(List.of("-J", String.join(",", List.of(specs).subList(0, i))));
                }
                hopArgs.add(hop.host());
                Resolution jump = expected(hopArgs, root, depth + 1);
                if (jump.error() != null) {
                    return jump;
                }
                if (i == 0) {
                    jumps.addAll(jump.jumps());
                }
                jumps.add(jump.withoutJumps());
            }
        }
        return new Resolution(null, answer.first("hostname"), Integer.valueOf(answer.first("port")),
                answer.first("user"), identities, certificates, "yes".equals(answer.first("identitiesonly")), hops,
                jumps);
    }

    /** A path ssh opens under the passwd home, as the same path under the case's home. */
    private static String inCase(String path, Path root) {
        String home = oracle.account().home();
        return path.equals(home) || path.startsWith(home + "/")
                ? root.resolve("home") + path.substring(home.length()) : path;
    }

    static Resolution fromNvidb(JsonNode server) {
        if (!server.path("resolve_error").isNull() && !server.path("resolve_error").isMissingNode()) {
            return Resolution.refused(server.get("resolve_error").asText());
        }
        return fromResolution(server.get("resolution"));
    }

    private static Resolution fromResolution(JsonNode node) {
        List<Resolution> jumps = new ArrayList<>();
        node.path("jumps").forEach(jump -> jumps.add(fromResolution(jump)));
        String spec = node.path("proxyjump").isTextual() ? node.get("proxyjump").asText() : null;
        return new Resolution(null, node.get("hostname").asText(), node.get("port").asInt(), node.get("user").asText(),
                strings(node.get("identity_files")), strings(node.get("certificate_files")),
                node.get("identities_only").asBoolean(), spec == null ? List.of() : hops(spec), jumps);
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asText()));
        return values;
    }

    /** A ProxyJump value as hops: {@code [user@]host[:port]}, {@code [user@][host]:port} or an ssh URI each. */
    static List<Hop> hops(String spec) {
        List<Hop> hops = new ArrayList<>();
        for (String item : spec.split(",")) {
            String rest = item.startsWith("ssh://") ? item.substring(6) : item;
            String user = null;
            int at = rest.lastIndexOf('@');
            if (at >= 0) {
                user = rest.substring(0, at);
                rest = rest.substring(at + 1);
            }
            Integer port = null;
            String host = rest;
            if (rest.startsWith("[")) {
                int close = rest.indexOf(']');
                host = rest.substring(1, close);
                port = close + 1 < rest.length() ? Integer.valueOf(rest.substring(close + 2)) : null;
            } else if (rest.indexOf(':') >= 0 && rest.indexOf(':') == rest.lastIndexOf(':')) {
                host = rest.substring(0, rest.indexOf(':'));
                port = Integer.valueOf(rest.substring(rest.indexOf(':') + 1));
            }
            hops.add(new Hop(user, host, port));
        }
        return hops;
    }

    /**
     * The real {@code bin/nvidb}, on a jar made of this build's classes: a manifest whose
     * Class-Path names the test run's class path (the fast suite runs before {@code package}).
     */
    static final class Launcher {

        static CliRunner.Result run(Path root, Map<String, String> env, String... args) throws Exception {
            Path build = Files.createDirectories(root.resolve("build"));
            java.util.jar.Manifest manifest = new java.util.jar.Manifest();
            manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
            manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MAIN_CLASS, "dev.nvidb.cli.Main");
            manifest.getMainAttributes().put(java.util.jar.Attributes.Name.CLASS_PATH, String.join(" ",
                    List.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator)).stream()
                            .map(entry -> Path.of(entry).toUri().toString()).toList()));
            try (var jar = new java.util.jar.JarOutputStream(Files.newOutputStream(build.resolve("nvidb.jar")), manifest)) {
                jar.flush();
            }
            Path launcher = Path.of(System.getProperty("nvidb.project.dir", "."), "bin", "nvidb").toAbsolutePath();
            List<String> command = new ArrayList<>(List.of(launcher.toString()));
            command.addAll(List.of(args));
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().putAll(env);
            builder.environment().putAll(Map.of("NVIDB_BUILD_DIR", build.toString(), "NVIDB_NO_BUILD", "1",
                    "NVIDB_NO_CDS", "1", "NVIDB_NO_HANDOFF", "1",
                    "JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            Process process = builder.start();
            process.getOutputStream().close();
            var stdout = java.util.concurrent.CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
            String stderr = read(process.getErrorStream());
            return new CliRunner.Result(process.waitFor(), stdout.get(), stderr);
        }

        private static String read(java.io.InputStream stream) {
            try {
                return new String(stream.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private static String mismatch(Case config, String alias, Resolution expected, JsonNode actual) throws IOException {
        return "case " + config.index() + ", host " + alias + ":\n" + config.describe()
                + "---- ssh -G " + alias + "\n" + oracle.config(List.of(alias)).relevant()
                + "\n---- expected (ssh, paths expanded as OpenSSH opens them)\n" + expected
                + "\n---- nvidb ls --detail --json\n" + actual.toPrettyString();
    }
}
