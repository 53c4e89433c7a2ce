-- Issue 47: a move the server played from its player's conditional moves (a prepared answer),
-- so that the page, the mails, the stream and the CLI can say so.
ALTER TABLE moves ADD COLUMN prepared BOOLEAN NOT NULL DEFAULT FALSE;
