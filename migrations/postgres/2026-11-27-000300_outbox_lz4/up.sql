-- Queued mail keeps its HTML part and board picture (tens of kilobytes a turn card) in
-- `parts`, and PostgreSQL compresses such values with pglz by default: under a load of moves
-- that was about a tenth of the database's CPU, taken from the moves. lz4 compresses several
-- times faster at a similar size. Only where this server was built with lz4 (PostgreSQL 14
-- and later, as Debian's and the official images are); elsewhere nothing changes. Values
-- already stored keep their compression.
DO $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM pg_settings
    WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)
  ) THEN
    ALTER TABLE mail_outbox ALTER COLUMN parts SET COMPRESSION lz4;
    ALTER TABLE mail_outbox ALTER COLUMN body_text SET COMPRESSION lz4;
  END IF;
END
$$;
