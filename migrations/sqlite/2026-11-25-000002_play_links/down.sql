ALTER TABLE accounts DROP COLUMN link_generation;
