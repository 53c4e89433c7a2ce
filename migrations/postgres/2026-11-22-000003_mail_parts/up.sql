-- Everything beyond the plain text that a mail needs to be rebuilt identically at retry time:
-- the HTML part, the inline board picture (PNG as base64) with its Content-ID, and the RFC 8058
-- unsubscribe link, as one JSON object (NULL for a plain-text mail). One column, not four:
-- diesel's default table size is 16 columns and the outbox has 13.
ALTER TABLE mail_outbox ADD COLUMN parts TEXT;
