ALTER TABLE tournament_games DROP COLUMN placings;
DROP TABLE tournament_pairings;
