DO $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM pg_settings
    WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)
  ) THEN
    ALTER TABLE mail_outbox ALTER COLUMN parts SET COMPRESSION default;
    ALTER TABLE mail_outbox ALTER COLUMN body_text SET COMPRESSION default;
  END IF;
END
$$;
