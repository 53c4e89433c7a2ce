-- The claim asks, for each candidate mail, whether an earlier mail of the same recipient
-- waits: one probe of mail_outbox_pending_recipient_lane when the planner believes a
-- recipient has few mails. Statistics taken while the outbox held mail for one recipient (a
-- quiet hour, a fresh install) said the opposite, and the claim then read every due row for
-- every candidate (10 ms a claim under a backlog of turn cards instead of 0.3 ms). A fixed
-- estimate, used by every ANALYZE from now on: about one recipient per hundred mails.
ALTER TABLE mail_outbox ALTER COLUMN recipient SET (n_distinct = -0.01);
ANALYZE mail_outbox;

-- The queue tables empty as fast as they fill, so a vacuum found empty pages at their end
-- and truncated them: that takes an exclusive lock, which every move (it records a game
-- event) then waited for, and which the vacuum itself waited up to five seconds to get (1.8
-- to 2.7 s a vacuum of game_events under load). The pages are reused instead.
ALTER TABLE game_events SET (vacuum_truncate = false);
ALTER TABLE mail_outbox SET (vacuum_truncate = false);
