ALTER TABLE mail_outbox DROP COLUMN claimed_by;
