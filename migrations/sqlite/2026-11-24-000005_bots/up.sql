-- Built-in computer players (issue 16): accounts bot-1 … bot-5 and bot (= level 3). They hold
-- seats like anyone, but cannot sign in (no code is ever issued to them) and receive no mail
-- (their addresses are in the reserved .invalid domain, and the outbox skips bot accounts).
ALTER TABLE accounts ADD COLUMN bot_level INTEGER CHECK (bot_level BETWEEN 1 AND 5);

INSERT INTO accounts (name, name_key, email, email_key, verified_at, created_at, bot_level) VALUES
    ('bot-1', 'bot-1', 'bot-1@bots.turnpost.invalid', 'bot-1@bots.turnpost.invalid', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 1),
    ('bot-2', 'bot-2', 'bot-2@bots.turnpost.invalid', 'bot-2@bots.turnpost.invalid', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 2),
    ('bot-3', 'bot-3', 'bot-3@bots.turnpost.invalid', 'bot-3@bots.turnpost.invalid', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 3),
    ('bot-4', 'bot-4', 'bot-4@bots.turnpost.invalid', 'bot-4@bots.turnpost.invalid', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 4),
    ('bot-5', 'bot-5', 'bot-5@bots.turnpost.invalid', 'bot-5@bots.turnpost.invalid', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 5),
    ('bot', 'bot', 'bot@bots.turnpost.invalid', 'bot@bots.turnpost.invalid', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 3);

-- Who is computing the bot's move at (game, ply): the unique key makes each move computed
-- once across server processes. A claim older than the worker's expiry is taken over.
CREATE TABLE bot_claims (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    claimed_at TIMESTAMP NOT NULL,
    PRIMARY KEY (game_id, ply)
);
