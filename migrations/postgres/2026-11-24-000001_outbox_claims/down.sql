DROP INDEX mail_outbox_pending_recipient;
ALTER TABLE mail_outbox DROP COLUMN claimed_by;
