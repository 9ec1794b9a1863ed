-- Schema 6: batch nodes (issue 21): jobs handed to a node whose own scheduler places them (a Slurm
-- partition). A row per job that was submitted there, or waits to overflow there, or must never
-- (--no-burst). The job's own row keeps node and run_dir as for any node; this row adds what the
-- batch system said.
CREATE TABLE batch_jobs (
    job_id        INTEGER PRIMARY KEY,
    no_burst      INTEGER NOT NULL DEFAULT 0, -- submit --no-burst: the job stays on the workstations
    waiting_since TEXT,                       -- first pass no workstation could take it; queue.burst_after counts from here
    node          TEXT,                       -- the batch node it was submitted to
    batch_id      TEXT,                       -- the batch system's id of it (Slurm's job id)
    run_dir       TEXT,                       -- the attempt's run directory the submission was made for
    state         TEXT,                       -- the batch system's word for it at the last pass
    reason        TEXT,                       -- why it waits there, as shown: "slurm: Resources"
    updated_at    TEXT
);
CREATE INDEX idx_batch_jobs_node ON batch_jobs(node) WHERE node IS NOT NULL;
-- A trigger's body stays on its last line: migrations are split at semicolons that end a line.
CREATE TRIGGER batch_jobs_delete AFTER DELETE ON jobs BEGIN
    DELETE FROM batch_jobs WHERE job_id = OLD.id; END;
