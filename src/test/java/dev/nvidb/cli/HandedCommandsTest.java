package dev.nvidb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nvidb.daemon.Handoff;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The command words a client sends to the daemon ({@link Handoff#commandTheDaemonRuns}) are
 * exactly the commands the daemon's parser runs ({@link HandedCommand}, {@link HandedCommand.AsLine}):
 * a command added to either side without the other fails here.
 */
class HandedCommandsTest {

    @Test
    void theClientSendsExactlyTheCommandsTheDaemonRuns() {
        Set<String> run = new TreeSet<>();
        Set<String> sent = new TreeSet<>();
        List<String> path = new ArrayList<>();
        walk(CommandTree.ROOT, path, run, sent);
        assertEquals(run, sent);
        assertEquals(Set.of("job cancel", "job ls", "job result", "job show", "job submit", "job wait", "job why",
                "queue alerts", "queue events", "queue nodes", "queue status"), run);
        assertEquals(true, Handoff.commandTheDaemonRuns(new String[] {"--json", "job", "ls"}), "after shared options");
        assertEquals(false, Handoff.commandTheDaemonRuns(new String[] {"job"}));
    }

    private static void walk(List<CommandTree.Branch> branches, List<String> path, Set<String> run, Set<String> sent) {
        for (CommandTree.Branch branch : branches) {
            path.add(branch.name());
            String words = String.join(" ", path);
            if (HandedCommand.class.isAssignableFrom(branch.type())
                    || HandedCommand.AsLine.class.isAssignableFrom(branch.type())) {
                run.add(words);
            }
            if (Handoff.commandTheDaemonRuns(path.toArray(String[]::new))) {
                sent.add(words);
            }
            walk(branch.children(), path, run, sent);
            path.remove(path.size() - 1);
        }
    }
}
