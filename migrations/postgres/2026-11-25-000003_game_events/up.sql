-- Game events waiting for their mail (issue 13): the game service records one row in the
-- transaction of the change; the mail worker turns it into outbox rows and deletes it in one
-- transaction. The row carries the game as it was at the event (position text, clock, result),
-- so the mails show that moment however far the game has moved on before they are composed.
CREATE TABLE game_events (
    id BIGSERIAL PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    ply INTEGER NOT NULL,
    actor_id BIGINT,
    seat INTEGER,
    departure TEXT,
    status TEXT NOT NULL,
    to_move INTEGER,
    deadline_at TIMESTAMP,
    result TEXT,
    result_reason TEXT,
    position TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
-- The worker takes a game's events in order.
CREATE INDEX game_events_game ON game_events (game_id, id);
