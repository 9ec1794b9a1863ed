-- Schema 10: VRAM the queue learns (issue 33). Each pass that sees a running job's processes
-- records the largest per-GPU memory any of them held (peak_vram_mb) and its GPUs' utilisation
-- (a sum and a count: the mean is util_sum / util_samples). idle_since is when its GPUs last fell
-- to the idle threshold (NULL while busy); overrun_at and idle_alerted_at mark the one event or
-- alert a job gets of each kind. vram_source says where the reservation came from, as JSON:
-- {"kind": "explicit" | "default" | "first_run" | "learned", ...}. A job's two family keys (its
-- name with trailing digits and separators stripped, its command with numbers masked) find the
-- earlier runs --vram auto learns from. failure classifies a failed job ("oom", "killed");
-- oom_retry is how many out-of-memory retries it may make (--oom-retry) and oom_retries how many
-- it made.
ALTER TABLE jobs ADD COLUMN peak_vram_mb INTEGER;
ALTER TABLE jobs ADD COLUMN util_sum REAL NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN util_samples INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN idle_since TEXT;
ALTER TABLE jobs ADD COLUMN overrun_at TEXT;
ALTER TABLE jobs ADD COLUMN idle_alerted_at TEXT;
ALTER TABLE jobs ADD COLUMN vram_source TEXT;
ALTER TABLE jobs ADD COLUMN name_family TEXT;
ALTER TABLE jobs ADD COLUMN command_family TEXT;
ALTER TABLE jobs ADD COLUMN failure TEXT;
ALTER TABLE jobs ADD COLUMN oom_retry INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN oom_retries INTEGER NOT NULL DEFAULT 0;
-- What --vram auto reads: a family's completed runs with a measured peak, newest first.
CREATE INDEX idx_jobs_learn_name ON jobs(name_family, finished_at)
    WHERE state = 'completed' AND peak_vram_mb IS NOT NULL;
CREATE INDEX idx_jobs_learn_command ON jobs(command_family, finished_at)
    WHERE state = 'completed' AND peak_vram_mb IS NOT NULL;
