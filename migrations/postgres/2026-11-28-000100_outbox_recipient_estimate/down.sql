ALTER TABLE mail_outbox ALTER COLUMN recipient RESET (n_distinct);
ANALYZE mail_outbox;
