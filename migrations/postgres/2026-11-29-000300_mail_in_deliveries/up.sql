-- Replies delivered by `mail-in` (an MTA's pipe: one short process per message), counted by
-- outcome here so that every server process's /metrics shows them (issue 49).
CREATE TABLE mail_in_deliveries (
    outcome TEXT PRIMARY KEY NOT NULL,
    count BIGINT NOT NULL DEFAULT 0
);
