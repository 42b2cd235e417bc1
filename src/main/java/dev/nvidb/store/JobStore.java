package dev.nvidb.store;

import dev.nvidb.error.Missing;
import dev.nvidb.error.StoreException;
import dev.nvidb.error.UsageException;
import dev.nvidb.model.Assignment;
import dev.nvidb.model.Dependency;
import dev.nvidb.model.EventKind;
import dev.nvidb.model.FailureClass;
import dev.nvidb.model.Job;
import dev.nvidb.model.JobSpec;
import dev.nvidb.model.JobState;
import dev.nvidb.model.JobStatus;
import dev.nvidb.model.RunPolicy;
import dev.nvidb.model.Sweep;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The {@code jobs} table and its dependencies: submitting, reading and purging. State changes
 * live in {@link JobTransitions}, the user's and the job's annotations in {@link JobAnnotations}.
 */
public final class JobStore {

    private static final String INSERT = """
            INSERT INTO jobs (name, command, gpus, vram_mb, node_request, workdir, env, timeout_s, max_retries,
                              tags, submitter, state, priority, created_at, note, job_key, group_name, array_index,
                              exclusive, retry_oom, allow_slurm)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """;
    /** Inserts nothing when the job depended on does not exist. */
    private static final String INSERT_DEPENDENCY = """
            INSERT INTO job_dependencies (job_id, depends_on, needs_success) SELECT ?, id, ? FROM jobs WHERE id = ?
            """;
    private static final String COLUMNS = """
            id, name, command, gpus, vram_mb, node_request, workdir, env, timeout_s, max_retries, tags, submitter,
            state, priority, created_at, started_at, finished_at, node, gpu_ids, gpu_uuids, attempt, launch_token,
            job_dir, pid, pgid, proc_start_time, boot_id, exit_code, last_error, note, progress, result,
            hold_reason, unverified_since, measured_mb, launch_failures, job_key, group_name, array_index,
            failure_class, exclusive, retry_oom, oom_retries, allow_slurm
            """;
    private static final String FIND = "SELECT " + COLUMNS + " FROM jobs WHERE id = ?";
    private static final String LIST_ALL = "SELECT " + COLUMNS + """
             FROM jobs WHERE (? IS NULL OR node = ?) AND (? IS NULL OR group_name = ?) ORDER BY id DESC LIMIT ?
            """;
    private static final String LIST_IN_STATES = "SELECT " + COLUMNS + """
             FROM jobs WHERE state IN (SELECT value FROM json_each(?)) AND (? IS NULL OR node = ?)
              AND (? IS NULL OR group_name = ?)
            ORDER BY id DESC LIMIT ?
            """;
    private static final String RECENTLY_FINISHED = "SELECT " + COLUMNS + """
             FROM jobs WHERE state IN (SELECT value FROM json_each(?)) ORDER BY finished_at DESC, id DESC LIMIT ?
            """;
    /** The filter of {@link #LIST_ALL} with the states optional: shared by the paged listing. */
    private static final String FILTER = """
             (? IS NULL OR state IN (SELECT value FROM json_each(?))) AND (? IS NULL OR node = ?)
              AND (? IS NULL OR group_name = ?)
            """;
    private static final String PAGE = "SELECT " + COLUMNS + " FROM jobs WHERE id > ? AND" + FILTER
            + " ORDER BY id LIMIT ?";
    private static final String NEWEST_ID = "SELECT id FROM jobs WHERE" + FILTER + " ORDER BY id DESC LIMIT 1 OFFSET ?";
    private static final String COUNT = "SELECT count(*) FROM jobs WHERE" + FILTER;
    /** Rows a paged listing holds at a time. */
    private static final int PAGE_ROWS = 500;
    private static final String COUNT_BY_STATE = "SELECT state, count(*) FROM jobs GROUP BY state";
    private static final String DEPENDENCIES = """
            SELECT job_id, depends_on, needs_success FROM job_dependencies
            WHERE job_id IN (SELECT value FROM json_each(?)) ORDER BY job_id, depends_on
            """;
    private static final String STATES_OF = """
            SELECT id, state FROM jobs WHERE id IN (SELECT value FROM json_each(?))
            """;
    /** Finished jobs in the given states, except those an unfinished job still waits on. */
    private static final String PURGE = """
            DELETE FROM jobs WHERE state IN (SELECT value FROM json_each(?))
              AND id NOT IN (SELECT d.depends_on FROM job_dependencies d JOIN jobs waiting ON waiting.id = d.job_id
                             WHERE waiting.state IN ('pending', 'running'))
            RETURNING id
            """;

    private final Database database;
    private final EventStore events;
    private final boolean tolerant;

    public JobStore(Database database) {
        this(database, false);
    }

    private JobStore(Database database, boolean tolerant) {
        this.database = database;
        this.events = new EventStore(database);
        this.tolerant = tolerant;
    }

    /**
     * A store for showing jobs: a row with a JSON column that does not parse (queue.db changed
     * outside nvidb) reads back with that column empty and {@link StoredJob#damage} saying what
     * is wrong, instead of failing the whole read. The engine reads strictly: such a row is a
     * {@link StoreException} naming the job and the column, never run with a guessed value.
     */
    public static JobStore tolerant(Database database) {
        return new JobStore(database, true);
    }

    /**
     * Submits a pending job and records {@code submitted}. A dependency on a job that does not
     * exist is refused ({@link UsageException}); cycles cannot form, as a new job can only wait
     * on older ones.
     */
    private static final String LAST_ID = "SELECT COALESCE(MAX(id), 0) FROM jobs";

    /** The newest job id (0 when there is none); ids only grow, so a larger one is a newer submit. */
    public long lastId() {
        return database.read("read the newest job id", conn -> Columns.queryLong(conn, LAST_ID));
    }

    public long insert(Connection connection, JobSpec spec, int priority, String note, Instant now) throws SQLException {
        long id = Columns.queryLong(connection, INSERT, spec.name(), spec.command(), spec.gpus(), spec.vramMb(),
                spec.node(), spec.workdir(), JsonText.write(spec.environment()), spec.timeoutSeconds(),
                spec.maxRetries(), JsonText.write(spec.tags()), spec.submitter(), priority, now, note,
                spec.sweep().key(), spec.sweep().group(), spec.sweep().arrayIndex(), spec.policy().exclusive(),
                spec.policy().retryOom(), spec.policy().allowSlurm());
        for (Dependency dependency : spec.dependencies()) {
            if (Columns.update(connection, INSERT_DEPENDENCY, id, dependency.needsSuccess(), dependency.jobId()) == 0) {
                throw Missing.dependency(dependency.jobId());
            }
        }
        events.append(connection, now, id, spec.node(), EventKind.SUBMITTED,
                Map.of("name", spec.name(), "gpus", spec.gpus(), "vram_mb", spec.vramMb(), "priority", priority));
        return id;
    }

    /** {@link #insert(Connection, JobSpec, int, String, Instant)} in its own transaction. */
    public long insert(JobSpec spec, int priority, String note, Instant now) {
        return database.write("submit job " + spec.name(), conn -> insert(conn, spec, priority, note, now));
    }

    public Optional<StoredJob> findJob(Connection connection, long id) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(FIND)) {
            List<StoredJob> jobs = withDependencies(connection, Columns.bind(statement, id), tolerant);
            return jobs.stream().findFirst();
        }
    }

    public Optional<StoredJob> findJob(long id) {
        return database.read("read job " + id, conn -> findJob(conn, id));
    }

    /** The job with this id; a {@link UsageException} ("no job 42") when there is none. */
    public StoredJob getJob(Connection connection, long id) throws SQLException {
        return findJob(connection, id).orElseThrow(() -> Missing.job(id));
    }

    public StoredJob getJob(long id) {
        return database.read("read job " + id, conn -> getJob(conn, id));
    }

    /** The jobs {@code filter} selects, in id order (submission order). */
    public List<StoredJob> listJobs(Connection connection, JobFilter filter) throws SQLException {
        int limit = filter.limit() == null ? -1 : filter.limit();
        boolean byState = !filter.states().isEmpty();
        try (PreparedStatement statement = connection.prepareStatement(byState ? LIST_IN_STATES : LIST_ALL)) {
            if (byState) {
                Columns.bind(statement, stateKeys(filter.states()), filter.node(), filter.node(), filter.group(),
                        filter.group(), limit);
            } else {
                Columns.bind(statement, filter.node(), filter.node(), filter.group(), filter.group(), limit);
            }
            List<StoredJob> jobs = withDependencies(connection, statement, tolerant);
            Collections.reverse(jobs);
            return jobs;
        }
    }

    public List<StoredJob> listJobs(JobFilter filter) {
        return database.read("list jobs", conn -> listJobs(conn, filter));
    }

    /** What {@link #eachJob} hands its jobs to; a failure ends the listing. */
    @FunctionalInterface
    public interface JobConsumer {
        void accept(StoredJob job) throws SQLException;
    }

    /**
     * How many jobs {@code filter} selects; with {@link #eachJob} in the same read transaction,
     * the count of what it will hand over.
     */
    public int countJobs(Connection connection, JobFilter filter) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(COUNT)) {
            bindFilter(statement, 1, filter);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                int all = rows.getInt(1);
                return filter.limit() == null ? all : Math.min(all, filter.limit());
            }
        }
    }

    /**
     * The jobs {@code filter} selects, in id order, handed over a page of rows at a time: what
     * {@link #listJobs} returns, in memory bounded by a page whatever the history's length.
     */
    public void eachJob(Connection connection, JobFilter filter, JobConsumer each) throws SQLException {
        long after = 0;
        if (filter.limit() != null) {
            if (filter.limit() == 0) {
                return;
            }
            try (PreparedStatement statement = connection.prepareStatement(NEWEST_ID)) {
                int next = bindFilter(statement, 1, filter);
                statement.setInt(next, filter.limit() - 1);
                try (ResultSet rows = statement.executeQuery()) {
                    after = rows.next() ? rows.getLong(1) - 1 : 0;
                }
            }
        }
        try (PreparedStatement statement = connection.prepareStatement(PAGE)) {
            while (true) {
                statement.setLong(1, after);
                int next = bindFilter(statement, 2, filter);
                statement.setInt(next, PAGE_ROWS);
                List<StoredJob> page = withDependencies(connection, statement, tolerant);
                for (StoredJob job : page) {
                    each.accept(job);
                }
                if (page.size() < PAGE_ROWS) {
                    return;
                }
                after = page.get(page.size() - 1).id();
            }
        }
    }

    /** Binds {@link #FILTER}'s six values from {@code index}; returns the next index. */
    private static int bindFilter(PreparedStatement statement, int index, JobFilter filter) throws SQLException {
        String states = filter.states().isEmpty() ? null : stateKeys(filter.states());
        Object[] values = {states, states, filter.node(), filter.node(), filter.group(), filter.group()};
        for (Object value : values) {
            if (value == null) {
                statement.setNull(index++, java.sql.Types.NULL);
            } else {
                statement.setString(index++, (String) value);
            }
        }
        return index;
    }

    /**
     * The {@code count} jobs that reached a final state last (by the queue's finish time, a tie
     * going to the later job), in id order: what {@code queue status} shows besides the active
     * ones, read without reading the rest of a long history.
     */
    public List<StoredJob> recentlyFinished(Connection connection, int count) throws SQLException {
        Set<JobState> finished = java.util.EnumSet.noneOf(JobState.class);
        for (JobState state : JobState.values()) {
            if (state.finished()) {
                finished.add(state);
            }
        }
        try (PreparedStatement statement = connection.prepareStatement(RECENTLY_FINISHED)) {
            Columns.bind(statement, stateKeys(finished), Math.max(0, count));
            List<StoredJob> jobs = withDependencies(connection, statement, tolerant);
            jobs.sort(java.util.Comparator.comparingLong(StoredJob::id));
            return jobs;
        }
    }

    /** How many jobs are in each state, by the state's key (a state with no job is absent). */
    public Map<String, Integer> countByState(Connection connection) throws SQLException {
        Map<String, Integer> counts = new HashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(COUNT_BY_STATE);
             ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                counts.put(rows.getString(1), rows.getInt(2));
            }
        }
        return counts;
    }

    /** The states of the given jobs (ids that do not exist are absent): what dependencies wait on. */
    public Map<Long, JobState> statesOf(Connection connection, Collection<Long> ids) throws SQLException {
        Map<Long, JobState> states = new HashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(STATES_OF);
             ResultSet rows = Columns.bind(statement, JsonText.write(List.copyOf(ids))).executeQuery()) {
            while (rows.next()) {
                states.put(rows.getLong("id"), state(rows.getString("state")));
            }
        }
        return states;
    }

    /**
     * Deletes finished jobs in {@code states} (never one a pending or running job waits on) and
     * records {@code purged}; returns the ids removed. Events and pending reaps are kept.
     */
    public List<Long> purge(Connection connection, Set<JobState> states, Instant now) throws SQLException {
        if (states.stream().anyMatch(state -> !state.finished())) {
            throw new IllegalArgumentException("only finished jobs can be purged, not " + states);
        }
        List<Long> purged = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(PURGE);
             ResultSet rows = Columns.bind(statement, stateKeys(states)).executeQuery()) {
            while (rows.next()) {
                purged.add(rows.getLong(1));
            }
        }
        if (!purged.isEmpty()) {
            events.append(connection, now, null, null, EventKind.PURGED,
                    Map.of("count", purged.size(), "states", List.copyOf(stateKeyList(states))));
        }
        return purged;
    }

    public List<Long> purge(Set<JobState> states, Instant now) {
        return database.write("purge jobs", conn -> purge(conn, states, now));
    }

    private static List<StoredJob> withDependencies(Connection connection, PreparedStatement query, boolean tolerant)
            throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (ResultSet result = query.executeQuery()) {
            while (result.next()) {
                rows.add(fromRow(result, tolerant));
            }
        }
        if (rows.isEmpty()) {
            return new ArrayList<>();
        }
        Map<Long, List<Dependency>> dependencies = dependencies(connection, rows.stream().map(Row::id).toList());
        List<StoredJob> jobs = new ArrayList<>(rows.size());
        for (Row row : rows) {
            jobs.add(row.toJob(dependencies.getOrDefault(row.id(), List.of())));
        }
        return jobs;
    }

    private static Map<Long, List<Dependency>> dependencies(Connection connection, List<Long> ids) throws SQLException {
        Map<Long, List<Dependency>> byJob = new HashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(DEPENDENCIES);
             ResultSet rows = Columns.bind(statement, JsonText.write(ids)).executeQuery()) {
            while (rows.next()) {
                byJob.computeIfAbsent(rows.getLong("job_id"), id -> new ArrayList<>())
                        .add(new Dependency(rows.getLong("depends_on"), rows.getInt("needs_success") == 1));
            }
        }
        return byJob;
    }

    /** A jobs row before its dependencies (from another table) are attached. */
    private record Row(long id, StoredJob partial) {
        StoredJob toJob(List<Dependency> dependencies) {
            Job job = partial.job();
            JobSpec spec = job.spec();
            JobSpec full = spec.withDependencies(dependencies);
            return new StoredJob(job.withSpec(full), partial.jobDir(), partial.process(), partial.unverifiedSince(),
                    partial.measuredMb(), partial.launchFailures(), partial.damage(), partial.oomRetries());
        }
    }

    private static Row fromRow(ResultSet rows, boolean tolerant) throws SQLException {
        long id = rows.getLong("id");
        List<String> damage = new ArrayList<>();
        JobSpec spec = new JobSpec(rows.getString("name"), rows.getString("command"), rows.getInt("gpus"),
                rows.getLong("vram_mb"), rows.getString("node_request"), rows.getString("workdir"),
                json(rows, "env", JsonText::readStringMap, Map.of(), damage), List.of(),
                Columns.longOrNull(rows, "timeout_s"), rows.getInt("max_retries"),
                json(rows, "tags", JsonText::readStrings, List.of(), damage), rows.getString("submitter"),
                new Sweep(rows.getString("group_name"), Columns.intOrNull(rows, "array_index"),
                        rows.getString("job_key")),
                policy(rows));
        JobStatus status;
        try {
            status = status(rows, damage);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw inconsistent(id, e);
        }
        if (!damage.isEmpty() && !tolerant) {
            throw new StoreException("job " + id + " cannot be read from the queue database: "
                    + String.join("; ", damage), "queue.db was changed outside nvidb; 'nvidb job show " + id
                    + "' shows what can be read, 'nvidb job cancel " + id + "' stops it being scheduled");
        }
        Job job;
        try {
            job = new Job(id, spec, status, rows.getInt("priority"), Columns.instant(rows, "created_at"),
                    rows.getInt("attempt"), rows.getString("last_error"), rows.getString("note"),
                    rows.getString("progress"), rows.getString("result"));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw inconsistent(id, e);
        }
        Long pid = Columns.longOrNull(rows, "pid");
        ProcessIdentity process = pid == null ? null : new ProcessIdentity(pid, rows.getLong("pgid"),
                Columns.longOrNull(rows, "proc_start_time"), rows.getString("boot_id"));
        return new Row(id, new StoredJob(job, rows.getString("job_dir"), process,
                Columns.instant(rows, "unverified_since"), Columns.longOrNull(rows, "measured_mb"),
                rows.getInt("launch_failures"), damage.isEmpty() ? null : String.join("; ", damage),
                rows.getInt("oom_retries")));
    }

    private static StoreException inconsistent(long id, RuntimeException e) {
        return new StoreException("job " + id + " in the queue database is inconsistent: " + e.getMessage(),
                "queue.db was changed outside nvidb or by a broken build", e);
    }

    /** A JSON column read with {@code reader}; one that does not parse is {@code fallback}, noted in {@code damage}. */
    private static <T> T json(ResultSet rows, String column, Function<String, T> reader, T fallback, List<String> damage)
            throws SQLException {
        String text = rows.getString(column);
        try {
            return reader.apply(text);
        } catch (IllegalArgumentException e) {
            damage.add(column + " holds bad JSON (" + Objects.requireNonNullElse(e.getMessage(), "null")
                    .replace("bad JSON in queue.db: ", "") + ")");
            return fallback;
        }
    }

    /** The status the flat columns describe: each state reads only the columns that belong to it. */
    private static JobStatus status(ResultSet rows, List<String> damage) throws SQLException {
        JobState state = state(rows.getString("state"));
        String node = rows.getString("node");
        Assignment assignment = node == null ? null : new Assignment(node,
                json(rows, "gpu_ids", JsonText::readInts, List.of(), damage),
                json(rows, "gpu_uuids", JsonText::readStrings, List.of(), damage),
                rows.getInt("attempt"), rows.getString("launch_token"));
        Instant startedAt = Columns.instant(rows, "started_at");
        return switch (state) {
            case PENDING -> new JobStatus.Pending(rows.getString("hold_reason"));
            case RUNNING -> new JobStatus.Running(assignment, startedAt);
            default -> new JobStatus.Ended(JobStatus.Outcome.of(state), Columns.instant(rows, "finished_at"),
                    Columns.intOrNull(rows, "exit_code"), assignment, startedAt,
                    FailureClass.fromKey(rows.getString("failure_class")).orElse(null));
        };
    }

    /** The run policy of a row; a count outside what a submit allows (changed by hand) is an inconsistent row. */
    private static RunPolicy policy(ResultSet rows) throws SQLException {
        return new RunPolicy(rows.getInt("exclusive") != 0, rows.getInt("retry_oom"), rows.getInt("allow_slurm") != 0);
    }

    static JobState state(String key) {
        return JobState.valueOf(key.toUpperCase(Locale.ROOT));
    }

    private static String stateKeys(Set<JobState> states) {
        return JsonText.write(stateKeyList(states));
    }

    private static List<String> stateKeyList(Set<JobState> states) {
        return states.stream().sorted().map(JobState::key).toList();
    }
}
