DROP TABLE tournament_byes;
DROP TABLE tournament_games;
DROP TABLE tournament_entries;
DROP TABLE tournaments;
