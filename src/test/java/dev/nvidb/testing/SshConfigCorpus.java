package dev.nvidb.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Generates ssh_config cases deterministically from a seed: a user file with Include files, a
 * system-wide file with its {@code ssh_config.d}, and the aliases to resolve. The blocks use
 * Host wildcards and negations, Match host/originalhost/user/localuser/all/canonical/final
 * (never exec), ProxyJump chains and {@code none}, IdentitiesOnly, CertificateFile and
 * IdentityFile with every token OpenSSH 9.2 knows. ProxyJump only appears in blocks that cannot
 * match a jump host, so no chain loops.
 */
public final class SshConfigCorpus {

    /** One case: files by path under the case root ({@code home/…}, {@code etc/ssh/…}) and the aliases to resolve. */
    public record Case(int index, Map<String, String> files, List<String> aliases) {

        public void writeUnder(Path root) throws IOException {
            for (var file : files.entrySet()) {
                Path path = root.resolve(file.getKey());
                Files.createDirectories(path.getParent());
                Files.writeString(path, file.getValue());
            }
            Files.createDirectories(root.resolve("home/.ssh"));
            Files.createDirectories(root.resolve("etc/ssh"));
        }

        /** Every file, headed by its name, for failure messages. */
        public String describe() {
            StringBuilder text = new StringBuilder();
            files.forEach((name, body) -> text.append("---- ").append(name).append('\n').append(body));
            return text.toString();
        }
    }

    private static final List<String> TARGETS = List.of("gpu1", "gpu-2", "GPU3", "node-a", "node-b9",
            "web.example.com", "db", "10.0.0.7");
    private static final List<String> JUMP_HOSTS = List.of("login", "bastion", "10.0.0.1");
    private static final List<String> TARGET_PATTERNS = List.of("gpu*", "gpu?", "node-*", "db", "GPU3",
            "gpu1", "10.0.0.7", "node-? gpu-2", "gpu* !gpu1", "!db node-* gpu*");
    private static final List<String> ANY_PATTERNS = List.of("*", "* !login", "*.com", "!gpu1 *", "?*",
            "*.example.com", "10.0.0.*");
    private static final List<String> JUMP_SPECS = List.of("bastion", "login", "alice@bastion", "bastion:2201",
            "carol@login:2022,bastion", "login,bastion", "10.0.0.1", "ops@10.0.0.1:2200", "[10.0.0.2]:2022",
            "ssh://dan@login:2023", "none", "login,ops@10.0.0.1");
    private static final List<String> HOST_NAMES = List.of("%h.example.com", "%h", "10.1.2.3", "Big.Example.ORG",
            "%h.lab.internal", "%h%%x", "node.cluster", "gpu1.example.com");
    private static final List<String> USERS = List.of("alice", "bob", "svc-gpu", "carol");
    private static final List<String> IDENTITIES = List.of("~/.ssh/id_lab", "~/.ssh/id_%h", "%d/.ssh/%r@%h:%p",
            "~/.ssh/k_%n_%u_%l_%L", "~/.ssh/c_%C", "~/.ssh/i%i_%k_%%", "/opt/keys/%u/%h", "~/.ssh/id_ed25519",
            "~", "~/.ssh/%r");
    private static final List<String> CERTIFICATES = List.of("~/.ssh/id_lab-cert.pub", "%d/certs/%h.pub",
            "/etc/certs/%r_%p");

    private final Random random;
    private final String localUser;

    private SshConfigCorpus(long seed, String localUser) {
        this.random = new Random(seed);
        this.localUser = localUser;
    }

    /** {@code count} cases from {@code seed}; {@code localUser} is who runs ssh (for {@code Match localuser}). */
    public static List<Case> generate(long seed, int count, String localUser) {
        SshConfigCorpus corpus = new SshConfigCorpus(seed, localUser);
        List<Case> cases = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            cases.add(corpus.next(i));
        }
        return cases;
    }

    private Case next(int index) {
        Map<String, String> files = new LinkedHashMap<>();
        StringBuilder user = new StringBuilder();
        if (chance(0.3)) {
            user.append(pick("Include conf.d/*.conf\n", "Include ~/.ssh/conf.d/*.conf\n", "include conf.d/[ab]*.conf\n"));
            files.put("home/.ssh/conf.d/a-first.conf", blocks(1 + random.nextInt(2)));
            files.put("home/.ssh/conf.d/b-second.conf", blocks(1));
            files.put("home/.ssh/conf.d/.hidden.conf", "Host *\n  Port 4444\n");
            files.put("home/.ssh/conf.d/c-notconf.txt", "Host *\n  User never\n");
        }
        user.append(blocks(2 + random.nextInt(5)));
        if (chance(0.25)) {
            user.append(pick("Host gpu* db\n", "Match originalhost node-*\n", "Host *\n"))
                    .append("  Include extra\n");
            files.put("home/.ssh/extra", blocks(1) + (chance(0.5) ? "  User from-extra\n" : ""));
        }
        if (chance(0.3)) {
            user.append(block(pick(ANY_PATTERNS), false));
        }
        files.put("home/.ssh/config", user.toString());
        if (chance(0.7)) {
            files.put("etc/ssh/ssh_config", system(files));
        }
        List<String> aliases = new ArrayList<>();
        aliases.add(pick(TARGETS));
        String second = chance(0.3) ? pick(JUMP_HOSTS) : pick(TARGETS);
        if (!aliases.contains(second)) {
            aliases.add(second);
        }
        return new Case(index, files, aliases);
    }

    private String system(Map<String, String> files) {
        StringBuilder text = new StringBuilder("Include ssh_config.d/*.conf\n\n");
        if (chance(0.4)) {
            files.put("etc/ssh/ssh_config.d/10-site.conf", blocks(1 + random.nextInt(2)));
        }
        text.append(blocks(random.nextInt(3)));
        text.append("Host *\n    SendEnv LANG LC_*\n    HashKnownHosts yes\n    GSSAPIAuthentication yes\n");
        if (chance(0.5)) {
            text.append(body(false));
        }
        return text.toString();
    }

    private String blocks(int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            int kind = random.nextInt(10);
            if (kind < 4) {
                text.append(block(pick(TARGET_PATTERNS), true));
            } else if (kind < 6) {
                text.append(jumpHostBlock());
            } else if (kind < 9) {
                text.append(matchBlock());
            } else {
                text.append(block(pick(ANY_PATTERNS), false));
            }
        }
        return text.toString();
    }

    private String block(String patterns, boolean mayJump) {
        String host = pick("Host ", "Host ", "host ", "Host=", "HOST ");
        return host + patterns + "\n" + body(mayJump);
    }

    private String jumpHostBlock() {
        String name = pick(JUMP_HOSTS);
        StringBuilder text = new StringBuilder("Host " + (name.equals("10.0.0.1") ? "10.0.0.?" : name) + "\n");
        if (chance(0.6)) {
            text.append("  HostName ").append(pick("%h.example.org", name + ".jump.net", "192.168.1.5")).append('\n');
        }
        if (chance(0.5)) {
            text.append("  User ").append(pick("gate", "jump")).append('\n');
        }
        if (chance(0.4)) {
            text.append("  Port ").append(pick("2222", "22", "8022")).append('\n');
        }
        if (chance(0.4)) {
            text.append("  IdentityFile ").append(pick("~/.ssh/jump_%h", "~/.ssh/id_jump")).append('\n');
        }
        if (name.equals("bastion") && chance(0.3)) {
            text.append("  ProxyJump ").append(pick("login", "gate@login:2200", "none")).append('\n');
        }
        return text.toString();
    }

    private String matchBlock() {
        List<String> criteria = new ArrayList<>();
        boolean mayJump = false;
        int shape = random.nextInt(9);
        switch (shape) {
            case 0 -> criteria.add("all");
            case 1 -> criteria.add(pick("final", "canonical", "final all", "canonical all", "!final"));
            case 2 -> {
                criteria.add(pick("originalhost gpu*,node-*", "originalhost !db,gpu*", "originalhost GPU3"));
                mayJump = true;
            }
            case 3 -> criteria.add(pick("host *.example.com", "host gpu*,!gpu1", "host 10.*", "!host db*",
                    "host *.lab.internal,big.example.org"));
            case 4 -> criteria.add(pick("user alice", "user b*,svc-*", "!user carol", "user " + localUser));
            case 5 -> criteria.add(pick("localuser " + localUser, "localuser !" + localUser + ",*", "localuser nobody",
                    "!localuser nobody"));
            case 6 -> {
                criteria.add(pick("final", "canonical"));
                criteria.add(pick("host *.example.com", "originalhost gpu*", "user alice", "host gpu1"));
            }
            case 7 -> {
                criteria.add(pick("originalhost node-*", "originalhost gpu1"));
                criteria.add(pick("user bob", "localuser " + localUser, "host *.example.com"));
                mayJump = true;
            }
            default -> criteria.add(pick("host gpu1 all", "originalhost gpu* user alice"));
        }
        return pick("Match ", "match ", "Match ") + String.join(" ", criteria) + "\n" + body(mayJump);
    }

    private String body(boolean mayJump) {
        StringBuilder text = new StringBuilder();
        int lines = 1 + random.nextInt(4);
        for (int i = 0; i < lines; i++) {
            String indent = pick("  ", "    ", "\t", "");
            int kind = random.nextInt(mayJump ? 10 : 9);
            text.append(indent).append(switch (kind) {
                case 0 -> pick("HostName ", "Hostname ", "hostname=") + pick(HOST_NAMES);
                case 1 -> pick("User ", "user = ") + pick(USERS);
                case 2 -> "Port " + pick("22", "2200", "2222", "443");
                case 3, 4 -> pick("IdentityFile ", "identityfile ") + pick(IDENTITIES);
                case 5 -> "CertificateFile " + pick(CERTIFICATES);
                case 6 -> "IdentitiesOnly " + pick("yes", "no");
                case 7 -> pick("ProxyJump none", "ServerAliveInterval 30", "ForwardAgent no", "Compression yes");
                case 8 -> pick("IdentityFile \"~/.ssh/quoted_%h\"", "Port=2022", "CanonicalizeHostname yes",
                        "User \"quoted\"");
                default -> "ProxyJump " + pick(JUMP_SPECS);
            }).append('\n');
        }
        return text.toString();
    }

    private boolean chance(double probability) {
        return random.nextDouble() < probability;
    }

    private String pick(String... options) {
        return options[random.nextInt(options.length)];
    }

    private String pick(List<String> options) {
        return options.get(random.nextInt(options.size()));
    }
}
