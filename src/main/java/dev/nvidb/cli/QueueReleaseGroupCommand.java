package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonGroups;
import dev.nvidb.output.Printable;
import dev.nvidb.queue.Queue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code nvidb queue release-group G}: let a group that fail-fast held run again. */
@Command(name = "release-group", description = "Let a group held by fail-fast (quick failures in a row) run again.")
final class QueueReleaseGroupCommand extends QueueCall {

    @Mixin
    OpIdOption operation;

    @Parameters(arity = "1", paramLabel = "GROUP", description = "The group (see nvidb queue groups).")
    String group;

    @Override
    int run(Queue queue, Wiring wiring) {
        boolean released = queue.groups().release(group);
        answer(() -> new JsonGroups.Released(Json.SCHEMA_VERSION, true, group, released),
                () -> context.err().println("group " + Printable.of(group) + (released ? " released; its pending jobs"
                        + " may be placed again" : " was not held")));
        if (released) {
            wiring.refresh(queue, options, false);
        }
        return ExitCodes.ok();
    }
}
