ALTER TABLE tournaments DROP COLUMN start_when_full;
