-- Fills a queue database for the whole-command benchmarks (bench/lib.sh: populate), by copying
-- the one job the CLI submitted (so every column holds what the real program writes, whatever
-- the schema version) and then varying name, state and times: 10,000 jobs in all, or as many as
-- a temporary table bench_size (n) created first says. Run by sqlite3, or by PopulateJobs.java.
-- A temporary table bench_pending (p) holding 1 makes every job pending instead (a backlog).
-- Before schema 4 the copies carry the seed's env, tags and dependencies in their JSON columns;
-- from schema 4 on, bench/populate-job-lists.sql copies the seed's rows of the child tables.
CREATE TEMP TABLE IF NOT EXISTS bench_size (n INTEGER);
INSERT INTO bench_size SELECT 10000 WHERE NOT EXISTS (SELECT 1 FROM bench_size);
CREATE TEMP TABLE IF NOT EXISTS bench_pending (p INTEGER);
INSERT INTO bench_pending SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM bench_pending);
CREATE TEMP TABLE bench_job AS SELECT * FROM jobs WHERE id = (SELECT min(id) FROM jobs);
UPDATE bench_job SET id = NULL, idempotency_key = NULL;
INSERT INTO jobs SELECT bench_job.* FROM bench_job,
    (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < (SELECT n - 1 FROM bench_size))
     SELECT i FROM n);
-- A queue's history: mostly finished jobs, some failed or cancelled, a few still pending.
UPDATE jobs SET
    name = 'bench-' || id,
    command = 'python train.py --seed=' || id,
    state = CASE WHEN id % 20 = 0 THEN 'pending' WHEN id % 10 = 1 THEN 'failed'
                 WHEN id % 10 = 2 THEN 'cancelled' ELSE 'completed' END,
    exit_code = CASE WHEN id % 20 = 0 OR id % 10 = 2 THEN NULL WHEN id % 10 = 1 THEN 1 ELSE 0 END,
    started_at = CASE WHEN id % 20 = 0 OR id % 10 = 2 THEN NULL ELSE created_at END,
    finished_at = CASE WHEN id % 20 = 0 THEN NULL ELSE created_at END
WHERE id > (SELECT min(id) FROM jobs);
-- Or a backlog: every job waits.
UPDATE jobs SET state = 'pending', exit_code = NULL, started_at = NULL, finished_at = NULL
WHERE id > (SELECT min(id) FROM jobs) AND (SELECT p FROM bench_pending) = 1;
DROP TABLE bench_job;
