-- Engine accounts (issue 45): an account whose moves an outside program makes through
-- `turnpost bot run`. Its owner marks it (PUT /v1/me/engine); `bot run` refuses to play for an
-- account not marked, so that people know whom they play against.
ALTER TABLE accounts ADD COLUMN engine BOOLEAN NOT NULL DEFAULT FALSE;
