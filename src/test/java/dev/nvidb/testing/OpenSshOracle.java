package dev.nvidb.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The real {@code /usr/bin/ssh -G}, run as a user would run it: with no {@code -F}, so it reads
 * {@code ~/.ssh/config} and then {@code /etc/ssh/ssh_config}. OpenSSH finds {@code ~} in the
 * passwd entry, not {@code $HOME}, so one shell runs in a private mount namespace
 * ({@code unshare -m}) where each case's {@code home} is bind-mounted over the passwd home and
 * its {@code etc/ssh} over {@code /etc/ssh}; nothing outside that namespace sees the mounts,
 * and the machine's own files are never written. {@code ssh -G} never connects.
 */
public final class OpenSshOracle implements AutoCloseable {

    private static final String SSH = "/usr/bin/ssh";
    private static final String END = "__oracle_end__";

    /** What OpenSSH sees as the local account: user, passwd home, uid and host name. */
    public record Account(String user, String home, String uid, String hostname) {
    }

    /** One {@code ssh -G} answer: exit status, the lines, and the values by lower-case key. */
    public record Answer(int status, List<String> lines) {

        public List<String> all(String key) {
            return lines.stream().filter(line -> line.startsWith(key + " "))
                    .map(line -> line.substring(key.length() + 1)).toList();
        }

        public String first(String key) {
            List<String> values = all(key);
            return values.isEmpty() ? null : values.get(0);
        }

        /** The lines nvidb is compared on, for failure messages. */
        public String relevant() {
            if (status != 0) {
                return String.join("\n", lines);
            }
            List<String> keys = List.of("user", "hostname", "port", "identityfile", "certificatefile",
                    "identitiesonly", "proxyjump", "proxycommand");
            return String.join("\n", lines.stream().filter(line -> keys.contains(line.split(" ", 2)[0])).toList());
        }
    }

    private final Process shell;
    private final Writer input;
    private final BufferedReader output;
    private Account account;
    private boolean mounted;

    private OpenSshOracle(Process shell) {
        this.shell = shell;
        this.input = new java.io.OutputStreamWriter(shell.getOutputStream(), StandardCharsets.UTF_8);
        this.output = new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.UTF_8));
    }

    /**
     * Starts the namespace shell, or says why it cannot run here (no ssh, no unshare, mounts
     * refused), so the caller can skip rather than fail.
     */
    public static Result start(Path scratch) {
        if (!Files.isExecutable(Path.of(SSH))) {
            return new Result(Optional.empty(), SSH + " is not installed");
        }
        String why = "unshare -m is not available";
        for (List<String> command : List.of(List.of("unshare", "-m", "/bin/sh"),
                List.of("unshare", "--map-current-user", "-m", "/bin/sh"))) {
            try {
                Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
                OpenSshOracle oracle = new OpenSshOracle(process);
                Path probe = Files.createDirectories(scratch.resolve("oracle-probe"));
                Answer mount = oracle.run("mount --bind " + quote(probe) + " " + quote(probe));
                if (mount.status() == 0) {
                    oracle.account = oracle.probeAccount();
                    return new Result(Optional.of(oracle), null);
                }
                why = String.join(" ", command) + ": " + mount.lines();
                oracle.close();
            } catch (IOException e) {
                why = String.join(" ", command) + ": " + e.getMessage();
            }
        }
        return new Result(Optional.empty(), why);
    }

    /** The oracle, or why there is none. */
    public record Result(Optional<OpenSshOracle> oracle, String whyNot) {
    }

    public Account account() {
        return account;
    }

    /** Makes {@code home} the passwd home and {@code etcSsh} {@code /etc/ssh} for the following calls. */
    public void use(Path home, Path etcSsh) throws IOException {
        unmount();
        Answer answer = run("mount --bind " + quote(home) + " " + quote(account.home()) + " && mount --bind "
                + quote(etcSsh) + " /etc/ssh");
        if (answer.status() != 0) {
            throw new IOException("cannot bind-mount the case: " + answer.lines());
        }
        mounted = true;
    }

    /** {@code ssh -G ARGS}, as the user would type it (no {@code -F}). */
    public Answer config(List<String> args) throws IOException {
        StringBuilder command = new StringBuilder(account == null ? SSH + " -G"
                : "HOME=" + quote(account.home()) + " " + SSH + " -G");
        for (String arg : args) {
            command.append(' ').append(quote(arg));
        }
        return run(command + " 2>&1 </dev/null");
    }

    /**
     * The paths OpenSSH opens for {@code files} (IdentityFile or CertificateFile values as
     * {@code ssh -G ARGS} printed them): each is given back to ssh as {@code ControlPath}, which
     * ssh -G prints expanded with the same tokens ({@code %C %d %h %i %k %L %l %n %p %r %u %%}). A
     * leading {@code ~} is written {@code %d}, which is what OpenSSH's tilde expansion makes of it.
     */
    public List<String> expand(List<String> files, List<String> args) throws IOException {
        if (files.isEmpty()) {
            return List.of();
        }
        List<String> tilded = files.stream().map(file -> file.equals("~") ? "%d"
                : file.startsWith("~/") ? "%d" + file.substring(1) : file).toList();
        List<String> withPath = new ArrayList<>();
        withPath.add("-oControlPath=" + String.join("|", tilded));
        withPath.addAll(args);
        Answer answer = config(withPath);
        String expanded = answer.first("controlpath");
        if (answer.status() != 0 || expanded == null) {
            throw new IOException("ssh -G could not expand " + files + ": " + answer.lines());
        }
        return List.of(expanded.split("\\|", -1));
    }

    private Account probeAccount() throws IOException {
        Answer answer = config(List.of("-F", "/dev/null", "-oControlPath=%u|%d|%i|%l", "probe"));
        String[] parts = answer.first("controlpath").split("\\|");
        return new Account(parts[0], parts[1], parts[2], parts[3]);
    }

    private void unmount() throws IOException {
        if (mounted) {
            run("umount /etc/ssh; umount " + quote(account.home()));
            mounted = false;
        }
    }

    private Answer run(String command) throws IOException {
        input.write(command + "\necho \"" + END + " $?\"\n");
        input.flush();
        List<String> lines = new ArrayList<>();
        for (String line = output.readLine(); line != null; line = output.readLine()) {
            if (line.startsWith(END + " ")) {
                return new Answer(Integer.parseInt(line.substring(END.length() + 1).strip()), lines);
            }
            lines.add(line);
        }
        throw new IOException("the oracle shell ended: " + lines);
    }

    private static String quote(Object value) {
        return "'" + value.toString().replace("'", "'\\''") + "'";
    }

    @Override
    public void close() throws IOException {
        try {
            unmount();
            input.write("exit\n");
            input.flush();
        } catch (IOException e) {
            // the shell is gone already
        }
        shell.destroy();
    }
}
