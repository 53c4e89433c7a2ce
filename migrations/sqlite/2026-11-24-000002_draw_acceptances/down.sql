ALTER TABLE games DROP COLUMN draw_accepted_by;
