package dev.nvidb.integration;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/**
 * Keeps evidence of a command that hangs: every 5 s it looks for the campaign's client
 * processes (not daemons, tickers or the keeper) running for more than 40 s and saves one
 * thread dump of each ({@code jstack}), and of every daemon at that moment, in the logs folder,
 * naming the files on stdout.
 */
final class FaultWatchdog implements AutoCloseable {

    private static final Duration SLOW = Duration.ofSeconds(40);

    private final Thread thread;
    private volatile boolean stopped;

    private FaultWatchdog(FaultProcesses processes, Path logs) {
        Set<Long> dumped = new HashSet<>();
        thread = new Thread(() -> {
            while (!stopped) {
                for (FaultProcesses.Found process : processes.find(line -> line.contains("java")
                        && !FaultProcesses.isDaemon(line) && !FaultProcesses.isTicker(line))) {
                    Instant start = ProcessHandle.of(process.pid()).flatMap(h -> h.info().startInstant()).orElse(Instant.now());
                    if (Duration.between(start, Instant.now()).compareTo(SLOW) > 0 && dumped.add(process.pid())) {
                        dump(process, logs.resolve("stack-" + process.pid() + ".txt"));
                        // a command handed to a daemon runs there: its threads tell where it waits
                        for (FaultProcesses.Found daemon : processes.find(FaultProcesses::isDaemon)) {
                            dump(daemon, logs.resolve("stack-" + process.pid() + "-daemon-" + daemon.pid() + ".txt"));
                        }
                    }
                }
                try {
                    Thread.sleep(5000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "fault-watchdog");
        thread.setDaemon(true);
    }

    static FaultWatchdog start(FaultProcesses processes, Path logs) {
        FaultWatchdog watchdog = new FaultWatchdog(processes, logs);
        watchdog.thread.start();
        return watchdog;
    }

    private static void dump(FaultProcesses.Found process, Path file) {
        try {
            new ProcessBuilder("jstack", String.valueOf(process.pid())).redirectErrorStream(true)
                    .redirectOutput(file.toFile()).start().waitFor();
            System.out.println("fault campaign: slow process " + process.pid() + " (" + process.commandLine()
                    .replaceAll(".*nvidb\\.jar ", "") + "): thread dump in " + file);
        } catch (IOException e) {
            System.out.println("fault campaign: no thread dump of " + process.pid() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
    }
}
