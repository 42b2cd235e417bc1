package dev.nvidb.queue;

import dev.nvidb.alerts.AlertDocument;
import dev.nvidb.alerts.Channel;
import dev.nvidb.alerts.CommandChannel;
import dev.nvidb.alerts.DesktopChannel;
import dev.nvidb.alerts.LogChannel;
import dev.nvidb.config.NotifyConfig;
import dev.nvidb.store.Alert;
import dev.nvidb.store.Database;
import dev.nvidb.store.DeliveryStore;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Delivers alerts on the channels of {@code queue.notify}, each alert exactly once per channel,
 * also with several daemons at once and across a daemon killed mid-delivery:
 *
 * <ol>
 * <li>the channel's first pass records where it begins: alerts raised over {@link #BACKLOG_AGE}
 *     earlier are its backlog, not owed (counted in the pass's report);</li>
 * <li>alerts below {@code min_severity}, and on {@code desktop} and {@code command} alerts a person
 *     acknowledged before delivery, are recorded as not owed ({@code log} is the record of every
 *     alert and takes acknowledged ones too);</li>
 * <li>then, one alert at a time: a claim (compare-and-set in its own transaction, for the
 *     channel's timeout plus {@link #CLAIM_MARGIN}), the delivery outside any transaction, and
 *     the outcome: delivered for good, or failed: the attempt counted, the error kept, the next
 *     attempt backed off (5 s doubling up to {@code backoff_max_seconds}), the alert still owed.
 *     A channel stops for the pass at its first failure; the others go on.</li>
 * </ol>
 *
 * A daemon killed after a delivery and before recording it leaves a claim that expires and is
 * taken over: that alert is delivered a second time on that channel, the one duplicate, which
 * the receiver recognises by the alert's id.
 */
public final class Delivering {

    /** Alerts older than this when a channel first runs are its backlog and are not owed to it. */
    public static final Duration BACKLOG_AGE = Duration.ofHours(24);
    /** A claim outlives the channel's own timeout by this much. */
    public static final Duration CLAIM_MARGIN = Duration.ofSeconds(5);
    /** The first retry of a failed delivery; each further failure doubles it. */
    public static final Duration FIRST_BACK_OFF = Duration.ofSeconds(5);
    /** At most this many deliveries per channel per pass (the rest wait for the next pass). */
    static final int BATCH = 200;

    private final Database database;
    private final DeliveryStore store = new DeliveryStore();
    private final List<Channel> channels;
    private final NotifyConfig notify;
    private final Clock clock;
    private final Duration longestBackOff;
    private final String claimant;

    Delivering(Database database, List<Channel> channels, NotifyConfig notify, Clock clock, Duration longestBackOff) {
        this.database = database;
        this.channels = List.copyOf(channels);
        this.notify = notify;
        this.clock = clock;
        this.longestBackOff = longestBackOff;
        this.claimant = "pid " + ProcessHandle.current().pid() + "/" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** One round over every channel. */
    public NotifyPass deliver() {
        List<NotifyPass.Channel> results = new ArrayList<>();
        for (Channel channel : channels) {
            results.add(deliver(channel));
        }
        return new NotifyPass(results);
    }

    private NotifyPass.Channel deliver(Channel channel) {
        String name = channel.name();
        Duration claimFor = channel.timeout().plus(CLAIM_MARGIN);
        boolean acknowledgedNotOwed = !LogChannel.NAME.equals(name);
        int minRank = notify.minRank();
        Instant began = clock.instant();
        long[] backlog = {0};
        int notOwed = database.write("record alerts not owed on " + name, conn -> {
            store.start(conn, name, began, began.minus(BACKLOG_AGE)).ifPresent(open -> backlog[0] = open);
            return store.markNotOwed(conn, name, minRank, acknowledgedNotOwed, began, claimFor, longestBackOff);
        });
        int delivered = 0;
        int failed = 0;
        String error = null;
        for (int i = 0; i < BATCH; i++) {
            Instant now = clock.instant();
            Optional<DeliveryStore.Claim> claim = database.write("claim an alert for " + name, conn -> store.claimNext(
                    conn, name, claimant, minRank, acknowledgedNotOwed, now, claimFor, longestBackOff));
            if (claim.isEmpty()) {
                break;
            }
            Alert alert = claim.get().alert();
            String problem = null;
            try {
                channel.deliver(alert, AlertDocument.json(alert));
            } catch (IOException e) {
                problem = e.getMessage() == null ? e.toString() : e.getMessage();
            }
            Instant done = clock.instant();
            if (problem == null) {
                database.write("record alert " + alert.id() + " delivered on " + name, conn -> {
                    store.recordDelivered(conn, alert.id(), name, done);
                    return null;
                });
                delivered++;
            } else {
                String reason = problem;
                Instant next = done.plus(backOff(claim.get().attempts()));
                database.write("record a failed delivery of alert " + alert.id() + " on " + name,
                        conn -> store.recordFailure(conn, alert.id(), name, claimant, reason, done, next));
                failed++;
                error = "alert " + alert.id() + ": " + problem;
                break;
            }
        }
        DeliveryStore.ChannelState state = database.read("read delivery on " + name,
                conn -> store.state(conn, name, minRank, acknowledgedNotOwed));
        return new NotifyPass.Channel(name, delivered, notOwed, backlog[0], failed, error, state.owed(),
                state.nextAttemptAt());
    }

    /** Where each channel {@code notify} turns on stands, for {@code queue status}; null when none is on. */
    static NotifyStatus status(Database database, NotifyConfig notify) {
        List<String> names = new ArrayList<>();
        if (notify.log()) {
            names.add(LogChannel.NAME);
        }
        if (notify.desktop()) {
            names.add(DesktopChannel.NAME);
        }
        if (notify.hasCommand()) {
            names.add(CommandChannel.NAME);
        }
        if (names.isEmpty()) {
            return null;
        }
        DeliveryStore store = new DeliveryStore();
        return database.read("read alert delivery", conn -> {
            List<NotifyStatus.Channel> states = new ArrayList<>();
            for (String name : names) {
                DeliveryStore.ChannelState state = store.state(conn, name, notify.minRank(), !LogChannel.NAME.equals(name));
                states.add(new NotifyStatus.Channel(name, state.startedAt() != null, state.owed(), state.failing(),
                        state.lastError(), state.lastErrorAt(), state.nextAttemptAt()));
            }
            return new NotifyStatus(states);
        });
    }

    /** 5 s after the first failure, doubling with each further one, at most {@code backoff_max_seconds}. */
    Duration backOff(int attemptsBefore) {
        Duration wait = FIRST_BACK_OFF.multipliedBy(1L << Math.min(attemptsBefore, 20));
        return wait.compareTo(longestBackOff) > 0 ? longestBackOff : wait;
    }
}
