package dev.nvidb.config;

import dev.nvidb.error.ConfigException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * A node's sharing policy: {@code policy.yml} in its claims directory, written by whoever
 * administers the node and honoured by every queue that launches there (docs/sharing.md).
 * With no file, the node is first come, first served, and nobody is capped.
 *
 * <pre>
 * share: fair          # or first_come (the default)
 * default:             # everyone not named under users
 *   weight: 1
 *   max_gpus: 4
 *   max_vram: 96G
 * users:
 *   alice:
 *     weight: 2        # her fair share is twice bob's
 *   bob:
 *     max_gpus: 1
 * </pre>
 *
 * @param share    how a freed GPU is given out when several users wait
 * @param defaults the rule of every user not named in {@code users}
 * @param users    rules by login name; a key left out falls back to {@code defaults}
 */
public record NodePolicy(Share share, Rule defaults, Map<String, Rule> users) {

    /** No policy file: first come, caps none. */
    public static final NodePolicy NONE = new NodePolicy(Share.FIRST_COME, Rule.NONE, Map.of());

    static final List<String> KEYS = List.of("share", "default", "users");
    static final List<String> RULE_KEYS = List.of("weight", "max_gpus", "max_vram");
    private static final String HINT = "valid keys: " + String.join(", ", KEYS) + "; see docs/sharing.md";
    private static final String RULE_HINT = "valid keys: " + String.join(", ", RULE_KEYS);

    /** How a freed GPU is given out. */
    public enum Share {
        /** To whichever queue ticks first (no waiting queue yields). */
        FIRST_COME,
        /** To the waiting user furthest below their weighted share of the node's reserved memory. */
        FAIR
    }

    /**
     * One user's weight and caps on the node.
     *
     * @param weight  their share relative to others' (null: the default's, else 1)
     * @param maxGpus the most GPUs their claims may hold on the node at once (null: no cap)
     * @param maxMib  the most MiB their claims may reserve there over all GPUs (null: no cap)
     */
    public record Rule(Integer weight, Integer maxGpus, Long maxMib) {

        static final Rule NONE = new Rule(null, null, null);

        /** This rule, with what it leaves out taken from {@code fallback}. */
        Rule over(Rule fallback) {
            return new Rule(weight != null ? weight : fallback.weight, maxGpus != null ? maxGpus : fallback.maxGpus,
                    maxMib != null ? maxMib : fallback.maxMib);
        }

        /** The weight to divide a user's use by: 1 unless set. */
        public int effectiveWeight() {
            return weight == null ? 1 : weight;
        }

        /** Whether the rule caps anything. */
        public boolean caps() {
            return maxGpus != null || maxMib != null;
        }
    }

    public NodePolicy {
        users = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(users));
    }

    /** The rule for {@code user}: their own keys over the default's. */
    public Rule ruleFor(String user) {
        Rule own = users.get(user);
        return own == null ? defaults : own.over(defaults);
    }

    /** The policy a node's probe read, parsed; empty when it has none, or one that does not parse (see {@link #problem}). */
    public static Optional<NodePolicy> of(dev.nvidb.model.NodeClaims claims) {
        if (claims.policy() == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(parse(claims.policy(), fileOf(claims)));
        } catch (ConfigException e) {
            return Optional.empty();
        }
    }

    /** Why a node's policy is not honoured (the agent ignored the file, or it does not parse), or null. */
    public static String problem(dev.nvidb.model.NodeClaims claims) {
        if (claims.policyError() != null) {
            return claims.policyError();
        }
        if (claims.policy() == null) {
            return null;
        }
        try {
            parse(claims.policy(), fileOf(claims));
            return null;
        } catch (ConfigException e) {
            return e.getMessage() + " (not honoured until it is fixed)";
        }
    }

    private static String fileOf(dev.nvidb.model.NodeClaims claims) {
        return (claims.dir() == null ? "" : claims.dir() + "/") + "policy.yml";
    }

    /** "share fair; everyone: max 4 GPUs; alice: weight 2", as views show the policy. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        parts.add(share == Share.FAIR ? "share fair" : "first come");
        String everyone = describe(defaults);
        if (!everyone.isEmpty()) {
            parts.add("everyone: " + everyone);
        }
        users.forEach((user, rule) -> parts.add(user + ": " + (describe(rule).isEmpty() ? "as everyone" : describe(rule))));
        return String.join("; ", parts);
    }

    private static String describe(Rule rule) {
        List<String> parts = new ArrayList<>();
        if (rule.weight() != null) {
            parts.add("weight " + rule.weight());
        }
        if (rule.maxGpus() != null) {
            parts.add("max " + rule.maxGpus() + " GPU" + (rule.maxGpus() == 1 ? "" : "s"));
        }
        if (rule.maxMib() != null) {
            parts.add(String.format(java.util.Locale.ROOT, "max %.1fG", rule.maxMib() / 1024.0));
        }
        return String.join(", ", parts);
    }

    /**
     * Parses a policy file's text. {@code displayName} names it in messages ({@code gpu-a:/tmp/nvidb-claims/policy.yml}).
     *
     * @throws ConfigException one line, {@code file:line: what}, for anything malformed
     */
    public static NodePolicy parse(String text, String displayName) {
        YamlDocument document = YamlDocument.parse(text, null, displayName);
        Optional<MappingNode> root = document.rootMapping(KEYS);
        if (root.isEmpty()) {
            return NONE;
        }
        YamlSection top = new YamlSection(document, root.get(), "in the node policy", KEYS, HINT);
        String share = top.string("share", "first_come");
        Share mode = switch (share) {
            case "fair" -> Share.FAIR;
            case "first_come" -> Share.FIRST_COME;
            default -> throw top.error(top.value("share").orElseThrow(),
                    "'share' must be fair or first_come, got '" + share + "'", null);
        };
        Rule defaults = top.section("default", "in 'default'", RULE_KEYS, RULE_HINT).map(NodePolicy::rule)
                .orElse(Rule.NONE);
        Map<String, Rule> users = new LinkedHashMap<>();
        Optional<Node> named = top.value("users");
        if (named.isPresent() && !YamlSection.isNull(named.get())) {
            if (!(named.get() instanceof MappingNode mapping)) {
                throw document.error(named.get(), "'users' must map login names to rules, got "
                        + YamlSection.describe(named.get()), "users:\n  alice:\n    max_gpus: 2");
            }
            for (NodeTuple tuple : mapping.getValue()) {
                if (!(tuple.getKeyNode() instanceof ScalarNode key) || key.getValue().isBlank()) {
                    throw document.error(tuple.getKeyNode(), "a user under 'users' must be a login name", null);
                }
                Node value = tuple.getValueNode();
                Rule rule;
                if (YamlSection.isNull(value)) {
                    rule = Rule.NONE;
                } else if (value instanceof MappingNode entries) {
                    rule = rule(new YamlSection(document, entries, "for user '" + key.getValue() + "'", RULE_KEYS,
                            RULE_HINT));
                } else {
                    throw document.error(value, "user '" + key.getValue() + "' must have a mapping of "
                            + String.join(", ", RULE_KEYS) + ", got " + YamlSection.describe(value), RULE_HINT);
                }
                if (users.putIfAbsent(key.getValue(), rule) != null) {
                    throw document.error(key, "user '" + key.getValue() + "' is named twice", "keep only one of them");
                }
            }
        }
        return new NodePolicy(mode, defaults, users);
    }

    private static Rule rule(YamlSection section) {
        Integer weight = section.integer("weight", 1, 1000, null);
        Integer maxGpus = section.integer("max_gpus", 0, 4096, null);
        Long maxMib = null;
        Optional<Node> vram = section.value("max_vram");
        if (vram.isPresent() && !YamlSection.isNull(vram.get())) {
            String text = section.string("max_vram", null);
            OptionalLong mib = MemorySizes.mebibytes(text);
            if (mib.isEmpty()) {
                throw section.error(vram.get(), "'max_vram' must be a size such as 48G or 24576 (MiB), got '"
                        + text + "'", null);
            }
            maxMib = mib.getAsLong();
        }
        return new Rule(weight, maxGpus, maxMib);
    }
}
