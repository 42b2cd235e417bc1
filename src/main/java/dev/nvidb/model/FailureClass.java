package dev.nvidb.model;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Why a job that ran ended badly: recorded with the failing transition, shown by {@code job ls}
 * and {@code job show}, and named in the {@code job_failed} alert. The rules (docs/scheduling.md,
 * "Failure classes"), pure so they are tested without a node:
 *
 * <ul>
 *   <li>{@link #OOM}: exited non-zero and the last 16 KiB of its stderr or stdout hold one of
 *       {@link #OOM_PATTERNS} (whatever the exit status, a signal included: a job that printed
 *       "CUDA out of memory" and was then killed ran out of memory);</li>
 *   <li>{@link #SIGNAL}: exit status 128+N for N in 1..31 (129..159), the way the wrapper's shell
 *       reports a job killed by signal N (137 KILL, 143 TERM). A job that itself calls
 *       {@code exit(137)} reads the same: no shell can tell them apart;</li>
 *   <li>{@link #EXIT_CODE}: any other non-zero exit status;</li>
 *   <li>{@link #LAUNCH}: it could never be started (its {@code run.sh} could not be made, its row
 *       is damaged); a job held after two failed launches is pending, not failed, and has no class;</li>
 *   <li>{@link #LOST}: its process vanished without an exit status, or its node stayed silent;</li>
 *   <li>{@link #TIMEOUT}: it ran longer than {@code --timeout}.</li>
 * </ul>
 * Completed and cancelled jobs have no class, nor do failed jobs that never ran (unschedulable,
 * a dependency failed).
 */
public enum FailureClass {
    OOM, SIGNAL, EXIT_CODE, LAUNCH, LOST, TIMEOUT;

    /** How much of the end of each log the OOM patterns are looked for in. */
    public static final int OOM_SCAN_BYTES = 16 * 1024;

    /** What frameworks print when GPU memory runs out (PyTorch, CUDA runtime and driver, TensorFlow/JAX/XLA). */
    public static final List<String> OOM_PATTERNS = List.of("CUDA out of memory", "torch.OutOfMemoryError",
            "cudaErrorMemoryAllocation", "CUDA_ERROR_OUT_OF_MEMORY", "RESOURCE_EXHAUSTED");

    /** The stored and printed text: {@code oom}, {@code signal}, {@code exit_code}, … */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The class named by {@code key}, or empty for a key this build does not know. */
    public static Optional<FailureClass> fromKey(String key) {
        for (FailureClass value : values()) {
            if (value.key().equals(key)) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }

    /** The first OOM pattern in {@code logTail}, or empty (none, or no tail). Case matters, as frameworks print them. */
    public static Optional<String> oomPattern(String logTail) {
        if (logTail == null || logTail.isEmpty()) {
            return Optional.empty();
        }
        return OOM_PATTERNS.stream().filter(logTail::contains).findFirst();
    }

    /** The signal a wrapper's exit status stands for (129..159 → 1..31), or empty. */
    public static Optional<Integer> signal(int exitCode) {
        return exitCode > 128 && exitCode < 160 ? Optional.of(exitCode - 128) : Optional.empty();
    }

    /** The class of a job that exited with non-zero {@code exitCode} (null: unknown) and left {@code logTail}. */
    public static FailureClass ofExit(Integer exitCode, String logTail) {
        if (exitCode != null && exitCode == 0) {
            throw new IllegalArgumentException("a job that exited 0 did not fail");
        }
        if (oomPattern(logTail).isPresent()) {
            return OOM;
        }
        return exitCode != null && signal(exitCode).isPresent() ? SIGNAL : EXIT_CODE;
    }

    /** A few words for messages: {@code out of memory}, {@code killed by signal 9 (KILL)}, … */
    public static String describe(FailureClass failureClass, Integer exitCode) {
        return switch (failureClass) {
            case OOM -> "out of memory";
            case SIGNAL -> exitCode == null ? "killed by a signal" : "killed by signal " + (exitCode - 128)
                    + signalName(exitCode - 128).map(name -> " (" + name + ")").orElse("");
            case EXIT_CODE -> "exit code";
            case LAUNCH -> "could not launch";
            case LOST -> "lost";
            case TIMEOUT -> "timed out";
        };
    }

    private static Optional<String> signalName(int signal) {
        return Optional.ofNullable(switch (signal) {
            case 1 -> "HUP";
            case 2 -> "INT";
            case 3 -> "QUIT";
            case 4 -> "ILL";
            case 6 -> "ABRT";
            case 7 -> "BUS";
            case 8 -> "FPE";
            case 9 -> "KILL";
            case 11 -> "SEGV";
            case 13 -> "PIPE";
            case 15 -> "TERM";
            default -> null;
        });
    }
}
