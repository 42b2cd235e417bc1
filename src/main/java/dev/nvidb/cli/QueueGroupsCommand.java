package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.model.JobState;
import dev.nvidb.output.Json;
import dev.nvidb.output.JsonGroups;
import dev.nvidb.output.Printable;
import dev.nvidb.queue.GroupView;
import dev.nvidb.queue.Queue;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code nvidb queue groups}: every group (sweep or array) with its progress and whether fail-fast held it. */
@Command(name = "groups", description = "List job groups (sweeps and arrays): progress, states, cap, held or not.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb queue groups", "  nvidb queue groups --json | jq '.groups[] | {name, done, total, held}'"})
final class QueueGroupsCommand implements Callable<Integer> {

    private final Context context;

    @Mixin
    QueueOptions options;

    QueueGroupsCommand(Context context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        try (Wiring wiring = new Wiring(context)) {
            Queue queue = wiring.queue(options);
            wiring.refresh(queue, options, true);
            List<GroupView> groups = queue.groups().list();
            if (options.json) {
                context.out().println(Json.write(JsonGroups.of(groups)));
            } else {
                context.out().print(table(groups));
            }
            return ExitCodes.ok();
        }
    }

    static String table(List<GroupView> groups) {
        StringBuilder text = new StringBuilder(String.format("%-24s %9s %7s %7s %6s %9s %4s  %s%n", "GROUP", "DONE",
                "PENDING", "RUNNING", "FAILED", "CANCELLED", "CAP", "STATE"));
        for (GroupView group : groups) {
            int failed = group.counts().get(JobState.FAILED) + group.counts().get(JobState.TIMEOUT)
                    + group.counts().get(JobState.LOST);
            text.append(String.format("%-24s %9s %7d %7d %6d %9d %4s  %s%n", Printable.of(group.name()),
                    group.done() + "/" + group.total(), group.counts().get(JobState.PENDING),
                    group.counts().get(JobState.RUNNING), failed, group.counts().get(JobState.CANCELLED),
                    group.maxRunning() == null ? "-" : group.maxRunning().toString(),
                    group.held() ? "held: " + Printable.of(group.heldReason()) : "ok"));
        }
        return text.toString();
    }
}
