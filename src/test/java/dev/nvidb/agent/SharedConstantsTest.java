package dev.nvidb.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nvidb.config.QueueConfig;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The values the Java side and the Python agent must agree on, each written once per language:
 * read from the agent's source by Python's own parser ({@code ast}: the agent is not run), and
 * held against the Java constant that depends on it. A change on one side alone fails here.
 */
class SharedConstantsTest {

    private static final List<String> NAMES = List.of("SCHEMA_VERSION", "SMI_GPU_FIELDS", "SMI_APP_FIELDS",
            "LOG_READ_LIMIT", "DEFAULT_JOB_ROOT", "SLURM_SQUEUE_FORMAT");
    private static JsonNode agent;

    @BeforeAll
    static void readTheAgentsConstants() throws Exception {
        String program = String.join("\n",
                "import ast, json, sys",
                "tree = ast.parse(open(sys.argv[1], encoding='utf-8').read())",
                "wanted, found = set(sys.argv[2:]), {}",
                "for node in tree.body:",
                "    if isinstance(node, ast.Assign) and len(node.targets) == 1 \\",
                "            and isinstance(node.targets[0], ast.Name) and node.targets[0].id in wanted:",
                "        found[node.targets[0].id] = ast.literal_eval(node.value)",
                "print(json.dumps(found))");
        List<String> command = new java.util.ArrayList<>(List.of(System.getProperty("nvidb.python", "/usr/bin/python3"),
                "-c", program, AgentSource.path().toString()));
        command.addAll(NAMES);
        Process python = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, python.waitFor(), out);
        agent = new ObjectMapper().readTree(out);
        assertEquals(NAMES.size(), agent.size(), "every constant found as a plain assignment: " + out);
    }

    @Test
    void theAgentAndTheNoPythonBranchAskNvidiaSmiForTheSameFields() {
        assertEquals(AgentScript.GPU_QUERY, agent.get("SMI_GPU_FIELDS").asText());
        assertEquals(AgentScript.APP_QUERY, agent.get("SMI_APP_FIELDS").asText());
    }

    @Test
    void theCsvParserReadsTheFieldsInTheOrderAsked() {
        List<String> fields = Arrays.asList(AgentScript.GPU_QUERY.split(","));
        assertEquals(SmiCsvParser.GPU_FIELDS, fields.size());
        assertEquals(List.of("index", "uuid", "pci.bus_id", "name"), fields.subList(0, 4));
        assertEquals("driver_version", fields.get(SmiCsvParser.GPU_FIELDS - 1), "the parser reads the driver last");
        assertEquals(List.of("gpu_uuid", "pid", "process_name", "used_memory"),
                Arrays.asList(AgentScript.APP_QUERY.split(",")), "SmiCsvParser reads uuid, pid, name…, memory");
    }

    @Test
    void protocolVersionLogBoundJobRootAndSlurmFormatAreTheSame() {
        assertEquals(AgentReplyParser.SCHEMA_VERSION, agent.get("SCHEMA_VERSION").asInt());
        assertEquals(LogRead.LIMIT, agent.get("LOG_READ_LIMIT").asInt());
        assertEquals(QueueConfig.defaults().jobRoot(), agent.get("DEFAULT_JOB_ROOT").asText());
        assertEquals(SlurmJob.SQUEUE_FORMAT, agent.get("SLURM_SQUEUE_FORMAT").asText());
    }
}
