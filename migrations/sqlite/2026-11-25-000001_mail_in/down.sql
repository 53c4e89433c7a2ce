ALTER TABLE notification_settings DROP COLUMN mail_confirmations;
DROP TABLE inbound_mail;
