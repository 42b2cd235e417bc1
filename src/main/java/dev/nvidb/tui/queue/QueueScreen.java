package dev.nvidb.tui.queue;

import dev.nvidb.model.JobState;
import dev.nvidb.queue.JobChange;
import dev.nvidb.queue.JobView;
import dev.nvidb.queue.NodeView;
import dev.nvidb.queue.QueueStatus;
import dev.nvidb.tui.Frame;
import dev.nvidb.tui.Input;
import dev.nvidb.tui.TuiSession;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The queue screen's behaviour: keys and clicks change {@link QueueScreenState} or hand an
 * action to the {@link QueueWorker}; nothing here waits on the database or a node. A cancel
 * needs a second {@code c} (or a second click on its button) on the same job within
 * {@link #CONFIRM_WITHIN}.
 */
final class QueueScreen implements TuiSession.Screen {

    static final Duration CONFIRM_WITHIN = Duration.ofSeconds(5);

    private final QueueWorker worker;
    private final Clock clock;
    private final QueueScreenState state = new QueueScreenState();
    private Long following;

    QueueScreen(QueueWorker worker, Clock clock) {
        this.worker = worker;
        this.clock = clock;
    }

    QueueScreenState state() {
        return state;
    }

    @Override
    public long version() {
        // Ages on screen (tick age, running times) change every second even without new data.
        return worker.version() * 1_000_003L + clock.millis() / 1000;
    }

    @Override
    public Frame render(int width, int height) {
        Instant now = clock.instant();
        QueueData data = worker.data();
        settle(data.status(), now);
        return QueueRenderer.render(new QueueView(state, data, worker.log(), worker.message(), worker.automatic(),
                worker.refresh(), now), width, height);
    }

    /** Keeps the selections on things that exist and the followed log on the selected job. */
    private void settle(QueueStatus status, Instant now) {
        if (state.armedAt != null && Duration.between(state.armedAt, now).compareTo(CONFIRM_WITHIN) > 0) {
            disarm();
        }
        if (status == null) {
            return;
        }
        List<JobView> jobs = QueueRenderer.visibleJobs(state, status, now);
        if (jobs.stream().noneMatch(job -> Objects.equals(job.id(), state.selectedJob))) {
            state.selectedJob = jobs.isEmpty() ? null : jobs.get(0).id();
        }
        List<NodeView> nodes = status.nodes();
        if (nodes.stream().noneMatch(node -> node.name().equals(state.selectedNode))) {
            state.selectedNode = nodes.isEmpty() ? null : nodes.get(0).name();
        }
        Long wanted = state.pane == QueueScreenState.Pane.LOG ? state.selectedJob : null;
        if (!Objects.equals(wanted, following)) {
            following = wanted;
            worker.follow(wanted);
        }
    }

    @Override
    public boolean handle(Input input, Frame shown) {
        if (input.isMouse()) {
            return mouse(input, shown);
        }
        if (state.help) {
            if (input.is('?') || input.is('q') || input.kind() == Input.Kind.ESCAPE) {
                state.help = false;
            }
            return true;
        }
        Instant now = clock.instant();
        QueueStatus status = worker.data().status();
        List<JobView> jobs = QueueRenderer.visibleJobs(state, status, now);
        if (input.kind() != Input.Kind.CHAR || input.codePoint() != 'c') {
            disarm();
        }
        switch (input.kind()) {
            case UP -> move(jobs, status, -1);
            case DOWN -> move(jobs, status, 1);
            case PAGE_UP -> move(jobs, status, -page());
            case PAGE_DOWN -> move(jobs, status, page());
            case HOME -> move(jobs, status, -1_000_000);
            case END -> move(jobs, status, 1_000_000);
            case TAB, BACK_TAB -> state.focus = state.focus == QueueScreenState.Focus.JOBS
                    ? QueueScreenState.Focus.NODES : QueueScreenState.Focus.JOBS;
            case ENTER -> togglePane(QueueScreenState.Pane.DETAIL);
            case ESCAPE -> {
                if (state.pane != QueueScreenState.Pane.NONE) {
                    state.pane = QueueScreenState.Pane.NONE;
                }
            }
            case CHAR -> {
                return key(input.codePoint(), jobs, status, now);
            }
            default -> {
                // other keys do nothing here
            }
        }
        return true;
    }

    private boolean key(int key, List<JobView> jobs, QueueStatus status, Instant now) {
        JobView selected = selected(jobs).orElse(null);
        switch (key) {
            case 'q' -> {
                return false;
            }
            case '?' -> state.help = true;
            case 'j' -> move(jobs, status, 1);
            case 'k' -> move(jobs, status, -1);
            case '[' -> state.paneScroll += state.pane == QueueScreenState.Pane.LOG ? page(true) : -page(true);
            case ']' -> state.paneScroll += state.pane == QueueScreenState.Pane.LOG ? -page(true) : page(true);
            case 'L' -> togglePane(QueueScreenState.Pane.LOG);
            case 'c' -> cancel(selected, now);
            case 'r' -> requeue(selected);
            case '+' -> priority(selected, 1);
            case '-' -> priority(selected, -1);
            case 'K' -> moveInQueue(selected, 1);
            case 'J' -> moveInQueue(selected, -1);
            case 's' -> {
                state.sort = state.sort.next();
                state.descending = false;
            }
            case 'S' -> state.descending = !state.descending;
            case 't' -> worker.tickNow();
            case 'a' -> worker.setAutomatic(!worker.automatic());
            case 'f' -> state.filter = state.filter.next();
            case 'p' -> state.processes = state.processes.next();
            case 'd' -> drain(status);
            case 'A' -> acknowledge(status);
            default -> {
                // unbound
            }
        }
        return true;
    }

    private boolean mouse(Input input, Frame shown) {
        Optional<Object> hit = shown == null ? Optional.empty() : shown.targetAt(input.column(), input.row());
        if (state.help) {
            if (input.kind() == Input.Kind.CLICK) {
                state.help = false;
            }
            return true;
        }
        if (hit.isEmpty()) {
            return true;
        }
        QueueTarget target = (QueueTarget) hit.get();
        if (input.kind() == Input.Kind.WHEEL_UP || input.kind() == Input.Kind.WHEEL_DOWN) {
            wheel(target, input.kind() == Input.Kind.WHEEL_UP ? -1 : 1);
            return true;
        }
        if (!(target instanceof QueueTarget.Button)) {
            disarm();
        }
        if (target instanceof QueueTarget.JobRow row) {
            if (Objects.equals(state.selectedJob, row.id()) && state.focus == QueueScreenState.Focus.JOBS) {
                togglePane(QueueScreenState.Pane.DETAIL);
            }
            state.selectedJob = row.id();
            state.focus = QueueScreenState.Focus.JOBS;
        } else if (target instanceof QueueTarget.NodeBlock block) {
            state.selectedNode = block.name();
            state.focus = QueueScreenState.Focus.NODES;
        } else if (target instanceof QueueTarget.NodesPane) {
            state.focus = QueueScreenState.Focus.NODES;
        } else if (target instanceof QueueTarget.JobsPane) {
            state.focus = QueueScreenState.Focus.JOBS;
        } else if (target instanceof QueueTarget.Column column) {
            if (state.sort == column.sort()) {
                state.descending = !state.descending;
            } else {
                state.sort = column.sort();
                state.descending = false;
            }
        } else if (target instanceof QueueTarget.Count count) {
            StateFilter filter = StateFilter.of(count.state());
            state.filter = state.filter == filter ? StateFilter.ALL : filter;
        } else if (target instanceof QueueTarget.Alert alert && alert.jobId() != null) {
            state.filter = StateFilter.ALL;
            state.selectedJob = alert.jobId();
            state.focus = QueueScreenState.Focus.JOBS;
            state.pane = QueueScreenState.Pane.LOG;
            state.paneScroll = 0;
        } else if (target instanceof QueueTarget.Button button) {
            return handle(button.key(), shown);
        }
        return true;
    }

    private void wheel(QueueTarget target, int direction) {
        if (target instanceof QueueTarget.Pane) {
            state.paneScroll += state.pane == QueueScreenState.Pane.LOG ? -3 * direction : 3 * direction;
            return;
        }
        QueueStatus status = worker.data().status();
        List<JobView> jobs = QueueRenderer.visibleJobs(state, status, clock.instant());
        if (target instanceof QueueTarget.NodeBlock || target instanceof QueueTarget.NodesPane) {
            moveNode(status, direction);
        } else {
            moveJob(jobs, direction);
        }
    }

    private void move(List<JobView> jobs, QueueStatus status, int by) {
        if (state.focus == QueueScreenState.Focus.NODES) {
            moveNode(status, by);
        } else {
            moveJob(jobs, by);
        }
    }

    private void moveJob(List<JobView> jobs, int by) {
        if (jobs.isEmpty()) {
            return;
        }
        int at = 0;
        for (int i = 0; i < jobs.size(); i++) {
            if (Objects.equals(jobs.get(i).id(), state.selectedJob)) {
                at = i;
            }
        }
        int next = Math.max(0, Math.min(jobs.size() - 1, at + by));
        if (next != at || state.selectedJob == null) {
            state.selectedJob = jobs.get(next).id();
            state.paneScroll = 0;
        }
    }

    private void moveNode(QueueStatus status, int by) {
        if (status == null || status.nodes().isEmpty()) {
            return;
        }
        List<String> names = status.nodes().stream().map(NodeView::name).toList();
        int at = Math.max(0, names.indexOf(state.selectedNode));
        state.selectedNode = names.get(Math.max(0, Math.min(names.size() - 1, at + by)));
    }

    private int page() {
        return Math.max(1, state.jobRowsShown - 1);
    }

    private int page(boolean pane) {
        return Math.max(1, state.paneRowsShown - 1);
    }

    private void togglePane(QueueScreenState.Pane pane) {
        state.pane = state.pane == pane ? QueueScreenState.Pane.NONE : pane;
        state.paneScroll = 0;
    }

    private Optional<JobView> selected(List<JobView> jobs) {
        return jobs.stream().filter(job -> Objects.equals(job.id(), state.selectedJob)).findFirst();
    }

    private void disarm() {
        state.armedCancel = null;
        state.armedAt = null;
    }

    private void cancel(JobView selected, Instant now) {
        if (selected == null) {
            return;
        }
        long id = selected.id();
        if (selected.job().state().finished()) {
            disarm();
            worker.say("job " + id + " already ended: " + selected.job().state().key(), true);
            return;
        }
        if (state.armedCancel == null || state.armedCancel != id) {
            state.armedCancel = id;
            state.armedAt = now;
            worker.say("press c again within " + CONFIRM_WITHIN.toSeconds() + " s to cancel job " + id
                    + " (" + selected.job().spec().name() + ")", false);
            return;
        }
        disarm();
        worker.act("cancelling job " + id, queue -> queue.control().cancel(List.of(id)).stream()
                .map(JobChange::message).collect(Collectors.joining("; ")));
    }

    private void requeue(JobView selected) {
        if (selected == null) {
            return;
        }
        long id = selected.id();
        if (!selected.job().state().finished()) {
            worker.say("job " + id + " is " + selected.job().state().key() + "; only finished jobs are requeued", true);
            return;
        }
        worker.act("requeueing job " + id, queue -> queue.control().requeue(List.of(id)).stream()
                .map(JobChange::message).collect(Collectors.joining("; ")));
    }

    private void priority(JobView selected, int by) {
        if (selected == null) {
            return;
        }
        if (selected.job().state().finished()) {
            worker.say("job " + selected.id() + " has ended; its priority no longer matters", true);
            return;
        }
        long id = selected.id();
        worker.act("setting job " + id + "'s priority", queue -> {
            int wanted = queue.reading().getJob(id).job().priority() + by;  // as it is now: presses add up
            queue.control().setPriority(id, wanted);
            return "job " + id + " priority " + wanted;
        });
    }

    private void moveInQueue(JobView selected, int places) {
        if (selected == null) {
            return;
        }
        long id = selected.id();
        if (selected.job().state() != JobState.PENDING) {
            worker.say("job " + id + " is " + selected.job().state().key() + "; only pending jobs move in the queue", true);
            return;
        }
        worker.act("moving job " + id, queue -> {
            int priority = queue.control().move(id, places);
            return "job " + id + " moved " + (places > 0 ? "up" : "down") + " (priority " + priority + ")";
        });
    }

    private void drain(QueueStatus status) {
        if (status == null || state.selectedNode == null) {
            return;
        }
        String name = state.selectedNode;
        boolean drained = status.nodes().stream().filter(node -> node.name().equals(name)).findFirst()
                .map(NodeView::drained).orElse(false);
        worker.act((drained ? "resuming " : "draining ") + name, queue -> {
            boolean changed = queue.nodeAdmin().drain(name, !drained);
            return name + (changed ? drained ? " resumed: new jobs may be placed there" : " drained: no new jobs there"
                    : drained ? " was not drained" : " was already drained");
        });
    }

    private void acknowledge(QueueStatus status) {
        if (status == null || status.openAlerts().isEmpty()) {
            worker.say("no open alerts", false);
            return;
        }
        worker.act("acknowledging alerts", queue -> {
            int count = queue.reading().acknowledge(null);
            return "acknowledged " + count + (count == 1 ? " alert" : " alerts");
        });
    }
}
