-- SQLite keeps no statistics unless ANALYZE is run, which this server never does, and never
-- truncates a table on its own: nothing to change (the PostgreSQL migration of the same name
-- fixes the planner's estimate of recipients in the outbox and keeps vacuum from truncating
-- the queue tables).
SELECT 1;
