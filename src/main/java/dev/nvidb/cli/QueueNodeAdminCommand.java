package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import dev.nvidb.output.Printable;
import dev.nvidb.output.JsonCommands;
import dev.nvidb.output.Json;
import dev.nvidb.queue.NodeAdmin;
import dev.nvidb.queue.Queue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code nvidb queue drain|resume|ignore|unignore NODE}: stop or restart placements on a node
 * (drain), or probing it at all (ignore). Each is a compare-and-set, so it never waits for a
 * tick in progress.
 */
abstract class QueueNodeAdminCommand extends QueueCall {

    @Mixin
    OpIdOption operation;

    @Parameters(paramLabel = "NODE", description = "The node (exact name or unique prefix).")
    String node;

    abstract String action();

    abstract boolean apply(NodeAdmin admin, String node);

    @Override
    int run(Queue queue, Wiring wiring) {
        String name = queue.nodeAdmin().resolve(node);
        boolean changed = apply(queue.nodeAdmin(), name);
        return answer(() -> new JsonCommands.NodeChanged(Json.SCHEMA_VERSION, true, name, action(), changed),
                () -> context.err().println(Printable.of(name) + ": " + action() + (changed ? "" : " (already)")));
    }

    @Command(name = "drain", description = "Stop placing new jobs on a node; running jobs keep running.")
    static final class Drain extends QueueNodeAdminCommand {
        String action() {
            return "drained";
        }

        boolean apply(NodeAdmin admin, String node) {
            return admin.drain(node, true);
        }
    }

    @Command(name = "resume", description = "Place jobs on a drained node again.")
    static final class Resume extends QueueNodeAdminCommand {
        String action() {
            return "resumed";
        }

        boolean apply(NodeAdmin admin, String node) {
            return admin.drain(node, false);
        }
    }

    @Command(name = "ignore", description = "Stop probing and scheduling a node, and hide it.")
    static final class Ignore extends QueueNodeAdminCommand {
        String action() {
            return "ignored";
        }

        boolean apply(NodeAdmin admin, String node) {
            return admin.ignore(node, true);
        }
    }

    @Command(name = "unignore", description = "Probe and schedule an ignored node again.")
    static final class Unignore extends QueueNodeAdminCommand {
        String action() {
            return "unignored";
        }

        boolean apply(NodeAdmin admin, String node) {
            return admin.ignore(node, false);
        }
    }
}
