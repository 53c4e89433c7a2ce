-- Ratings (issue 27): whether a game counts for ratings (decided with the challenge), and one
-- history row per rated player per rated game: the rating before and after it. A player's
-- current rating in a rating kind is the `after` of their last row (none: a new player).
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
CREATE TABLE rating_history (
    id BIGSERIAL PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    rating_kind TEXT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    rating_before DOUBLE PRECISION NOT NULL,
    deviation_before DOUBLE PRECISION NOT NULL,
    volatility_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    deviation_after DOUBLE PRECISION NOT NULL,
    volatility_after DOUBLE PRECISION NOT NULL,
    rated_at TIMESTAMP NOT NULL,
    UNIQUE (game_id, account_id)
);
CREATE INDEX rating_history_by_kind ON rating_history (rating_kind, account_id, id);
