-- Schema 9: who asked for what an event records (issue 31, one application layer). Every
-- operation of the application layer carries a Caller: the OS account of the process that asked,
-- the free submitter label, and the front end it came through (cli, tui, web, mcp, daemon). An
-- event written by such an operation keeps them; one a scheduler pass writes on its own has NULLs.
ALTER TABLE events ADD COLUMN by_account TEXT;
ALTER TABLE events ADD COLUMN by_submitter TEXT;
ALTER TABLE events ADD COLUMN by_via TEXT;
