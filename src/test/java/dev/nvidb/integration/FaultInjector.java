package dev.nvidb.integration;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Injects the campaign's faults, each drawn with its parameters from one seeded
 * {@link Random} (so a seed gives the same sequence of faults; where they land in the queue's
 * work depends on timing): SIGKILLed clients, submit tickers, daemons and the keeper; a node's
 * sshd stopped with its sessions cut and started again; the relayed node hung and released; its
 * connections dropped the moment a launch writes its ledger entry; the small job root filled
 * and freed; bursts of concurrent cancels and requeues. A fault that lasts restores itself on
 * its own thread.
 */
final class FaultInjector {

    /** The kinds of fault, as counted in the report. */
    enum Fault {
        KILL_SUBMIT("submit SIGKILLed mid-way (then retried with its --op-id)"),
        KILL_TICK("`queue tick` SIGKILLed mid-tick"),
        KILL_TICKER("background submit ticker SIGKILLed"),
        KILL_DAEMON("`queue daemon` SIGKILLed"),
        KILL_KEEPER("keeper supervisor SIGKILLed"),
        SSHD_DOWN("node's sshd stopped, its sessions cut, restarted 3-9 s later"),
        NODE_HANG("node hung (relay stalled 4-10 s)"),
        CUT_MID_LAUNCH("node's connections dropped as a launch wrote its ledger entry"),
        DISK_FULL("node's job root filled for 4-10 s"),
        CANCEL_REQUEUE("burst of 2 concurrent cancel/requeue processes");

        final String description;

        Fault(String description) {
            this.description = description;
        }
    }

    private static final Fault[] DRAWN = {Fault.KILL_TICK, Fault.KILL_TICK, Fault.KILL_TICKER, Fault.KILL_DAEMON,
        Fault.KILL_DAEMON, Fault.KILL_KEEPER, Fault.SSHD_DOWN, Fault.SSHD_DOWN, Fault.NODE_HANG, Fault.CUT_MID_LAUNCH,
        Fault.CUT_MID_LAUNCH, Fault.DISK_FULL, Fault.CANCEL_REQUEUE, Fault.CANCEL_REQUEUE, Fault.CANCEL_REQUEUE};

    final Map<Fault, AtomicInteger> injected = new EnumMap<>(Fault.class);
    /** Cuts that met a launch under way (the others found no launch within 15 s and cut anyway). */
    final AtomicInteger cutsDuringLaunch = new AtomicInteger();
    private final FaultNodes nodes;
    private final FaultWorkload workload;
    private final FaultProcesses processes;
    private final Random random;
    private final long began = System.nanoTime();
    private final Map<String, Boolean> busy = new ConcurrentHashMap<>();
    private final List<Thread> lasting = new ArrayList<>();
    private Process daemon;

    FaultInjector(FaultNodes nodes, FaultWorkload workload, FaultProcesses processes, Random random) {
        this.nodes = nodes;
        this.workload = workload;
        this.processes = processes;
        this.random = random;
        for (Fault fault : Fault.values()) {
            injected.put(fault, new AtomicInteger());
        }
    }

    /** Waits 0.5 to 3 s, maybe brings a daemon or the keeper back, then injects one fault. */
    void step() throws Exception {
        Thread.sleep(500 + random.nextInt(2500));
        if (random.nextInt(3) == 0 && (daemon == null || !daemon.isAlive())) {
            daemon = workload.start("queue", "daemon");
            note("own daemon started");
        }
        if (random.nextInt(3) == 0) {
            last("keeper-ensure", () -> workload.run(List.of("queue", "keeper", "ensure")), true);
        }
        Fault fault = DRAWN[random.nextInt(DRAWN.length)];
        switch (fault) {
            case KILL_TICK -> killTick(Duration.ofMillis(100 + random.nextInt(2400)));
            case KILL_TICKER -> killMarked(fault, FaultProcesses::isTicker);
            case KILL_DAEMON -> killMarked(fault, FaultProcesses::isDaemon);
            case KILL_KEEPER -> killMarked(fault, FaultProcesses::isKeeper);
            case SSHD_DOWN -> sshdDown(random.nextBoolean() ? "fc-1" : "fc-3", Duration.ofMillis(3000 + random.nextInt(6000)));
            case NODE_HANG -> hang(Duration.ofMillis(4000 + random.nextInt(6000)));
            case CUT_MID_LAUNCH -> cutMidLaunch();
            case DISK_FULL -> diskFull(Duration.ofMillis(4000 + random.nextInt(6000)));
            case CANCEL_REQUEUE -> burst(new Random(random.nextLong()));
            default -> throw new IllegalStateException(fault.name());
        }
    }

    /** Waits for every lasting fault to restore what it broke; then every node is up again. */
    void restoreAll() throws InterruptedException {
        List<Thread> threads;
        synchronized (lasting) {
            threads = List.copyOf(lasting);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        nodes.relay.release();
        nodes.relay.refuse(false);
    }

    /** The campaign's own daemon, if it runs (the keeper runs another). */
    void stopOwnDaemon() throws InterruptedException {
        if (daemon != null && daemon.isAlive()) {
            daemon.destroy();
            daemon.waitFor();
        }
    }

    private void killTick(Duration delay) {
        count(Fault.KILL_TICK, "after " + delay.toMillis() + " ms");
        last(Fault.KILL_TICK.name(), () -> workload.killAfter(List.of("queue", "tick"), delay), false);
    }

    private void killMarked(Fault fault, java.util.function.Predicate<String> which) {
        int killed = processes.kill(which);
        if (killed > 0) {
            injected.get(fault).addAndGet(killed);
            note(fault + " x" + killed);
        }
    }

    private void sshdDown(String name, Duration down) {
        OpenSshHost host = nodes.host(name);
        last(name, () -> {
            count(Fault.SSHD_DOWN, name + " for " + down.toMillis() + " ms");
            host.stop(true);
            Thread.sleep(down.toMillis());
            host.startDaemon();
        }, true);
    }

    private void hang(Duration stalled) {
        last("relay", () -> {
            count(Fault.NODE_HANG, "fc-2 for " + stalled.toMillis() + " ms");
            nodes.relay.stall();
            Thread.sleep(stalled.toMillis());
            nodes.relay.release();
        }, true);
    }

    private void cutMidLaunch() {
        last("relay", () -> {
            count(Fault.CUT_MID_LAUNCH, "fc-2, armed");
            if (awaitLaunch(nodes.relayLedger(), Duration.ofSeconds(15))) {
                cutsDuringLaunch.incrementAndGet();
            }
            nodes.relay.dropAll();
        }, true);
    }

    private void diskFull(Duration full) {
        last("disk", () -> {
            count(Fault.DISK_FULL, "fc-3 for " + full.toMillis() + " ms");
            nodes.fillSmallJobRoot();
            Thread.sleep(full.toMillis());
            nodes.freeSmallJobRoot();
        }, true);
    }

    private void burst(Random burstRandom) {
        count(Fault.CANCEL_REQUEUE, "");
        last(Fault.CANCEL_REQUEUE.name(), () -> workload.cancelRequeueBurst(burstRandom), false);
    }

    /** True when a file appeared in {@code ledger} within {@code bound}: a launch is under way there. */
    private static boolean awaitLaunch(Path ledger, Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!Files.isDirectory(ledger)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        try (WatchService watch = FileSystems.getDefault().newWatchService()) {
            ledger.register(watch, StandardWatchEventKinds.ENTRY_CREATE);
            long left = deadline - System.nanoTime();
            return left > 0 && watch.poll(left, TimeUnit.NANOSECONDS) != null;
        }
    }

    /** An action that runs on its own thread; with {@code exclusive}, skipped while another holds {@code key}. */
    private void last(String key, Action action, boolean exclusive) {
        if (exclusive && busy.putIfAbsent(key, true) != null) {
            return;
        }
        Thread thread = new Thread(() -> {
            try {
                action.run();
            } catch (Exception e) {
                note("fault " + key + " failed: " + e);
            } finally {
                if (exclusive) {
                    busy.remove(key);
                }
            }
        }, "fault-" + key);
        synchronized (lasting) {
            lasting.add(thread);
        }
        thread.start();
    }

    private void count(Fault fault, String detail) {
        injected.get(fault).incrementAndGet();
        note(fault + " " + detail);
    }

    private void note(String line) {
        System.out.printf("fault campaign: t=%5.1fs %s%n", (System.nanoTime() - began) / 1e9, line);
    }

    /** Something a fault does that may throw. */
    private interface Action {
        void run() throws Exception;
    }
}
