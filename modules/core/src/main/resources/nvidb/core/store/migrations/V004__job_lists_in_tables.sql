-- Schema 4: the small lists and maps that rows held as JSON text (a job's env, dependencies, tags
-- and GPUs, a lane's GPUs, a GPU's processes) become rows of child tables, so that reading a job
-- needs no JSON parser: the four hand-written readers that had to agree with Jackson are gone.
-- SQLite's own JSON functions convert the rows already stored, once. `position` keeps each list
-- in the order it was written; a value that was not what the list holds (text in a list of ids,
-- an unreadable column) is dropped, as the readers skipped it before.

-- A job's environment: NAME=value in the order given. A key given twice keeps both rows; the
-- reader keeps the first one's place and the last one's value, as the JSON reader did.
CREATE TABLE job_env (
    job_id   INTEGER NOT NULL,
    position INTEGER NOT NULL,
    name     TEXT NOT NULL,
    value    TEXT NOT NULL,
    PRIMARY KEY (job_id, position)
) WITHOUT ROWID;
INSERT INTO job_env (job_id, position, name, value)
    SELECT jobs.id, e.id, e.key, e.value FROM jobs,
        json_each(CASE WHEN json_valid(jobs.env) AND json_type(jobs.env) = 'object' THEN jobs.env ELSE '{}' END) AS e
    WHERE e.type != 'null';

-- `--after` (kind 'all': every prerequisite must complete) and `--after-any` (kind 'any').
CREATE TABLE job_dependencies (
    job_id       INTEGER NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('all', 'any')),
    position     INTEGER NOT NULL,
    prerequisite INTEGER NOT NULL,
    PRIMARY KEY (job_id, kind, position)
) WITHOUT ROWID;
-- "Which jobs wait on N" (job show, cancel) is found through this index, not by reading every job.
CREATE INDEX idx_job_dependencies_prerequisite ON job_dependencies(prerequisite);
INSERT INTO job_dependencies (job_id, kind, position, prerequisite)
    SELECT jobs.id, 'all', d.key, CAST(d.value AS INTEGER) FROM jobs,
        json_each(CASE WHEN json_valid(jobs.depends_on) AND json_type(jobs.depends_on) = 'array' THEN jobs.depends_on ELSE '[]' END) AS d
    WHERE d.type IN ('integer', 'real');
INSERT INTO job_dependencies (job_id, kind, position, prerequisite)
    SELECT jobs.id, 'any', d.key, CAST(d.value AS INTEGER) FROM jobs,
        json_each(CASE WHEN json_valid(jobs.depends_any) AND json_type(jobs.depends_any) = 'array' THEN jobs.depends_any ELSE '[]' END) AS d
    WHERE d.type IN ('integer', 'real');

-- The GPUs a job holds on its node.
CREATE TABLE job_gpus (
    job_id    INTEGER NOT NULL,
    position  INTEGER NOT NULL,
    gpu_index INTEGER NOT NULL,
    PRIMARY KEY (job_id, position)
) WITHOUT ROWID;
INSERT INTO job_gpus (job_id, position, gpu_index)
    SELECT jobs.id, g.key, CAST(g.value AS INTEGER) FROM jobs,
        json_each(CASE WHEN json_valid(jobs.gpu_ids) AND json_type(jobs.gpu_ids) = 'array' THEN jobs.gpu_ids ELSE '[]' END) AS g
    WHERE g.type IN ('integer', 'real');

-- Tags: job_tags (schema 3) was an index kept from jobs.tags by triggers; it becomes where tags
-- live, in their order. A tag keeps the JSON type it had (the column has none), as before.
DROP TRIGGER IF EXISTS job_tags_insert;
DROP TRIGGER IF EXISTS job_tags_update;
DROP TRIGGER IF EXISTS job_tags_delete;
DROP TABLE job_tags;
CREATE TABLE job_tags (
    job_id   INTEGER NOT NULL,
    position INTEGER NOT NULL,
    tag,
    PRIMARY KEY (job_id, position)
) WITHOUT ROWID;
-- `job ls --tag T` finds T's jobs through this index (QueryPlansTest).
CREATE INDEX idx_job_tags_tag ON job_tags(tag, job_id);
INSERT INTO job_tags (job_id, position, tag)
    SELECT jobs.id, t.key, t.value FROM jobs,
        json_each(CASE WHEN json_valid(jobs.tags) AND json_type(jobs.tags) = 'array' THEN jobs.tags ELSE '[]' END) AS t;

-- Purging a job removes its lists with it, whatever statement deletes the row.
-- A trigger's body stays on its last line: migrations are split at semicolons that end a line.
CREATE TRIGGER job_lists_delete AFTER DELETE ON jobs BEGIN
    DELETE FROM job_env WHERE job_id = OLD.id; DELETE FROM job_dependencies WHERE job_id = OLD.id; DELETE FROM job_gpus WHERE job_id = OLD.id; DELETE FROM job_tags WHERE job_id = OLD.id; END;

ALTER TABLE jobs DROP COLUMN env;
ALTER TABLE jobs DROP COLUMN depends_on;
ALTER TABLE jobs DROP COLUMN depends_any;
ALTER TABLE jobs DROP COLUMN gpu_ids;
ALTER TABLE jobs DROP COLUMN tags;

-- A lane's GPU allowlist.
CREATE TABLE lane_gpus (
    lane      TEXT NOT NULL,
    position  INTEGER NOT NULL,
    gpu_index INTEGER NOT NULL,
    PRIMARY KEY (lane, position)
) WITHOUT ROWID;
INSERT INTO lane_gpus (lane, position, gpu_index)
    SELECT lanes.name, g.key, CAST(g.value AS INTEGER) FROM lanes,
        json_each(CASE WHEN json_valid(lanes.gpu_ids) AND json_type(lanes.gpu_ids) = 'array' THEN lanes.gpu_ids ELSE '[]' END) AS g
    WHERE g.type IN ('integer', 'real');
ALTER TABLE lanes DROP COLUMN gpu_ids;

-- The processes the last probe saw on a GPU: a cache replaced with its GPU's row.
CREATE TABLE gpu_processes (
    node      TEXT NOT NULL,
    gpu_index INTEGER NOT NULL,
    position  INTEGER NOT NULL,
    pid       INTEGER NOT NULL,
    mem_mb    INTEGER,
    name      TEXT,
    user      TEXT,
    job_id    INTEGER,
    job_name  TEXT,
    managed   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (node, gpu_index, position)
) WITHOUT ROWID;
INSERT INTO gpu_processes (node, gpu_index, position, pid, mem_mb, name, user, job_id, job_name, managed)
    SELECT gpus.node, gpus.gpu_index, p.key, json_extract(p.value, '$.pid'), json_extract(p.value, '$.memMb'),
           json_extract(p.value, '$.name'), json_extract(p.value, '$.user'), json_extract(p.value, '$.jobId'),
           json_extract(p.value, '$.jobName'), COALESCE(json_extract(p.value, '$.managed'), 0)
    FROM gpus,
        json_each(CASE WHEN json_valid(gpus.processes_json) AND json_type(gpus.processes_json) = 'array' THEN gpus.processes_json ELSE '[]' END) AS p
    WHERE p.type = 'object' AND json_type(p.value, '$.pid') = 'integer';
ALTER TABLE gpus DROP COLUMN processes_json;
