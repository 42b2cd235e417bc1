package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.JsonGroups;
import dev.nvidb.output.QueueText;
import dev.nvidb.queue.GroupView;
import dev.nvidb.queue.Queue;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code nvidb queue groups}: every group (sweep or array) with its progress and whether fail-fast held it. */
@Command(name = "groups", description = "List job groups (sweeps and arrays): progress, states, cap, held or not.",
        footerHeading = "%nExamples:%n",
        footer = {"  nvidb queue groups", "  nvidb queue groups --json | jq '.groups[] | {name, done, total, held}'"})
final class QueueGroupsCommand extends QueueCall.Read {

    @Override
    int run(Queue queue, Wiring wiring) {
        List<GroupView> groups = queue.groups().list();
        return answer(() -> JsonGroups.of(groups), () -> context.out().print(QueueText.groups(groups)));
    }
}
