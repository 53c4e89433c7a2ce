DROP TABLE rematches;
DROP TABLE open_seats;
