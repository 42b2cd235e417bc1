package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonGroups;
import dev.nvidb.output.Printable;
import dev.nvidb.queue.Queue;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code nvidb queue release-group G}: let a group that fail-fast held run again. */
@Command(name = "release-group", description = "Let a group held by fail-fast (quick failures in a row) run again.")
final class QueueReleaseGroupCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    QueueOptions options;

    @Mixin
    OpIdOption operation;

    @Parameters(arity = "1", paramLabel = "GROUP", description = "The group (see nvidb queue groups).")
    String group;

    QueueReleaseGroupCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            Queue queue = wiring.queue(options);
            boolean released = queue.groups().release(group);
            if (options.json) {
                context.out().println(Json.write(new JsonGroups.Released(Json.SCHEMA_VERSION, true, group, released)));
            } else {
                context.err().println("group " + Printable.of(group) + (released ? " released; its pending jobs may"
                        + " be placed again" : " was not held"));
            }
            if (released && !options.noTick) {
                wiring.refresh(queue, options, false);
            }
            return ExitCodes.ok();
        }
    }
}
