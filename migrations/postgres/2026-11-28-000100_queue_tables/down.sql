ALTER TABLE mail_outbox RESET (vacuum_truncate);
ALTER TABLE game_events RESET (vacuum_truncate);
ALTER TABLE mail_outbox ALTER COLUMN recipient RESET (n_distinct);
ANALYZE mail_outbox;
