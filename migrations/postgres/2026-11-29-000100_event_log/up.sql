-- The game events become a log (issue 45): rows stay after their mail is composed, so streams,
-- tournaments and later channels read them too; each consumer keeps its own position.
--
-- `tx`: the writing transaction's id. Ids of a BIGSERIAL are taken at insert but become
-- visible at commit, so a reader that followed ids alone could pass over an event whose
-- transaction commits after a later one's. A reader takes only events whose transaction is
-- older than every transaction still running (`pg_snapshot_xmin`), in (tx, id) order: that
-- order never gains an event behind a position already read.
ALTER TABLE game_events ADD COLUMN tx BIGINT NOT NULL DEFAULT (pg_current_xact_id()::text::bigint);
-- The mail consumer composes many games' events at once in several processes, so its position
-- is a mark on each event rather than one cursor.
ALTER TABLE game_events ADD COLUMN mail_composed BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX game_events_log ON game_events (tx, id);
CREATE INDEX game_events_mail_waiting ON game_events (id) WHERE NOT mail_composed;
CREATE INDEX game_events_game_mail_waiting ON game_events (game_id, id) WHERE NOT mail_composed;

-- The position of each consumer that reads the log in order (the tournaments' rounds, later
-- channels): the (tx, id) of the last event it acted on.
CREATE TABLE event_cursors (
    consumer TEXT PRIMARY KEY,
    tx BIGINT NOT NULL,
    event_id BIGINT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
