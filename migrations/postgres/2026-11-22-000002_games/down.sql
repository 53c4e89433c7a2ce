DROP TABLE moves;
DROP TABLE game_seats;
DROP TABLE games;
