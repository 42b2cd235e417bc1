-- Frozen copy of queue.db schema version 8 (SchemaV1.DDL to SchemaV8.DDL as shipped). Never edit.
-- Tests check that migrations 1 to 8 build exactly this schema, and migrate a database built
-- from it to the current schema.
CREATE TABLE jobs (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    name            TEXT NOT NULL,
    command         TEXT NOT NULL,
    gpus            INTEGER NOT NULL CHECK (gpus >= 0),
    vram_mb         INTEGER NOT NULL CHECK (vram_mb >= 0),
    node_request    TEXT,
    workdir         TEXT,
    env             TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(env) AND json_type(env) = 'object'),
    timeout_s       INTEGER CHECK (timeout_s IS NULL OR timeout_s > 0),
    max_retries     INTEGER NOT NULL DEFAULT 0 CHECK (max_retries >= 0),
    tags            TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags) AND json_type(tags) = 'array'),
    submitter       TEXT,
    state           TEXT NOT NULL CHECK (state IN
                        ('pending', 'running', 'completed', 'failed', 'cancelled', 'timeout', 'lost')),
    priority        INTEGER NOT NULL DEFAULT 0,
    created_at      INTEGER NOT NULL,
    started_at      INTEGER,
    finished_at     INTEGER,
    node            TEXT,
    gpu_ids         TEXT CHECK (gpu_ids IS NULL OR json_valid(gpu_ids)),
    gpu_uuids       TEXT CHECK (gpu_uuids IS NULL OR json_valid(gpu_uuids)),
    attempt         INTEGER NOT NULL DEFAULT 0 CHECK (attempt >= 0),
    launch_token    TEXT UNIQUE,
    job_dir         TEXT,
    pid             INTEGER,
    pgid            INTEGER,
    proc_start_time INTEGER,
    boot_id         TEXT,
    exit_code       INTEGER,
    last_error      TEXT,
    note            TEXT,
    progress        TEXT,
    result          TEXT CHECK (result IS NULL OR json_valid(result)),
    hold_reason     TEXT CHECK (hold_reason IS NULL OR state = 'pending'),
    unverified_since INTEGER CHECK (unverified_since IS NULL OR state = 'running'),
    measured_mb     INTEGER CHECK (measured_mb IS NULL OR measured_mb >= 0),
    CHECK (state <> 'running' OR (node IS NOT NULL AND launch_token IS NOT NULL AND started_at IS NOT NULL)),
    CHECK ((state IN ('pending', 'running')) = (finished_at IS NULL))
);
CREATE INDEX jobs_by_state ON jobs (state, priority DESC, id);
CREATE INDEX jobs_by_node ON jobs (node, state) WHERE node IS NOT NULL;

CREATE TABLE job_dependencies (
    job_id        INTEGER NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    depends_on    INTEGER NOT NULL CHECK (depends_on <> job_id),
    needs_success INTEGER NOT NULL CHECK (needs_success IN (0, 1)),
    PRIMARY KEY (job_id, depends_on)
) WITHOUT ROWID;
CREATE INDEX job_dependencies_by_target ON job_dependencies (depends_on);

CREATE TABLE events (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    at      INTEGER NOT NULL,
    job_id  INTEGER,
    node    TEXT,
    kind    TEXT NOT NULL,
    detail  TEXT CHECK (detail IS NULL OR json_valid(detail))
);
CREATE INDEX events_by_job ON events (job_id, id) WHERE job_id IS NOT NULL;
CREATE TRIGGER events_are_append_only BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;

CREATE TABLE alerts (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    at              INTEGER NOT NULL,
    dedup_key       TEXT NOT NULL UNIQUE,
    kind            TEXT NOT NULL,
    severity        TEXT NOT NULL CHECK (severity IN ('info', 'warning', 'error')),
    job_id          INTEGER,
    node            TEXT,
    message         TEXT NOT NULL,
    detail          TEXT,
    acknowledged_at INTEGER
);
CREATE INDEX alerts_open ON alerts (id) WHERE acknowledged_at IS NULL;

CREATE TABLE alert_deliveries (
    alert_id     INTEGER NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
    channel      TEXT NOT NULL,
    delivered_at INTEGER,
    attempts     INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT,
    PRIMARY KEY (alert_id, channel)
) WITHOUT ROWID;

CREATE TABLE nodes (
    name                 TEXT PRIMARY KEY,
    drained_at           INTEGER,
    ignored_at           INTEGER,
    last_probe_at        INTEGER,
    last_seen_at         INTEGER,
    last_probe           TEXT CHECK (last_probe IS NULL OR json_valid(last_probe)),
    consecutive_failures INTEGER NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
    backoff_until        INTEGER,
    last_error           TEXT,
    boot_id              TEXT
) WITHOUT ROWID;

CREATE TABLE pending_reaps (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    node            TEXT NOT NULL,
    pid             INTEGER,
    pgid            INTEGER,
    proc_start_time INTEGER,
    boot_id         TEXT,
    job_id          INTEGER,
    launch_token    TEXT,
    job_dir         TEXT,
    reason          TEXT NOT NULL,
    created_at      INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    signalled_at    INTEGER,
    last_error      TEXT,
    CHECK (pid IS NOT NULL OR launch_token IS NOT NULL)
);
CREATE UNIQUE INDEX pending_reaps_once ON pending_reaps (node, launch_token) WHERE launch_token IS NOT NULL;
CREATE INDEX pending_reaps_by_node ON pending_reaps (node);

CREATE TABLE lease (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    holder      TEXT,
    acquired_at INTEGER,
    expires_at  INTEGER NOT NULL DEFAULT 0,
    generation  INTEGER NOT NULL DEFAULT 0
);
INSERT INTO lease (id) VALUES (1);

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

ALTER TABLE jobs ADD COLUMN launch_failures INTEGER NOT NULL DEFAULT 0 CHECK (launch_failures >= 0);

ALTER TABLE jobs ADD COLUMN submit_env TEXT
    CHECK (submit_env IS NULL OR (json_valid(submit_env) AND json_type(submit_env) = 'object'));
CREATE TABLE cancel_requests (
    job_id       INTEGER PRIMARY KEY,
    attempt      INTEGER NOT NULL CHECK (attempt >= 0),
    reason       TEXT NOT NULL,
    requested_at INTEGER NOT NULL
);

ALTER TABLE alert_deliveries ADD COLUMN claimed_by TEXT;
ALTER TABLE alert_deliveries ADD COLUMN claim_expires_at INTEGER;
ALTER TABLE alert_deliveries ADD COLUMN next_attempt_at INTEGER;
ALTER TABLE alert_deliveries ADD COLUMN last_attempt_at INTEGER;
ALTER TABLE alert_deliveries ADD COLUMN not_owed TEXT;
CREATE TABLE notify_channels (
    channel       TEXT PRIMARY KEY,
    started_at    INTEGER NOT NULL,
    backlog_until INTEGER NOT NULL CHECK (backlog_until >= 0)
) WITHOUT ROWID;

ALTER TABLE jobs ADD COLUMN job_key TEXT;
ALTER TABLE jobs ADD COLUMN group_name TEXT;
ALTER TABLE jobs ADD COLUMN array_index INTEGER CHECK (array_index IS NULL OR array_index >= 0);
CREATE INDEX jobs_by_key ON jobs (job_key, state) WHERE job_key IS NOT NULL;
CREATE INDEX jobs_by_group ON jobs (group_name, state) WHERE group_name IS NOT NULL;
CREATE TABLE job_groups (
    name           TEXT PRIMARY KEY,
    max_running    INTEGER CHECK (max_running IS NULL OR max_running > 0),
    quick_failures INTEGER NOT NULL DEFAULT 0 CHECK (quick_failures >= 0),
    held_at        INTEGER,
    held_reason    TEXT,
    CHECK ((held_at IS NULL) = (held_reason IS NULL))
) WITHOUT ROWID;
CREATE TABLE op_ids (
    op_id       TEXT PRIMARY KEY,
    digest      TEXT NOT NULL,
    command     TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    job_ids     TEXT CHECK (job_ids IS NULL OR (json_valid(job_ids) AND json_type(job_ids) = 'array')),
    finished_at INTEGER,
    exit_code   INTEGER,
    stdout      TEXT,
    CHECK ((finished_at IS NULL) = (exit_code IS NULL))
) WITHOUT ROWID;

-- v6
ALTER TABLE jobs ADD COLUMN failure_class TEXT CHECK (failure_class IS NULL
    OR failure_class IN ('oom', 'signal', 'exit_code', 'launch', 'lost', 'timeout'));
ALTER TABLE jobs ADD COLUMN retry_oom INTEGER NOT NULL DEFAULT 0 CHECK (retry_oom BETWEEN 0 AND 10);
ALTER TABLE jobs ADD COLUMN oom_retries INTEGER NOT NULL DEFAULT 0 CHECK (oom_retries >= 0);
ALTER TABLE jobs ADD COLUMN exclusive INTEGER NOT NULL DEFAULT 0 CHECK (exclusive IN (0, 1));

-- v7
ALTER TABLE jobs ADD COLUMN allow_slurm INTEGER NOT NULL DEFAULT 0 CHECK (allow_slurm IN (0, 1));
ALTER TABLE pending_reaps ADD COLUMN job_attempt INTEGER;
