-- Schema 3: indexes for the queries commands make on a big queue (10,000 to 100,000 jobs), so
-- that none of them reads every job. QueryPlansTest (modules/cli) runs EXPLAIN QUERY PLAN over
-- what the hot commands execute and fails on a full scan of jobs or events.

-- `job ls --node N`: jobs placed on N, or pinned to N and not placed yet. One index answers both
-- halves of the OR; it replaces the index on node alone, which is its prefix.
DROP INDEX IF EXISTS idx_jobs_node;
CREATE INDEX idx_jobs_placement ON jobs(node, node_constraint);

-- `job ls --tag T`: the tags of each job, kept from jobs.tags (a JSON array) by the triggers
-- below, so that a tag is found through an index instead of by parsing every job's tags. A value
-- that is not JSON contributes no tag. The column has no type, so a tag keeps the JSON type it
-- had (a number stays a number), as json_each returned it to the query this replaces.
CREATE TABLE job_tags (
    tag,
    job_id INTEGER NOT NULL,
    PRIMARY KEY (tag, job_id)
) WITHOUT ROWID;
CREATE INDEX idx_job_tags_job ON job_tags(job_id);
INSERT OR IGNORE INTO job_tags (tag, job_id)
    SELECT t.value, jobs.id FROM jobs, json_each(CASE WHEN json_valid(jobs.tags) THEN jobs.tags ELSE '[]' END) AS t;
-- A trigger's body stays on its last line: migrations are split at semicolons that end a line.
CREATE TRIGGER job_tags_insert AFTER INSERT ON jobs BEGIN
    INSERT OR IGNORE INTO job_tags (tag, job_id) SELECT value, NEW.id FROM json_each(CASE WHEN json_valid(NEW.tags) THEN NEW.tags ELSE '[]' END); END;
CREATE TRIGGER job_tags_update AFTER UPDATE OF tags ON jobs BEGIN
    DELETE FROM job_tags WHERE job_id = OLD.id; INSERT OR IGNORE INTO job_tags (tag, job_id) SELECT value, NEW.id FROM json_each(CASE WHEN json_valid(NEW.tags) THEN NEW.tags ELSE '[]' END); END;
CREATE TRIGGER job_tags_delete AFTER DELETE ON jobs BEGIN
    DELETE FROM job_tags WHERE job_id = OLD.id; END;
