-- The game events become a log (issue 45): rows stay after their mail is composed, so streams,
-- tournaments and later channels read them too; each consumer keeps its own position.
--
-- `tx` orders the log on PostgreSQL (see its migration); SQLite has one writer at a time, so
-- ids become visible in order and `tx` stays 0.
ALTER TABLE game_events ADD COLUMN tx INTEGER NOT NULL DEFAULT 0;
-- The mail consumer's position: a mark on each event (see the PostgreSQL migration).
ALTER TABLE game_events ADD COLUMN mail_composed BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX game_events_log ON game_events (tx, id);
CREATE INDEX game_events_mail_waiting ON game_events (id) WHERE NOT mail_composed;
CREATE INDEX game_events_game_mail_waiting ON game_events (game_id, id) WHERE NOT mail_composed;

CREATE TABLE event_cursors (
    consumer TEXT PRIMARY KEY NOT NULL,
    tx INTEGER NOT NULL,
    event_id INTEGER NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
