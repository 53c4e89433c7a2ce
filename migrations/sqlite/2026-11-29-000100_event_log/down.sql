DROP TABLE event_cursors;
DELETE FROM game_events WHERE mail_composed;
DROP INDEX game_events_game_mail_waiting;
DROP INDEX game_events_mail_waiting;
DROP INDEX game_events_log;
ALTER TABLE game_events DROP COLUMN mail_composed;
ALTER TABLE game_events DROP COLUMN tx;
