package dev.nvidb.tui.queue;

import dev.nvidb.keeper.KeeperState;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobState;
import dev.nvidb.output.JobDetailText;
import dev.nvidb.output.JobText;
import dev.nvidb.queue.AlertView;
import dev.nvidb.queue.JobView;
import dev.nvidb.queue.QueueStatus;
import dev.nvidb.tui.Canvas;
import dev.nvidb.tui.Frame;
import dev.nvidb.tui.Input;
import dev.nvidb.tui.Palette;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jline.utils.AttributedStyle;

/**
 * Draws the queue screen from a {@link QueueView}: a two-line header (tick age, keeper,
 * ticking, counts by state), open alerts, a block per node with a memory bar per GPU, the job
 * table in queue order, the selected job's detail or log, a status line and the action bar.
 * Pure, so every size can be tested as text. Sections shrink in a fixed order as the terminal
 * gets smaller: the table keeps at least three rows, the nodes at most two fifths.
 */
final class QueueRenderer {

    static final Duration MESSAGE_SHOWN = Duration.ofSeconds(8);
    private static final int MAX_ALERTS = 3;

    private QueueRenderer() {
    }

    static Frame render(QueueView view, int width, int height) {
        Canvas canvas = new Canvas(width, height);
        QueueScreenState state = view.state();
        QueueStatus status = view.data().status();
        header(canvas, view);
        if (state.help) {
            help(canvas);
            canvas.fillTo(1);
            actionBar(canvas, view, List.of());
            return canvas.frame();
        }
        if (view.data().readError() != null) {
            canvas.line("cannot read the queue: " + view.data().readError(), Palette.ERROR);
        }
        if (view.data().tickError() != null) {
            canvas.line("the last tick failed: " + view.data().tickError(), Palette.WARN);
        }
        if (status == null) {
            canvas.line(view.data().readError() == null ? "reading the queue…" : "", Palette.DIM);
            canvas.fillTo(1);
            actionBar(canvas, view, List.of());
            return canvas.frame();
        }
        alerts(canvas, status.openAlerts(), height >= 20 ? MAX_ALERTS : height >= 14 ? 1 : 0, view.now());
        List<JobView> jobs = visibleJobs(state, status, view.now());
        JobView selected = jobs.stream().filter(job -> state.selectedJob != null && job.id() == state.selectedJob)
                .findFirst().orElse(null);
        int bottom = 2;  // the status line and the action bar
        int free = canvas.remaining() - bottom;
        int paneRows = state.pane == QueueScreenState.Pane.NONE || selected == null ? 0
                : Math.max(4, free * 2 / 5);
        List<NodeSection.Row> nodeRows = NodeSection.rows(view, status.nodes(), width);
        int nodesHeight = nodesHeight(nodeRows.size() + 1, Math.max(4, jobs.size() + 1), free - paneRows);
        if (free - paneRows - nodesHeight < 4) {
            paneRows = Math.max(0, Math.min(paneRows, free - nodesHeight - 4));
        }
        NodeSection.draw(canvas, state, nodeRows, nodesHeight);
        int tableRows = Math.max(2, free - paneRows - nodesHeight);
        jobTable(canvas, view, jobs, JobCells.measured(status.nodes()), tableRows, width);
        if (paneRows > 0) {
            pane(canvas, view, selected, paneRows);
        }
        canvas.fillTo(bottom);
        statusLine(canvas, view, selected);
        actionBar(canvas, view, actionsFor(selected, state));
        return canvas.frame();
    }

    /**
     * Rows for the nodes section: all it needs when the table's needs fit beside it, else the
     * larger of two fifths of the room and what the table leaves, and never less than two.
     */
    static int nodesHeight(int nodesNeed, int tableNeed, int room) {
        if (nodesNeed + tableNeed <= room) {
            return nodesNeed;
        }
        return Math.max(2, Math.min(nodesNeed, Math.max(room * 2 / 5, room - tableNeed)));
    }

    /** The jobs the table shows, in the table's order. */
    static List<JobView> visibleJobs(QueueScreenState state, QueueStatus status, Instant now) {
        if (status == null) {
            return List.of();
        }
        Map<Long, Long> used = JobCells.measured(status.nodes());
        Comparator<Job> order = state.sort.comparator(used, now);
        if (state.descending) {
            order = order.reversed();
        }
        Comparator<Job> finalOrder = order;
        return status.jobs().stream().filter(job -> state.filter.shows(job.job().state()))
                .sorted((a, b) -> finalOrder.compare(a.job(), b.job())).toList();
    }

    private static void header(Canvas canvas, QueueView view) {
        QueueData data = view.data();
        QueueStatus status = data.status();
        canvas.text("nvidb queue", Palette.BOLD);
        separator(canvas);
        if (data.tickingSince() != null) {
            canvas.text("ticking…", Palette.FOCUS);
        } else if (status != null && status.lastTickAt() != null) {
            long age = Math.max(0, Duration.between(status.lastTickAt(), view.now()).getSeconds());
            canvas.text("tick " + JobText.ago(status.lastTickAt(), view.now()) + " ago",
                    age > 120 ? Palette.WARN : Palette.PLAIN);
        } else if (status != null) {
            canvas.text("never ticked", Palette.WARN);
        }
        separator(canvas);
        KeeperState keeper = data.keeper();
        if (keeper == null) {
            canvas.text("no keeper", Palette.DIM);
        } else if (keeper.up()) {
            canvas.text("keeper up", Palette.OK);
        } else {
            canvas.text("keeper " + keeper.condition().label().toUpperCase(java.util.Locale.ROOT), Palette.ERROR_BOLD);
        }
        separator(canvas);
        if (view.automatic()) {
            canvas.text("auto tick " + view.refresh().toSeconds() + "s", Palette.PLAIN, new QueueTarget.Button(Input.character('a')));
        } else {
            canvas.text("manual ticking (t)", Palette.WARN, new QueueTarget.Button(Input.character('a')));
        }
        canvas.newline();
        if (status == null) {
            canvas.newline();
            return;
        }
        boolean first = true;
        for (JobState state : JobState.values()) {
            int count = status.counts().getOrDefault(state.key(), 0);
            if (count == 0 && state != JobState.PENDING && state != JobState.RUNNING) {
                continue;
            }
            if (!first) {
                canvas.text("  ");
            }
            first = false;
            boolean chosen = view.state().filter == StateFilter.of(state) && view.state().filter != StateFilter.ALL;
            AttributedStyle style = chosen ? Palette.FOCUS_BOLD : count > 0 ? stateStyle(state) : Palette.DIM;
            canvas.text(count + " " + state.key(), style, new QueueTarget.Count(state));
        }
        canvas.text("   ");
        canvas.text("showing " + view.state().filter.label(), Palette.DIM, new QueueTarget.Button(Input.character('f')));
        if (view.state().sort != JobSort.QUEUE) {
            canvas.text(" · sorted by " + view.state().sort.label() + (view.state().descending ? " ▼" : " ▲"), Palette.DIM);
        }
        canvas.newline();
    }

    private static void separator(Canvas canvas) {
        canvas.text(" · ", Palette.DIM);
    }

    private static void alerts(Canvas canvas, List<AlertView> alerts, int room, Instant now) {
        int shown = Math.min(room, alerts.size());
        for (int i = 0; i < shown; i++) {
            AlertView alert = alerts.get(alerts.size() - 1 - i);  // newest first
            AttributedStyle style = "error".equals(alert.severity()) ? Palette.ERROR : Palette.WARN;
            canvas.text("! ", style.bold());
            canvas.text(JobText.ago(alert.at(), now) + " ", Palette.DIM);
            canvas.text(alert.message(), style);
            if (alert.jobId() != null) {
                canvas.text("  (click: log of job " + alert.jobId() + ")", Palette.DIM);
            }
            canvas.hitRow(new QueueTarget.Alert(alert.jobId()));
            canvas.newline();
        }
        if (shown == 0 && !alerts.isEmpty()) {
            canvas.text("! " + alerts.size() + (alerts.size() == 1 ? " open alert" : " open alerts")
                    + " · A acknowledges all", Palette.WARN).newline();
        } else if (alerts.size() > shown) {
            canvas.line("  … " + (alerts.size() - shown) + " more open alerts · A acknowledges all", Palette.DIM);
        } else if (shown > 0) {
            canvas.line("  A acknowledges " + (shown == 1 ? "it" : "all " + shown), Palette.DIM);
        }
    }

    /** A column of the job table: its header, width, alignment and sort. */
    private record Column(String header, int width, boolean right, JobSort sort) {
    }

    private static List<Column> columns(int width) {
        List<Column> columns = new ArrayList<>(List.of(
                new Column("ID", 5, true, JobSort.ID),
                new Column("STATE", 9, false, JobSort.STATE),
                new Column("PRI", 4, true, JobSort.PRIORITY),
                new Column("NAME", 0, false, JobSort.NAME),
                new Column("NODE", 10, false, JobSort.NODE),
                new Column("GPU", 5, false, null),
                new Column("VRAM", 6, true, JobSort.VRAM),
                new Column("USED", 6, true, JobSort.USED),
                new Column("TIME", 7, true, JobSort.TIME),
                new Column("EXIT", 4, true, JobSort.EXIT)));
        for (String drop : List.of("USED", "EXIT", "GPU", "PRI", "TIME", "VRAM")) {
            if (fixed(columns) + 8 <= width) {
                break;
            }
            columns.removeIf(column -> column.header().equals(drop));
        }
        int name = Math.max(6, Math.min(48, width - fixed(columns)));
        int spare = width - fixed(columns) - name;
        List<Column> sized = new ArrayList<>();
        for (Column column : columns) {
            if (column.header().equals("NAME")) {
                sized.add(new Column("NAME", name, false, JobSort.NAME));
            } else if (column.header().equals("NODE") && spare > 0) {
                sized.add(new Column("NODE", column.width() + Math.min(spare, 8), false, JobSort.NODE));
            } else {
                sized.add(column);
            }
        }
        return sized;
    }

    /** Columns' widths and the spaces between them, without NAME's. */
    private static int fixed(List<Column> columns) {
        return columns.stream().mapToInt(Column::width).sum() + columns.size() - 1;
    }

    private static void jobTable(Canvas canvas, QueueView view, List<JobView> jobs, Map<Long, Long> used, int height,
                                 int width) {
        QueueScreenState state = view.state();
        List<Column> columns = columns(width);
        boolean focused = state.focus == QueueScreenState.Focus.JOBS;
        for (Column column : columns) {
            int from = canvas.column();
            String label = column.header();
            if (column.sort() != null && column.sort() == state.sort) {
                label += state.descending ? "▼" : "▲";
            }
            if (from > 0) {
                canvas.text(" ");
                from++;
            }
            canvas.text(column.right() ? Canvas.right(label, column.width()) : Canvas.cell(label, column.width()),
                    focused ? Palette.FOCUS_BOLD : Palette.DIM);
            if (column.sort() != null) {
                canvas.hit(from, canvas.column(), new QueueTarget.Column(column.sort()));
            }
        }
        canvas.newline();
        int rows = Math.max(1, height - 1);
        state.jobRowsShown = rows;
        if (jobs.isEmpty()) {
            canvas.line(state.filter == StateFilter.ALL ? "  no jobs yet: nvidb job submit --vram 20G -- python train.py"
                    : "  no " + state.filter.label() + " jobs (f changes the filter)", Palette.DIM);
            for (int i = 1; i < rows; i++) {
                canvas.hitRow(new QueueTarget.JobsPane()).newline();
            }
            return;
        }
        int selected = 0;
        for (int i = 0; i < jobs.size(); i++) {
            if (state.selectedJob != null && jobs.get(i).id() == state.selectedJob) {
                selected = i;
            }
        }
        int start = Math.max(0, Math.min(state.jobScroll, jobs.size() - rows));
        if (selected < start) {
            start = selected;
        } else if (selected >= start + rows) {
            start = selected - rows + 1;
        }
        state.jobScroll = start;
        for (int i = 0; i < rows; i++) {
            int index = start + i;
            if (index >= jobs.size()) {
                canvas.hitRow(new QueueTarget.JobsPane()).newline();
                continue;
            }
            JobView job = jobs.get(index);
            boolean isSelected = state.selectedJob != null && job.id() == state.selectedJob;
            for (Column column : columns) {
                if (canvas.column() > 0) {
                    canvas.text(" ");
                }
                String text = cell(column, job, used, view.now());
                AttributedStyle style = column.header().equals("STATE") ? jobStateStyle(job) : Palette.PLAIN;
                canvas.text(column.right() ? Canvas.right(text, column.width()) : Canvas.cell(text, column.width()), style);
            }
            canvas.hitRow(new QueueTarget.JobRow(job.id()));
            canvas.newline(isSelected && focused);
        }
    }

    private static String cell(Column column, JobView view, Map<Long, Long> used, Instant now) {
        Job job = view.job();
        return switch (column.header()) {
            case "ID" -> String.valueOf(job.id());
            case "STATE" -> view.unverifiedSince() != null ? "running?" : job.held() ? "held" : job.state().key();
            case "PRI" -> String.valueOf(job.priority());
            case "NAME" -> job.spec().name();
            case "NODE" -> JobCells.node(job);
            case "GPU" -> JobCells.gpus(job);
            case "VRAM" -> JobCells.vram(job);
            case "USED" -> JobCells.used(job, used);
            case "TIME" -> JobCells.time(job, now);
            case "EXIT" -> JobCells.exit(job);
            default -> "";
        };
    }

    private static AttributedStyle jobStateStyle(JobView job) {
        if (job.unverifiedSince() != null) {
            return Palette.WARN;
        }
        return stateStyle(job.job().state());
    }

    private static AttributedStyle stateStyle(JobState state) {
        return switch (state) {
            case RUNNING -> Palette.OK;
            case PENDING -> Palette.PLAIN;
            case COMPLETED, CANCELLED -> Palette.DIM;
            case FAILED, TIMEOUT, LOST -> Palette.ERROR;
        };
    }

    private static void pane(Canvas canvas, QueueView view, JobView job, int height) {
        QueueScreenState state = view.state();
        List<String> lines;
        String title;
        if (state.pane == QueueScreenState.Pane.LOG) {
            LogData log = view.log();
            title = "job " + job.id() + " output (stdout, last lines" + (log == null || log.readAt() == null ? ""
                    : ", read " + JobText.ago(log.readAt(), view.now()) + " ago") + ") · L closes · [ ] page";
            lines = new ArrayList<>();
            if (log == null) {
                lines.add("reading…");
            } else {
                if (log.text() != null) {
                    lines.addAll(log.text().lines().toList());
                }
                if (log.error() != null) {
                    lines.add("! " + log.error());
                }
            }
        } else {
            title = "job " + job.id() + " · Enter closes · [ ] page";
            lines = new ArrayList<>(JobDetailText.render(job.job(), job.pendingReason(), job.unverifiedSince(),
                    job.jobDir(), view.now()).lines().toList());
        }
        canvas.text("── " + title + " ", Palette.DIM);
        canvas.text("─".repeat(Math.max(0, canvas.width() - canvas.column())), Palette.DIM);
        canvas.hitRow(new QueueTarget.Pane());
        canvas.newline();
        int rows = Math.max(1, height - 1);
        state.paneRowsShown = rows;
        int maxScroll = Math.max(0, lines.size() - rows);
        state.paneScroll = Math.max(0, Math.min(state.paneScroll, maxScroll));
        int start = state.pane == QueueScreenState.Pane.LOG ? maxScroll - state.paneScroll : state.paneScroll;
        for (int i = 0; i < rows; i++) {
            int index = start + i;
            if (index < lines.size()) {
                String text = lines.get(index);
                canvas.text(Canvas.clean(text), text.startsWith("! ") ? Palette.ERROR : Palette.PLAIN);
            }
            canvas.hitRow(new QueueTarget.Pane());
            canvas.newline();
        }
    }

    private static void statusLine(Canvas canvas, QueueView view, JobView selected) {
        Message message = view.message();
        if (message != null && Duration.between(message.at(), view.now()).compareTo(MESSAGE_SHOWN) < 0) {
            canvas.line(message.text(), message.error() ? Palette.ERROR : Palette.FOCUS);
            return;
        }
        if (selected == null) {
            canvas.line("", Palette.PLAIN);
            return;
        }
        Job job = selected.job();
        canvas.text("job " + job.id() + " " + job.state().key() + ": ", Palette.DIM);
        canvas.text(JobText.info(job, selected.pendingReason(), selected.unverifiedSince(), view.now()) + "",
                Palette.PLAIN);
        canvas.newline();
    }

    /** The buttons of the action bar for the selection: label and the key it stands for. */
    private record Button(String label, Input key, boolean armed) {
    }

    private static List<Button> actionsFor(JobView selected, QueueScreenState state) {
        List<Button> buttons = new ArrayList<>();
        if (state.focus == QueueScreenState.Focus.NODES && state.selectedNode != null) {
            buttons.add(new Button("d drain/resume " + state.selectedNode, Input.character('d'), false));
        }
        if (selected != null) {
            JobState jobState = selected.job().state();
            buttons.add(new Button("⏎ detail", Input.key(Input.Kind.ENTER), false));
            buttons.add(new Button("L log", Input.character('L'), false));
            if (!jobState.finished()) {
                boolean armed = state.armedCancel != null && state.armedCancel == selected.id();
                buttons.add(new Button(armed ? "c again: cancel job " + selected.id() : "c cancel",
                        Input.character('c'), armed));
            } else {
                buttons.add(new Button("r requeue", Input.character('r'), false));
            }
            if (jobState == JobState.PENDING) {
                buttons.add(new Button("+ pri", Input.character('+'), false));
                buttons.add(new Button("- pri", Input.character('-'), false));
                buttons.add(new Button("K up", Input.character('K'), false));
                buttons.add(new Button("J down", Input.character('J'), false));
            }
        }
        return buttons;
    }

    /**
     * The action bar: the selection's buttons, then tick and acknowledge, then help and quit.
     * Where they do not all fit, buttons go from the end of the optional ones; an armed cancel,
     * help and quit always stay.
     */
    private static void actionBar(Canvas canvas, QueueView view, List<Button> forSelection) {
        List<Button> optional = new ArrayList<>(forSelection);
        if (!view.state().help) {
            optional.add(new Button("t tick", Input.character('t'), false));
            optional.add(new Button("A ack", Input.character('A'), false));
        }
        List<Button> always = List.of(new Button("? help", Input.character('?'), false),
                new Button("q quit", Input.character('q'), false));
        while (!optional.isEmpty() && barWidth(optional) + barWidth(always) > canvas.width()) {
            int drop = optional.size() - 1;
            while (drop > 0 && optional.get(drop).armed()) {
                drop--;
            }
            optional.remove(drop);
        }
        List<Button> buttons = new ArrayList<>(optional);
        buttons.addAll(always);
        for (Button button : buttons) {
            canvas.text(" " + button.label() + " ", button.armed() ? Palette.ARMED : Palette.BUTTON,
                    new QueueTarget.Button(button.key()));
            canvas.text(" ");
        }
        canvas.newline();
    }

    private static int barWidth(List<Button> buttons) {
        return buttons.stream().mapToInt(button -> button.label().length() + 3).sum();
    }

    private static final String[][] KEYS = {
            {"j k ↑ ↓", "move in the focused pane"}, {"PgUp PgDn", "move a page"},
            {"Tab", "switch focus between nodes and jobs"}, {"Enter", "show or hide the selected job's detail"},
            {"[ ]", "page the detail or log"}, {"L", "live tail of the selected job's output"},
            {"c c", "cancel the selected job (press twice within 5 s)"}, {"r", "requeue the selected finished job"},
            {"+ -", "raise or lower the selected job's priority"},
            {"K J", "move a pending job up or down the dispatch order"},
            {"s S", "cycle the sort column, flip its direction"}, {"t", "tick now"},
            {"a", "automatic ticking on or off"}, {"f", "cycle the job filter"},
            {"p", "GPU processes: the queue's foreign ones, all, none"},
            {"d", "drain or resume the selected node (nodes pane)"}, {"A", "acknowledge every open alert"},
            {"?", "this help"}, {"q", "quit (Ctrl-C too)"},
            {"mouse", "click rows, headers, counts, alerts and buttons; the wheel scrolls the pane under it"}};

    private static void help(Canvas canvas) {
        canvas.text("Keys", Palette.BOLD).text("  (click, ?, Esc or q closes this help)", Palette.DIM)
                .hitRow(new QueueTarget.Help()).newline();
        for (String[] key : KEYS) {
            canvas.text("  " + Canvas.cell(key[0], 11), Palette.FOCUS).text(key[1]).hitRow(new QueueTarget.Help()).newline();
        }
    }
}
