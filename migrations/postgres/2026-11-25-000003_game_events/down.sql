DROP TABLE game_events;
