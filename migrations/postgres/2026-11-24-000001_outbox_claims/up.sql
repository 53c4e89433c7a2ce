-- Which worker holds a mail's lease (lease_until): every backend now claims rows with a short
-- lease, sends outside any transaction, then marks the outcome. Shown by `mail list`.
ALTER TABLE mail_outbox ADD COLUMN claimed_by TEXT;
-- A claim takes only the oldest due mail of each recipient (queue order per recipient): this
-- index answers "is there an earlier pending mail for this address" without a scan.
CREATE INDEX mail_outbox_pending_recipient ON mail_outbox (recipient, id) WHERE status = 'pending';
