package dev.nvidb.cli;

import dev.nvidb.app.Wiring;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Options every queue command takes: output and verbosity, whether to refresh the queue
 * first, and which database to use.
 */
public final class QueueOptions implements Wiring.QueueChoice {

    @Option(names = "--json", description = "Print one JSON document on stdout.")
    boolean json;

    @Option(names = "--verbose", description = "Print stack traces and transport details on failure.")
    boolean verbose;

    @Option(names = "--tick", description = "Refresh the queue first even if it was refreshed moments ago.")
    boolean tick;

    @Option(names = "--no-tick", description = "Do not contact nodes: a pure read of the database.")
    boolean noTick;

    @Option(names = "--db-path", paramLabel = "FILE", description = "Use this queue database instead of $NVIDB_HOME/queue.db.")
    String dbPath;

    /** The command these options belong to (its name is recorded with a tick lease). */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--local", description = "Use this machine's queue even when queue.yml names a remote queue host.")
    boolean local;

    @Override
    public String dbPath() {
        return dbPath;
    }

    @Override
    public boolean local() {
        return local;
    }

    @Override
    public boolean tick() {
        return tick;
    }

    @Override
    public boolean noTick() {
        return noTick;
    }

    @Override
    public String commandName() {
        return command == null ? null : command.qualifiedName();
    }
}
