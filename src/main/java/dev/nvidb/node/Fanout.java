package dev.nvidb.node;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Runs one task per node, all at once, each on its own thread, so a hung node costs only its
 * own answer. The tasks enforce their own timeouts (the SSH layer does); {@code bound} only
 * guards against a transport bug, after which the node's result is {@code failure}.
 */
public final class Fanout {

    private Fanout() {
    }

    /** The results in the order of {@code nodes}. */
    public static <R> List<R> each(List<Node> nodes, Function<Node, R> task, Duration bound,
                                   BiFunction<Node, String, R> failure) {
        if (nodes.size() == 1) {
            return List.of(task.apply(nodes.get(0)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, nodes.size()), runnable -> {
            Thread thread = new Thread(runnable, "node-task");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<R>> futures = new ArrayList<>();
            for (Node node : nodes) {
                futures.add(pool.submit(() -> task.apply(node)));
            }
            List<R> results = new ArrayList<>();
            long deadline = System.nanoTime() + bound.toNanos();
            for (int i = 0; i < nodes.size(); i++) {
                results.add(await(nodes.get(i), futures.get(i), deadline, failure));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private static <R> R await(Node node, Future<R> future, long deadline, BiFunction<Node, String, R> failure) {
        try {
            return future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            return failure.apply(node, node.name() + ": no answer in time");
        } catch (ExecutionException e) {
            return failure.apply(node, node.name() + ": " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return failure.apply(node, node.name() + ": interrupted");
        }
    }
}
