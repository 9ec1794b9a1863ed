-- Schema 1: the whole queue in one file. Timestamps are ISO-8601 UTC text; lists of ids are
-- JSON arrays; env, tags, result and event data are JSON.
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT
);

CREATE TABLE nodes (
    name       TEXT PRIMARY KEY,
    hostname   TEXT,
    port       INTEGER,
    username   TEXT,
    state      TEXT NOT NULL DEFAULT 'unknown',   -- unknown | up | down: reachability
    enabled    INTEGER NOT NULL DEFAULT 1,        -- 0 = drained
    ignored    INTEGER NOT NULL DEFAULT 0,
    last_seen  TEXT,
    last_error TEXT,
    gpu_count  INTEGER NOT NULL DEFAULT 0,
    probed_at  TEXT,
    sort_order INTEGER
);

-- A cache replaced wholesale per node on every successful probe.
CREATE TABLE gpus (
    node             TEXT NOT NULL,
    gpu_index        INTEGER NOT NULL,
    uuid             TEXT,
    name             TEXT,
    mem_total_mb     INTEGER,
    mem_used_mb      INTEGER,
    util_percent     INTEGER,
    mem_util_percent INTEGER,
    temperature_c    INTEGER,
    external_mem_mb  INTEGER NOT NULL DEFAULT 0,
    external_procs   INTEGER NOT NULL DEFAULT 0,
    queue_mem_mb     INTEGER NOT NULL DEFAULT 0,
    reserved_mb      INTEGER NOT NULL DEFAULT 0,
    queue_jobs       INTEGER NOT NULL DEFAULT 0,
    attribution      TEXT NOT NULL DEFAULT 'processes',
    processes_json   TEXT,
    updated_at       TEXT,
    PRIMARY KEY (node, gpu_index)
);

CREATE TABLE jobs (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused, even after purge
    name            TEXT NOT NULL DEFAULT '',
    command         TEXT NOT NULL,
    workdir         TEXT,
    env             TEXT NOT NULL DEFAULT '{}',
    state           TEXT NOT NULL DEFAULT 'pending',
    priority        INTEGER NOT NULL DEFAULT 0,
    gpus            INTEGER NOT NULL DEFAULT 1,
    vram_mb         INTEGER NOT NULL DEFAULT 0,         -- reservation per GPU
    node_constraint TEXT,
    depends_on      TEXT NOT NULL DEFAULT '[]',
    depends_any     TEXT NOT NULL DEFAULT '[]',
    max_runtime_s   INTEGER,
    submitter       TEXT,
    tags            TEXT NOT NULL DEFAULT '[]',
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    started_at      TEXT,
    finished_at     TEXT,
    node            TEXT,
    gpu_ids         TEXT NOT NULL DEFAULT '[]',
    lane            TEXT,
    lane_seq        INTEGER,
    remote_pid      INTEGER,
    remote_pgid     INTEGER,
    run_dir         TEXT,
    exit_code       INTEGER,
    attempt         INTEGER NOT NULL DEFAULT 0,
    max_retries     INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT,
    heartbeat_at    TEXT,
    gpu_mem_mb      INTEGER,
    result          TEXT,
    notes           TEXT,
    progress        TEXT,
    progress_at     TEXT,
    held_reason     TEXT,
    idempotency_key TEXT
);
CREATE INDEX idx_jobs_state ON jobs(state);
CREATE INDEX idx_jobs_node ON jobs(node);
CREATE INDEX idx_jobs_lane ON jobs(lane, lane_seq);
CREATE UNIQUE INDEX idx_jobs_idempotency ON jobs(idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE TABLE lanes (
    name           TEXT PRIMARY KEY,   -- node:i[,j]
    node           TEXT NOT NULL,
    gpu_ids        TEXT NOT NULL DEFAULT '[]',
    paused         INTEGER NOT NULL DEFAULT 0,
    concurrency    INTEGER NOT NULL DEFAULT 1,
    runner         INTEGER NOT NULL DEFAULT 1,
    runner_state   TEXT,
    runner_seen_at TEXT,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE INDEX idx_lanes_node ON lanes(node);

CREATE TABLE events (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    ts      TEXT NOT NULL,
    kind    TEXT NOT NULL,
    job_id  INTEGER,
    node    TEXT,
    message TEXT,
    data    TEXT
);
CREATE INDEX idx_events_job ON events(job_id);

CREATE TABLE locks (
    name        TEXT PRIMARY KEY,
    owner       TEXT,
    acquired_at TEXT,
    expires_at  TEXT
);

CREATE TABLE alerts (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    ts              TEXT NOT NULL,
    kind            TEXT NOT NULL,
    severity        TEXT NOT NULL DEFAULT 'error',
    job_id          INTEGER,
    node            TEXT,
    title           TEXT NOT NULL,
    detail          TEXT,
    acknowledged_at TEXT,
    notified_at     TEXT
);
CREATE INDEX idx_alerts_open ON alerts(acknowledged_at);

-- Per alert and per sink: a delivered alert is never delivered to that sink again.
CREATE TABLE alert_deliveries (
    alert_id     INTEGER NOT NULL,
    sink         TEXT NOT NULL,
    delivered_at TEXT,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_try_at  TEXT,
    last_error   TEXT,
    PRIMARY KEY (alert_id, sink)
);

-- Kill obligations that outlive requeue and purge of the job row.
CREATE TABLE orphans (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    job_id     INTEGER,
    node       TEXT NOT NULL,
    run_dir    TEXT,
    pid        INTEGER,
    pgid       INTEGER,
    reason     TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX idx_orphans_node ON orphans(node);
