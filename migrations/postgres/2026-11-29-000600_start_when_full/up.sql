-- Issue 47: a tournament may start the moment its last place is taken (0 or 1); on by default
-- for invitation events with a maximum, off otherwise.
ALTER TABLE tournaments ADD COLUMN start_when_full INTEGER NOT NULL DEFAULT 0 CHECK (start_when_full IN (0, 1));
