package dev.nvidb.engine;

import dev.nvidb.agent.AgentRequest;
import dev.nvidb.agent.KillReport;
import dev.nvidb.agent.KillRequest;
import dev.nvidb.node.Node;
import dev.nvidb.node.NodeAnswer;
import dev.nvidb.node.ProbeRound;
import dev.nvidb.store.Database;
import dev.nvidb.store.PendingReap;
import dev.nvidb.store.ReapStore;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sends the kills a cancel or requeue just recorded, right away, without waiting for a tick:
 * one exec per node concerned. Kills are checked against the process identity on the node
 * and are idempotent, so this needs no lease. A node that does not answer keeps its reaps,
 * and the first probe that reaches it again sends them.
 */
final class Reaper {

    private final Database database;
    private final QueueNodes nodes;
    private final TickSettings settings;
    private final Clock clock;

    Reaper(Database database, QueueNodes nodes, TickSettings settings, Clock clock) {
        this.database = database;
        this.nodes = nodes;
        this.settings = settings;
        this.clock = clock;
    }

    /** Sends every owed kill on {@code nodeNames}; returns how many were completed. */
    int reapNow(List<String> nodeNames) {
        ReapStore reaps = new ReapStore(database);
        Map<Node, AgentRequest> requests = new LinkedHashMap<>();
        Map<String, List<PendingReap>> owed = new LinkedHashMap<>();
        for (String name : nodeNames) {
            List<PendingReap> here = reaps.list(name);
            List<KillRequest> kills = Launches.kills(here, settings.queue());
            if (!kills.isEmpty()) {
                nodes.findNode(name).ifPresent(node -> {
                    requests.put(node, AgentRequest.probe(nodes.jobRoot(name)).withoutSnapshot().withKills(kills));
                    owed.put(name, here);
                });
            }
        }
        int done = 0;
        Instant now = clock.instant();
        for (NodeAnswer answer : new ProbeRound(settings.agent(), settings.nodeTimeout()).run(requests).values()) {
            if (!answer.answered()) {
                continue;
            }
            for (PendingReap reap : owed.get(answer.node())) {
                KillReport kill = answer.reply().findKill(reap.id()).orElse(null);
                if (kill != null && kill.outcome() != KillReport.Outcome.ERROR) {
                    reaps.complete(reap.id(), now);
                    done++;
                }
            }
        }
        return done;
    }
}
