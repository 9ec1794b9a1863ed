-- Schema 14: per-user web tokens (issue 34, `nvidb queue web token add NAME`). Only a token's
-- SHA-256 is kept: a token is shown once, when made, and a copy of the database gives none away.
-- A request with the token acts as `user`; revoking deletes the row, refused from the next request.
CREATE TABLE web_tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user TEXT NOT NULL,
    token_sha256 BLOB NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL,
    last_used_at TEXT
);
CREATE INDEX idx_web_tokens_user ON web_tokens(user);
