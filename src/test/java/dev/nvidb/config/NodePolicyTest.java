package dev.nvidb.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nvidb.error.ConfigException;
import dev.nvidb.model.NodeClaims;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A node's policy.yml (docs/sharing.md): what it sets, what a user left out falls back to, and one line per mistake. */
class NodePolicyTest {

    private static final String FILE = "gpu-a:/tmp/nvidb-claims/policy.yml";

    @Test
    void aUsersRuleFallsBackToTheDefaultKeyByKey() {
        NodePolicy policy = NodePolicy.parse("""
                share: fair
                default:
                  max_gpus: 4
                  max_vram: 96G
                users:
                  alice:
                    weight: 2
                  bob:
                    max_gpus: 1
                  carol:
                """, FILE);
        assertEquals(NodePolicy.Share.FAIR, policy.share());
        assertEquals(new NodePolicy.Rule(2, 4, 96L * 1024), policy.ruleFor("alice"));
        assertEquals(new NodePolicy.Rule(null, 1, 96L * 1024), policy.ruleFor("bob"));
        assertEquals(new NodePolicy.Rule(null, 4, 96L * 1024), policy.ruleFor("carol"));
        assertEquals(new NodePolicy.Rule(null, 4, 96L * 1024), policy.ruleFor("dave"));
        assertEquals(1, policy.ruleFor("bob").effectiveWeight());
        assertEquals("share fair; everyone: max 4 GPUs, max 96.0G; alice: weight 2; bob: max 1 GPU; carol: as everyone",
                policy.describe());
    }

    @Test
    void anEmptyFileIsFirstComeWithNoCaps() {
        NodePolicy policy = NodePolicy.parse("# nothing yet\n", FILE);
        assertEquals(NodePolicy.NONE, policy);
        assertEquals(false, policy.ruleFor("anyone").caps());
    }

    @Test
    void eachMistakeIsOneLineWithItsLine() {
        assertEquals(FILE + ":1: unknown key 'shares' in the node policy (did you mean 'share'?)",
                message("shares: fair\n"));
        assertEquals(FILE + ":1: 'share' must be fair or first_come, got 'equal'", message("share: equal\n"));
        assertEquals(FILE + ":3: 'max_vram' must be a size such as 48G or 24576 (MiB), got 'lots'",
                message("users:\n  bob:\n    max_vram: lots\n"));
        assertEquals(FILE + ":2: 'weight' must be an integer between 1 and 1000, got 0", message("default:\n  weight: 0\n"));
        assertEquals(FILE + ":1: 'users' must map login names to rules, got a list", message("users: [alice]\n"));
        assertTrue(message("share: [").startsWith(FILE + ":1: malformed YAML"), message("share: ["));
    }

    @Test
    void aNodesPolicyThatDoesNotParseIsNotHonouredAndSaysWhy() {
        NodeClaims broken = new NodeClaims("/tmp/nvidb-claims", null, List.of(), List.of(), List.of(), "share: equal\n",
                null, new NodeClaims.User(1001, "alice"));
        assertTrue(NodePolicy.of(broken).isEmpty());
        assertEquals("/tmp/nvidb-claims/policy.yml:1: 'share' must be fair or first_come, got 'equal'"
                + " (not honoured until it is fixed)", NodePolicy.problem(broken));
        NodeClaims ignored = new NodeClaims("/tmp/nvidb-claims", null, List.of(), List.of(), List.of(), null,
                "ignored /tmp/nvidb-claims/policy.yml: a symbolic link", null);
        assertEquals("ignored /tmp/nvidb-claims/policy.yml: a symbolic link", NodePolicy.problem(ignored));
    }

    private static String message(String text) {
        return assertThrows(ConfigException.class, () -> NodePolicy.parse(text, FILE)).getMessage();
    }
}
