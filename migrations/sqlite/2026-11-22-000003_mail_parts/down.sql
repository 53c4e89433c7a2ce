ALTER TABLE mail_outbox DROP COLUMN parts;
