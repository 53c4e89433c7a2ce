ALTER TABLE accounts DROP COLUMN engine;
