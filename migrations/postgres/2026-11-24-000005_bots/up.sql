-- Built-in computer players (issue 16): accounts bot-1 … bot-5 and bot (= level 3). They hold
-- seats like anyone, but cannot sign in (no code is ever issued to them) and receive no mail
-- (their addresses are in the reserved .invalid domain, and the outbox skips bot accounts).
ALTER TABLE accounts ADD COLUMN bot_level INTEGER CHECK (bot_level BETWEEN 1 AND 5);

-- A server where a person already holds one of these names keeps that person under it (that
-- name is then no bot there): a migration must not fail, nor take anyone's name.
WITH built_in (name, level) AS (
    VALUES ('bot-1', 1), ('bot-2', 2), ('bot-3', 3), ('bot-4', 4), ('bot-5', 5), ('bot', 3)
)
INSERT INTO accounts (name, name_key, email, email_key, verified_at, created_at, bot_level)
SELECT name, name, name || '@bots.turnpost.invalid', name || '@bots.turnpost.invalid',
    (now() AT TIME ZONE 'UTC'), (now() AT TIME ZONE 'UTC'), level
FROM built_in
WHERE NOT EXISTS (SELECT 1 FROM accounts WHERE accounts.name_key = built_in.name);

-- Who is computing the bot's move at (game, ply): the unique key makes each move computed
-- once across server processes. A claim older than the worker's expiry is taken over.
CREATE TABLE bot_claims (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    claimed_at TIMESTAMP NOT NULL,
    PRIMARY KEY (game_id, ply)
);
