-- Schema 4 and later (a job's lists in child tables): after bench/populate-jobs.sql, every copy
-- gets the seed's env, dependencies, tags and GPUs. The seed is the job with the lowest id.
-- Run only where the table job_env exists (bench/lib.sh: populate, bench/json-codec.sh).
INSERT INTO job_env (job_id, position, name, value)
    SELECT jobs.id, e.position, e.name, e.value FROM jobs, job_env AS e
    WHERE e.job_id = (SELECT min(id) FROM jobs) AND jobs.id > e.job_id;
INSERT INTO job_dependencies (job_id, kind, position, prerequisite)
    SELECT jobs.id, d.kind, d.position, d.prerequisite FROM jobs, job_dependencies AS d
    WHERE d.job_id = (SELECT min(id) FROM jobs) AND jobs.id > d.job_id;
INSERT INTO job_tags (job_id, position, tag)
    SELECT jobs.id, t.position, t.tag FROM jobs, job_tags AS t
    WHERE t.job_id = (SELECT min(id) FROM jobs) AND jobs.id > t.job_id;
INSERT INTO job_gpus (job_id, position, gpu_index)
    SELECT jobs.id, g.position, g.gpu_index FROM jobs, job_gpus AS g
    WHERE g.job_id = (SELECT min(id) FROM jobs) AND jobs.id > g.job_id;
