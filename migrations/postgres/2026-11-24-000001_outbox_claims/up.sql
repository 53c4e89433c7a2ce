-- Which worker holds a mail's lease (lease_until): every backend now claims rows with a short
-- lease, sends outside any transaction, then marks the outcome. Shown by `mail list`.
ALTER TABLE mail_outbox ADD COLUMN claimed_by TEXT;
