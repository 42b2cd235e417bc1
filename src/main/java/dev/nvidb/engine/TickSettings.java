package dev.nvidb.engine;

import dev.nvidb.agent.AgentScript;
import dev.nvidb.config.QueueConfig;
import java.time.Duration;

/**
 * What a tick needs besides the database and the nodes: the queue's tuning, the agent to ship,
 * and how long one node may take to answer (connect, authenticate and run).
 */
public record TickSettings(QueueConfig queue, AgentScript agent, Duration nodeTimeout) {
}
