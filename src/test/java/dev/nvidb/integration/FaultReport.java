package dev.nvidb.integration;

import java.util.Locale;
import java.util.Map;

/** The fault campaign's report (Markdown): seed, faults by kind, jobs by state, figures, checks. */
record FaultReport(long seed, FaultInjector injector, FaultWorkload workload, FaultChecks checks, double faultPhase,
                   double converged, double total) {

    String markdown() {
        StringBuilder out = new StringBuilder();
        out.append("# Fault campaign\n\n");
        out.append(String.format(Locale.ROOT, "Seed %d; %d jobs over 3 OpenSSH nodes; faults for %.0f s, all jobs final"
                + " at %.0f s, %.0f s in all.%n%n", seed, FaultWorkload.JOBS, faultPhase, converged, total));
        out.append("| fault | injected |\n|---|---|\n");
        int faults = 0;
        for (Map.Entry<FaultInjector.Fault, java.util.concurrent.atomic.AtomicInteger> entry : injector.injected.entrySet()) {
            int count = entry.getKey() == FaultInjector.Fault.KILL_SUBMIT ? workload.submitsKilled.get() : entry.getValue().get();
            faults += count;
            out.append("| ").append(entry.getKey().description).append(" | ").append(count).append(" |\n");
        }
        out.append("| **all faults** | **").append(faults).append("** |\n\n");
        out.append("Of the cuts, ").append(injector.cutsDuringLaunch.get()).append(" met a launch under way. ")
                .append(workload.cancels.get()).append(" cancel and ").append(workload.requeues.get())
                .append(" requeue processes ran in the bursts; ").append(workload.submitRetries.get())
                .append(" submits were answered only on a retry.\n\n");
        out.append("| jobs by final state | count |\n|---|---|\n");
        checks.states.forEach((state, count) -> out.append("| ").append(state).append(" | ").append(count).append(" |\n"));
        out.append("\n| figure | value |\n|---|---|\n");
        checks.figures.forEach((name, value) -> out.append("| ").append(name).append(" | ").append(value).append(" |\n"));
        out.append("| **duplicates** | **").append(checks.duplicates).append("** |\n");
        out.append("| **losses** | **").append(checks.losses).append("** |\n\n");
        out.append(commands());
        out.append("| check | result |\n|---|---|\n");
        for (FaultChecks.Check check : checks.checks) {
            out.append("| ").append(check.name()).append(" | ").append(check.passed() ? "passed" : "FAILED").append(" |\n");
        }
        out.append("\n").append(checks.passed()).append(" passed, ").append(checks.failed()).append(" failed\n");
        String failures = failures();
        if (!failures.isEmpty()) {
            out.append("\n## Failures\n\n").append(failures);
        }
        return out.toString();
    }

    /** The commands that ran to their end, by kind: how many, their exit codes, median and slowest wall time. */
    private String commands() {
        StringBuilder out = new StringBuilder("| command (ran to its end) | runs | exit codes | median s | max s |\n|---|---|---|---|---|\n");
        Map<String, java.util.List<FaultWorkload.Finished>> byCommand = new java.util.TreeMap<>();
        workload.finished.forEach(run -> byCommand.computeIfAbsent(run.command(), k -> new java.util.ArrayList<>()).add(run));
        byCommand.forEach((command, runs) -> {
            double[] walls = runs.stream().mapToDouble(FaultWorkload.Finished::seconds).sorted().toArray();
            Map<Integer, Long> codes = new java.util.TreeMap<>(runs.stream().collect(
                    java.util.stream.Collectors.groupingBy(FaultWorkload.Finished::exitCode, java.util.stream.Collectors.counting())));
            out.append(String.format(Locale.ROOT, "| `%s` | %d | %s | %.2f | %.1f |%n", command, runs.size(),
                    codes.toString().replaceAll("[{}]", ""), walls[walls.length / 2], walls[walls.length - 1]));
        });
        out.append('\n');
        // a submit answers 0 once its job is stored; anything else is worth reading
        workload.finished.stream().filter(run -> run.command().equals("job submit") && run.exitCode() != 0)
                .forEach(run -> out.append("- `job submit` exited ").append(run.exitCode()).append(": ")
                        .append(run.stderr().strip().replace('\n', ' ')).append('\n'));
        return out.append('\n').toString();
    }

    /** Each failed check with its first problems. */
    String failures() {
        StringBuilder out = new StringBuilder();
        for (FaultChecks.Check check : checks.checks) {
            if (!check.passed()) {
                out.append("- ").append(check.name()).append(":\n");
                check.problems().stream().limit(20).forEach(problem -> out.append("  - ").append(problem).append('\n'));
            }
        }
        return out.toString();
    }
}
