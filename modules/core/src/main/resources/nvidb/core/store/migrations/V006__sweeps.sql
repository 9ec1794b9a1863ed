-- Schema 6: parameter sweeps (issue 23). One submit makes a sweep and its runs in one
-- transaction; each run is an ordinary job, linked here, so that the jobs table keeps no sweep
-- column and every job command works on a run as on any job.
CREATE TABLE sweeps (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused, even after purge
    name            TEXT NOT NULL,
    command         TEXT NOT NULL,             -- the command with its {name} placeholders
    params          TEXT NOT NULL DEFAULT '[]', -- the parameter names, in order (JSON array)
    spec            TEXT,                      -- how the runs were made: grid, zip, random + seed, file (JSON)
    max_parallel    INTEGER,                   -- at most this many runs running at once; NULL: no limit
    submitter       TEXT,
    idempotency_key TEXT,
    created_at      TEXT NOT NULL
);
CREATE UNIQUE INDEX idx_sweeps_idempotency ON sweeps(idempotency_key) WHERE idempotency_key IS NOT NULL;

-- One row per run. A purged job leaves its row: `sweep show` then says the run is gone.
CREATE TABLE sweep_runs (
    job_id    INTEGER PRIMARY KEY,
    sweep_id  INTEGER NOT NULL,
    run_index INTEGER NOT NULL,
    params    TEXT NOT NULL DEFAULT '{}'          -- name -> value, as substituted (JSON object)
);
CREATE UNIQUE INDEX idx_sweep_runs_sweep ON sweep_runs(sweep_id, run_index);
