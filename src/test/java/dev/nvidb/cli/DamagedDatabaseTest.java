package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A queue.db changed outside nvidb: a row whose JSON columns do not parse is shown with what
 * can be read and a warning naming the job, the other rows as usual (it used to make every
 * {@code job ls} an internal error, exit 70); a damaged file gets a hint that names only what
 * exists.
 */
class DamagedDatabaseTest {

    @TempDir
    Path home;

    private Map<String, String> env;

    @BeforeEach
    void queueWithThreeJobs() throws Exception {
        env = CliRun.localQueue(home);
        for (String name : new String[] {"first", "second", "third"}) {
            CliRun run = CliRun.run(env, "job", "submit", "--no-tick", "--gpus", "0", "--name", name, "--tag", "t",
                    "--env", "A=1", "--", "true");
            assertEquals(0, run.exitCode(), run.stderr());
        }
    }

    private void sql(String statement) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + home.resolve(".nvidb/queue.db"));
             Statement sql = connection.createStatement()) {
            sql.execute("PRAGMA ignore_check_constraints = ON");  // as a hand edit or another tool could
            sql.executeUpdate(statement);
        }
    }

    @Test
    void aRowWithBadJsonIsListedWithAWarningAndTheOthersAsUsual() throws Exception {
        sql("UPDATE jobs SET env = '{bad', state = 'cancelled', finished_at = created_at WHERE id = 2");
        sql("UPDATE jobs SET tags = '[1,' WHERE id = 3");
        sql("UPDATE jobs SET env = '{\"A\": {\"nested\": 1}}' WHERE id = 1");  // valid JSON, but not a string value

        CliRun list = CliRun.run(env, "job", "ls", "--no-tick");
        assertEquals(0, list.exitCode(), list.stderr());
        assertEquals(4, list.stdout().lines().count(), list.stdout());
        assertTrue(list.stdout().contains("first") && list.stdout().contains("second") && list.stdout().contains("third"),
                list.stdout());
        assertTrue(list.stderr().contains("job 2") && list.stderr().contains("env"), list.stderr());
        assertTrue(list.stderr().contains("job 3") && list.stderr().contains("tags"), list.stderr());
        assertTrue(list.stderr().contains("job 1"), list.stderr());

        CliRun json = CliRun.run(env, "job", "ls", "--no-tick", "--json");
        assertEquals(0, json.exitCode(), json.stderr());
        JsonNode document = new ObjectMapper().readTree(json.stdout());
        assertEquals(3, document.get("count").asInt(), json.stdout());

        CliRun show = CliRun.run(env, "job", "show", "2", "--no-tick");
        assertEquals(0, show.exitCode(), show.stderr());
        assertTrue(show.stderr().contains("job 2") && show.stderr().contains("env holds bad JSON"), show.stderr());

        CliRun ticked = CliRun.run(env, "job", "ls");
        assertEquals(0, ticked.exitCode(), "a pending damaged row fails that job, not the tick: " + ticked.stderr());
        for (String id : new String[] {"1", "3"}) {
            JsonNode job = new ObjectMapper().readTree(CliRun.run(env, "job", "show", id, "--no-tick", "--json").stdout())
                    .get("job");
            assertEquals("failed", job.get("state").asText(), job.toString());
            assertTrue(job.get("last_error").asText().contains("damaged"), job.toString());
        }
    }

    @Test
    void aFinishedRowWithBadJsonDoesNotStopTheTick() throws Exception {
        sql("UPDATE jobs SET env = '{bad', state = 'cancelled', finished_at = created_at WHERE id = 2");
        CliRun ticked = CliRun.run(env, "job", "ls");
        assertEquals(0, ticked.exitCode(), ticked.stderr());
        assertTrue(ticked.stderr().contains("job 2"), ticked.stderr());
    }

    @Test
    void aDamagedFileGetsAHintWithoutABackupsFolder() throws Exception {
        byte[] garbage = new byte[8192];
        java.util.Arrays.fill(garbage, (byte) 'x');
        Files.write(home.resolve(".nvidb/queue.db"), garbage);
        CliRun run = CliRun.run(env, "job", "ls", "--no-tick");
        assertTrue(run.exitCode() != 0, run.stderr());
        assertFalse(run.stderr().contains("backups"), "there is no backups folder to point to: " + run.stderr());
        assertTrue(run.stderr().contains("queue.db"), run.stderr());
    }
}
