-- SQLite keeps no statistics unless ANALYZE is run, which this server never does: nothing to
-- change (the PostgreSQL migration of the same name fixes the planner's estimate of
-- recipients in the outbox).
SELECT 1;
