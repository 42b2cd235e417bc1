package dev.nvidb.web;

import dev.nvidb.output.JsonMonitor;
import java.math.BigDecimal;
import java.util.List;

/**
 * {@code /api/live}: when it was read, whether the servers are included, the capacity line over
 * the GPUs that answered, and every node as {@code nvidb --once --json} shows it ({@code status}
 * "up", "no_gpu", "down" with its {@code error}), or "probing" before its first answer.
 */
record JsonLive(int schemaVersion, boolean remote, BigDecimal at, JsonMonitor.JsonCapacity capacity,
                List<JsonMonitor.JsonMonitorNode> nodes) {
}
