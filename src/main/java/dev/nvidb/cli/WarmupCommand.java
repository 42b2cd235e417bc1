package dev.nvidb.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * Hidden: exercises the classes a typical command loads, so the launcher's class-data-sharing
 * archive (built from this run's class list) covers them.
 */
@Command(name = "__warmup", hidden = true)
final class WarmupCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        return 0;
    }
}
