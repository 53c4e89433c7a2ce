CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at);
DROP INDEX mail_outbox_pending_recipient_lane;
CREATE INDEX mail_outbox_pending_recipient ON mail_outbox (recipient, id) WHERE status = 'pending';
DROP INDEX mail_outbox_pending_due;
ALTER TABLE mail_outbox DROP COLUMN lane;
