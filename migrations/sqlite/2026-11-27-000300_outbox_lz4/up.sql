-- SQLite does not compress values: nothing to change (the PostgreSQL migration of the same
-- name gives the outbox's large columns lz4 compression).
SELECT 1;
