-- Account mail (sign-in codes, sign-up notices) gets its own lane ahead of game mail: a claim
-- takes lane 0 (account) before lane 1 (game), so a backlog of turn cards never delays a code.
ALTER TABLE mail_outbox ADD COLUMN lane INTEGER NOT NULL DEFAULT 1;
-- The claim reads pending rows in (lane, due time, id) order and stops at its batch size: this
-- partial index answers it in that order, so sent rows are never read and a large pending
-- backlog costs one index read up to the batch, not a scan and a sort of every pending row.
CREATE INDEX mail_outbox_pending_due ON mail_outbox (lane, next_attempt_at, id) WHERE status = 'pending';
-- "Is there an earlier pending mail for this address in this lane": one index probe per
-- candidate row.
DROP INDEX mail_outbox_pending_recipient;
CREATE INDEX mail_outbox_pending_recipient_lane ON mail_outbox (recipient, lane, id) WHERE status = 'pending';
-- Superseded by mail_outbox_pending_due (which also counts the backlog); left in place, a
-- planner without statistics (SQLite) picks it and sorts every due row.
DROP INDEX mail_outbox_due;
