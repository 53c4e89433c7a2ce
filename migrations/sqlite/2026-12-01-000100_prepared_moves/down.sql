ALTER TABLE moves DROP COLUMN prepared;
