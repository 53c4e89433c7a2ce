DROP TABLE rating_history;
ALTER TABLE games DROP COLUMN rated;
