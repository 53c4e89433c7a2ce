//! Open challenges: seats posted open (`open` in a challenge's seats, see [`super::challenge`])
//! that anyone signed in may take ([`join`]) and give up again ([`leave`]) while the
//! challenge waits; [`list`] finds them. The game starts when every seat is filled and
//! accepted. An open challenge lapses after [`super::CHALLENGE_DAYS`] like any other; the
//! sweep [`lapse`] records it and tells the poster that nobody came.

use turnpost_shared::api::GameView;
use turnpost_shared::GameKind;

use super::challenge::{require_open, start_game, BotGamesCap};
use super::event::{self as events, GameEvent};
use super::{frame, view, Actor, GameError, GameStatus, GameWithSeats, ResultReason};
use crate::db::games as q;
use crate::db::games::GameSeat;
use crate::db::{self, accounts, open_seats, DbConnection, DbError};

/// How many open challenges a page of [`list`] holds (newest first), and how many a round of
/// [`lapse`] handles.
pub const LIST_LIMIT: i64 = 50;

/// Takes the first vacant open seat of challenge `game_id` for the actor, accepted at once;
/// when it was the last seat missing and everyone accepted, the game starts. Joining again a
/// seat one took answers the same.
///
/// # Errors
/// [`GameError::NotFound`], `NotAChallenge`, `ChallengeExpired`, `AlreadySeated` (the actor
/// holds another seat of it), `NoOpenSeat`, `BotGamesLimit` (a bot plays in it and the actor
/// has `bot_games_cap` bot games already); storage failures.
pub fn join(
    conn: &mut DbConnection,
    actor: &Actor,
    game_id: i64,
    bot_games_cap: BotGamesCap,
) -> Result<GameView, GameError> {
    frame::with_locked_game(conn, game_id, |conn, loaded| {
        let account_id = actor.account_id();
        if let Some(seat) = loaded.seat_of(account_id) {
            // A retried join answers the same (also once the join started the game); nobody
            // holds two seats.
            let posted = open_seats::posted(conn, game_id)?;
            if posted.contains(&seat) && loaded.game.status != GameStatus::Cancelled {
                return Ok(view::view_of(conn, loaded, account_id)?);
            }
            return Err(GameError::AlreadySeated { game_id, seat });
        }
        require_open(loaded)?;
        let Some(seat) = loaded.vacant_seats().first().copied() else {
            return Err(GameError::NoOpenSeat { game_id });
        };
        let me = accounts::by_id(conn, account_id)?.ok_or_else(|| {
            DbError::Corrupt(format!("account {account_id} acts but does not exist"))
        })?;
        // A bot seated in it makes it a bot game: joining counts as making one (issue 48).
        if loaded.seats.iter().any(|(_, account)| account.is_bot()) {
            super::challenge::within_bot_games_cap(conn, &me, bot_games_cap)?;
        }
        let now = db::now();
        q::insert_seats(
            conn,
            &[GameSeat {
                game_id,
                seat,
                account_id,
                accepted_at: Some(now),
                bank_seconds: None,
                played_by: None,
                left_ply: None,
            }],
        )?;
        // Read again with the new seat and its player's settings.
        *loaded = GameWithSeats::load(conn, game_id, false)?;
        if loaded.vacant_seats().is_empty()
            && loaded.seats.iter().all(|(s, _)| s.accepted_at.is_some())
        {
            start_game(conn, loaded, &me, now)?;
        } else {
            touch(conn, loaded, now)?;
            events::record(conn, loaded, GameEvent::Accepted { by: account_id })?;
        }
        Ok(view::view_of(conn, loaded, account_id)?)
    })
}

/// Gives up the open seat the actor took in challenge `game_id`: the seat is open again.
///
/// # Errors
/// [`GameError::NotFound`], `NotYourGame`, `NotAChallenge`, `ChallengeExpired`,
/// `NotAnOpenSeat` (the actor was named for the seat: decline instead); storage failures.
pub fn leave(conn: &mut DbConnection, actor: &Actor, game_id: i64) -> Result<GameView, GameError> {
    frame::with_locked_game(conn, game_id, |conn, loaded| {
        let seat = loaded.require_seat(actor)?.0;
        require_open(loaded)?;
        if !loaded.posted_open.contains(&seat) {
            return Err(GameError::NotAnOpenSeat { game_id, seat });
        }
        open_seats::vacate(conn, game_id, seat)?;
        *loaded = GameWithSeats::load(conn, game_id, false)?;
        touch(conn, loaded, db::now())?;
        Ok(view::view_of(conn, loaded, actor.account_id())?)
    })
}

/// Records activity on a challenge that goes on waiting.
fn touch(
    conn: &mut DbConnection,
    loaded: &mut GameWithSeats,
    now: chrono::NaiveDateTime,
) -> Result<(), DbError> {
    let mut state = loaded.game.state();
    state.last_activity_at = now;
    loaded.save(conn, state)?;
    Ok(())
}

/// A page of the open challenges: at most [`LIST_LIMIT`], and where the next page starts.
#[derive(Debug, Clone)]
pub struct ChallengePage {
    /// The challenges, newest first, as the viewer sees them.
    pub challenges: Vec<GameView>,
    /// When there are older ones: the `before` of the next page (the last one's id).
    pub next_before: Option<i64>,
}

/// The challenges with a vacant open seat, optionally of one `kind`, newest first, a page
/// ([`LIST_LIMIT`]) at a time: those older than challenge `before` when given; as `viewer`
/// sees them. The lobby's cost stays that of one page however many wait.
///
/// # Errors
/// Storage failures.
pub fn list(
    conn: &mut DbConnection,
    viewer: i64,
    kind: Option<GameKind>,
    before: Option<i64>,
) -> Result<ChallengePage, GameError> {
    frame::read(conn, |conn| {
        // One more than a page: whether there is a next page.
        let mut ids = open_seats::vacant(
            conn,
            kind,
            before,
            super::expired_before(db::now()),
            false,
            LIST_LIMIT + 1,
        )?;
        let page = usize::try_from(LIST_LIMIT).unwrap_or(usize::MAX);
        let more = ids.len() > page;
        ids.truncate(page);
        let mut loaded = GameWithSeats::find_many(conn, &ids)?;
        loaded.sort_by_key(|l| std::cmp::Reverse(l.game.id));
        let challenges = loaded
            .iter()
            .map(|l| Ok(view::view_of(conn, l, viewer)?))
            .collect::<Result<Vec<_>, GameError>>()?;
        let next_before = more.then(|| challenges.last().map(|c| c.id)).flatten();
        Ok(ChallengePage {
            challenges,
            next_before,
        })
    })
}

/// One round of the lapse sweep as of `now`: every open challenge past its time with a seat
/// nobody took is cancelled (reason `expired`) and its poster is told. Answers how many
/// lapsed.
///
/// # Errors
/// Storage failures (the round rolls back).
pub fn lapse(conn: &mut DbConnection, now: chrono::NaiveDateTime) -> Result<usize, DbError> {
    frame::with_locked_games(
        conn,
        |conn| {
            let ids = open_seats::vacant(
                conn,
                None,
                None,
                super::expired_before(now),
                true,
                LIST_LIMIT,
            )?;
            let mut games = Vec::with_capacity(ids.len());
            for id in ids {
                games.extend(q::lock(conn, id)?);
            }
            Ok::<_, DbError>(games)
        },
        |conn, loaded| {
            // Another process may have handled it between the listing and the lock.
            if loaded.game.status != GameStatus::Invited || loaded.vacant_seats().is_empty() {
                return Ok(());
            }
            let mut state = loaded.game.state();
            state.status = GameStatus::Cancelled;
            state.result_reason = Some(ResultReason::Expired);
            state.finished_at = Some(now);
            state.last_activity_at = now;
            loaded.save_and_record(conn, state, GameEvent::Lapsed)?;
            Ok(())
        },
    )
}
