-- Fills a queue database with 10,000 jobs for bench/cli-timings.sh, by copying the one job the
-- CLI submitted (so every column holds what the real program writes, whatever the schema
-- version) and then varying name, state and times. Run by sqlite3, or by PopulateJobs.java.
CREATE TEMP TABLE bench_job AS SELECT * FROM jobs WHERE id = (SELECT min(id) FROM jobs);
UPDATE bench_job SET id = NULL, idempotency_key = NULL;
INSERT INTO jobs SELECT bench_job.* FROM bench_job,
    (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 9999) SELECT i FROM n);
-- A queue's history: mostly finished jobs, some failed or cancelled, a few still pending.
UPDATE jobs SET
    name = 'bench-' || id,
    command = 'python train.py --seed=' || id,
    state = CASE WHEN id % 20 = 0 THEN 'pending' WHEN id % 10 = 1 THEN 'failed'
                 WHEN id % 10 = 2 THEN 'cancelled' ELSE 'completed' END,
    exit_code = CASE WHEN id % 20 = 0 OR id % 10 = 2 THEN NULL WHEN id % 10 = 1 THEN 1 ELSE 0 END,
    started_at = CASE WHEN id % 20 = 0 OR id % 10 = 2 THEN NULL ELSE created_at END,
    finished_at = CASE WHEN id % 20 = 0 THEN NULL ELSE created_at END,
    tags = '["bench"]'
WHERE id > (SELECT min(id) FROM jobs);
DROP TABLE bench_job;
