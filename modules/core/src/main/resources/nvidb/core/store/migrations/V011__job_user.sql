-- Schema 11: who submitted a job, as the OS knows them (issue 34). `user` is the account that ran
-- the submit on the queue host (for a forwarded command, the account the ssh login reached), read
-- from the OS by the process's uid; `submitter` stays the free label a client sets. Jobs from
-- before this schema have none.
ALTER TABLE jobs ADD COLUMN user TEXT;
CREATE INDEX idx_jobs_user ON jobs(user);
