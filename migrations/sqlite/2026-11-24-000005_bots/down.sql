DROP TABLE bot_claims;
DELETE FROM accounts WHERE bot_level IS NOT NULL;
ALTER TABLE accounts DROP COLUMN bot_level;
