package dev.nvidb.store;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Measures what opening queue.db costs a command: the first open in a fresh JVM (driver and
 * native library load included) and warm opens, each with a trivial read. Usage:
 * {@code java -cp <test classpath> dev.nvidb.store.OpenCostMain /path/to/queue.db}.
 */
public final class OpenCostMain {

    private OpenCostMain() {
    }

    public static void main(String[] args) {
        Path file = Path.of(args[0]);
        long jvmUp = ManagementFactory.getRuntimeMXBean().getUptime();
        long start = System.nanoTime();
        openAndRead(file);
        long first = System.nanoTime() - start;
        long[] warm = new long[200];
        for (int i = 0; i < warm.length; i++) {
            long t = System.nanoTime();
            openAndRead(file);
            warm[i] = System.nanoTime() - t;
        }
        Arrays.sort(warm);
        System.out.printf("jvm_uptime_before_open_ms=%d first_open_and_read_ms=%.1f warm_median_ms=%.2f warm_p90_ms=%.2f%n",
                jvmUp, first / 1e6, warm[warm.length / 2] / 1e6, warm[warm.length * 9 / 10] / 1e6);
    }

    static void openAndRead(Path file) {
        try (Database database = Database.open(file)) {
            new MetaStore(database).getInstant(MetaStore.LAST_TICK_AT);
        }
    }
}
