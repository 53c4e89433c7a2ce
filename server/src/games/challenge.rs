//! Challenges: create, accept, decline.
//!
//! Built-in bots (`crate::bots`) accept in the creating transaction; a challenge in which
//! everyone but the creator is a bot starts at once, and one naming bots only is refused.
//! A seat named `open` ([`OPEN_SEAT`]) is posted for anyone to take ([`super::open_seats`]);
//! the game starts when every seat is filled and accepted. One account may have only so many
//! bot games at once (a setting, [`BotGamesCap`]), so that no one keeps the bots busy for
//! everyone else.
//!
//! Expiry is lazy: nothing rewrites an unanswered challenge after seven days. Every read shows
//! it as `cancelled` (reason `expired`) from then on ([`super::shown_status`]), listings filter
//! on `expires_at`, and accepting or declining it is refused. So no sweep is needed, and
//! several server instances cannot disagree about it.

use turnpost_shared::api::{CreateGameRequest, GameView, OPEN_SEAT};
use turnpost_shared::play::{ClockSpec, OnLeave, TimeoutMode};
use turnpost_shared::AnyGame;

use super::event::{self as events, GameEvent};
use super::{frame, options, view, Actor, GameError, GameStatus, GameWithSeats, ResultReason};
use crate::db::accounts::Account;
use crate::db::games::{self as q, GameSeat, NewGame};
use crate::db::{self, accounts, bots, open_seats, rematches, DbConnection, DbError};

/// A challenge the service would create, as [`check`] found it: options, seats and clock
/// read, every named player found. Refusals come before any effect, so a channel can charge
/// its limits between [`check`] and [`create`] for challenges that can be made only.
#[derive(Debug)]
pub struct Challenge {
    start: AnyGame,
    names: Vec<String>,
    clock: String,
    timeout: TimeoutMode,
    on_leave: OnLeave,
    challenger: String,
    recipients: Vec<String>,
    rematch_of: Option<i64>,
    with_bots: bool,
    bot_games_cap: BotGamesCap,
    rated: bool,
}

/// The most games against built-in bots one account may have at once: games being played and
/// challenges not yet accepted, in which it holds a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotGamesCap(pub u32);

impl Challenge {
    /// The name key of the player making the challenge.
    #[must_use]
    pub fn challenger(&self) -> &str {
        &self.challenger
    }

    /// The name keys of the persons challenged: every seat but the challenger's and the
    /// bots', each once.
    #[must_use]
    pub fn recipients(&self) -> &[String] {
        &self.recipients
    }

    /// Makes this challenge the rematch of finished game `game_id` (recorded as it is
    /// created: a game has one rematch).
    pub fn rematch_of(&mut self, game_id: i64) {
        self.rematch_of = Some(game_id);
    }
}

/// Checks a challenge without making it: everything [`create`] would refuse is refused here.
///
/// # Errors
/// [`GameError::InvalidOptions`] (naming the key; also `on_leave` `bot` with two seats),
/// `SeatCount`, `UnknownPlayer`, `DuplicatePlayer`, `CreatorNotSeated`, `BotsOnly`,
/// `InvalidClock`, `OpenChallengesLimit` (an open seat posted while the caller has [`OPEN_CHALLENGES_CAP`]
/// waiting), `BotGamesLimit` (a bot seated while the caller has `bot_games_cap` bot
/// games), `InvalidOptions` for `rated: true` with an option its kind marks unrated; storage
/// failures.
pub fn check(
    conn: &mut DbConnection,
    actor: &Actor,
    request: &CreateGameRequest,
    bot_games_cap: BotGamesCap,
) -> Result<Challenge, GameError> {
    // A name given twice is refused first: it says more than a seat count would.
    let names: Vec<String> = request
        .seats
        .iter()
        .map(|n| n.trim().to_ascii_lowercase())
        .collect();
    for (i, name) in names.iter().enumerate() {
        if name != OPEN_SEAT && names[..i].contains(name) {
            return Err(GameError::DuplicatePlayer { name: name.clone() });
        }
    }
    let start = options::start_position(request.kind, &request.options, request.seats.len())?;
    let seat_count = usize::from(start.seat_count());
    if request.seats.len() != seat_count {
        return Err(GameError::SeatCount(format!(
            "{} with options `{}` has {seat_count} seats, but {} player names were given",
            start.kind(),
            super::dice::without_seed(&start.options()),
            request.seats.len()
        )));
    }
    let clock = match request.clock.as_deref() {
        None => ClockSpec::default(),
        Some(text) => text
            .parse::<ClockSpec>()
            .map_err(|e| GameError::InvalidClock(e.to_string()))?,
    }
    .to_string();
    let timeout = request.timeout.unwrap_or_default();
    let on_leave = request.on_leave.unwrap_or_default();
    if on_leave == OnLeave::Bot && seat_count < 3 {
        return Err(GameError::InvalidOptions(format!(
            "on_leave `bot` is for games of three or more seats; this one has {seat_count}, \
             where a player leaving ends the game"
        )));
    }
    let (me, players) = frame::read(conn, |conn| seated_players(conn, actor, &names))?;
    let with_bots = players.iter().flatten().any(Account::is_bot);
    let rated = super::rating::decide(start.kind(), &start.options(), request.rated, with_bots)?;
    if with_bots {
        frame::read(conn, |conn| within_bot_games_cap(conn, &me, bot_games_cap))?;
    }
    if names.iter().any(|name| name == OPEN_SEAT) {
        frame::read(conn, |conn| within_open_challenges_cap(conn, &me))?;
    }
    let recipients = players
        .iter()
        .flatten()
        .filter(|p| p.id != me.id && !p.is_bot())
        .map(|p| p.name_key.clone())
        .collect();
    Ok(Challenge {
        start,
        names,
        clock,
        timeout,
        on_leave,
        challenger: me.name_key,
        recipients,
        rematch_of: None,
        with_bots,
        bot_games_cap,
        rated,
    })
}

/// The most challenges with an open seat one account may have waiting at once.
pub const OPEN_CHALLENGES_CAP: u32 = 5;

/// Refuses a new open challenge to `me` when it has [`OPEN_CHALLENGES_CAP`] waiting.
fn within_open_challenges_cap(conn: &mut DbConnection, me: &Account) -> Result<(), GameError> {
    let made_after = super::expired_before(db::now());
    if crate::db::open_seats::waiting_of(conn, me.id, made_after)? >= i64::from(OPEN_CHALLENGES_CAP)
    {
        return Err(GameError::OpenChallengesLimit {
            cap: OPEN_CHALLENGES_CAP,
        });
    }
    Ok(())
}

/// Refuses a new bot game to `me` when it has as many as `cap` allows.
pub(super) fn within_bot_games_cap(
    conn: &mut DbConnection,
    me: &Account,
    cap: BotGamesCap,
) -> Result<(), GameError> {
    let open_since = super::expired_before(db::now());
    if bots::bot_games_of(conn, me.id, open_since)? >= i64::from(cap.0) {
        return Err(GameError::BotGamesLimit { cap: cap.0 });
    }
    Ok(())
}

/// The caller's account and the accounts named for the seats, in seat order (none for a seat
/// posted open).
fn seated_players(
    conn: &mut DbConnection,
    actor: &Actor,
    names: &[String],
) -> Result<(Account, Vec<Option<Account>>), GameError> {
    let me = accounts::by_id(conn, actor.account_id())?.ok_or_else(|| {
        DbError::Corrupt(format!(
            "account {} acts but does not exist",
            actor.account_id()
        ))
    })?;
    if !names.contains(&me.name_key) {
        if all_bots(conn, names)? {
            return Err(GameError::BotsOnly {
                names: names.join(", "),
            });
        }
        return Err(GameError::CreatorNotSeated { name: me.name });
    }
    let mut players = Vec::with_capacity(names.len());
    for name in names {
        if name == OPEN_SEAT {
            players.push(None);
            continue;
        }
        match accounts::by_name_key(conn, name)? {
            Some(account) if account.verified_at.is_some() => players.push(Some(account)),
            _ => return Err(GameError::UnknownPlayer { name: name.clone() }),
        }
    }
    Ok((me, players))
}

/// Creates a checked challenge; the caller's seat is accepted at once, and every other player
/// is mailed. The players are looked up again in the creating transaction.
///
/// # Errors
/// [`GameError::UnknownPlayer`] when a player went away since [`check`];
/// [`GameError::BotGamesLimit`] when another challenge of the caller's took its last bot game
/// since; [`GameError::OpenChallengesLimit`] likewise for open challenges; storage failures.
pub fn create(
    conn: &mut DbConnection,
    actor: &Actor,
    challenge: &Challenge,
) -> Result<GameView, GameError> {
    let Challenge {
        start,
        names,
        clock,
        timeout,
        on_leave,
        rematch_of,
        with_bots,
        bot_games_cap,
        rated,
        ..
    } = challenge;
    let options_text = start.options().to_string();
    let position = start.position_text();
    let kind = start.kind();
    let game_id = frame::write(conn, |conn| -> Result<i64, GameError> {
        let (me, players) = seated_players(conn, actor, names)?;
        let posts_open = names.iter().any(|name| name == OPEN_SEAT);
        if *with_bots || posts_open {
            // Counted again under the account's lock: two challenges at once get one game.
            bots::lock_bot_games_of(conn, me.id)?;
        }
        if *with_bots {
            within_bot_games_cap(conn, &me, *bot_games_cap)?;
        }
        if posts_open {
            within_open_challenges_cap(conn, &me)?;
        }
        let now = db::now();
        let game = q::insert(
            conn,
            &NewGame {
                kind,
                options: &options_text,
                clock: Some(clock.as_str()),
                timeout_mode: *timeout,
                on_leave: *on_leave,
                status: GameStatus::Invited,
                ply: 0,
                position: &position,
                created_by: me.id,
                created_at: now,
                last_activity_at: now,
                rated: *rated,
            },
        )?;
        let seat_of = |i: usize| i32::try_from(i + 1).unwrap_or(i32::MAX);
        let open: Vec<i32> = players
            .iter()
            .enumerate()
            .filter(|(_, player)| player.is_none())
            .map(|(i, _)| seat_of(i))
            .collect();
        let seats: Vec<GameSeat> = players
            .iter()
            .enumerate()
            .filter_map(|(i, account)| Some((i, account.as_ref()?)))
            .map(|(i, account)| GameSeat {
                game_id: game.id,
                seat: seat_of(i),
                account_id: account.id,
                // Bots accept at once, in this same transaction.
                accepted_at: (account.id == me.id || account.is_bot()).then_some(now),
                bank_seconds: None,
                played_by: None,
                left_ply: None,
            })
            .collect();
        q::insert_seats(conn, &seats)?;
        open_seats::insert(conn, game.id, &open)?;
        if let Some(finished) = rematch_of {
            rematches::insert(conn, *finished, game.id)?;
        }
        let mut loaded = GameWithSeats::load(conn, game.id, true)?;
        if open.is_empty()
            && players
                .iter()
                .flatten()
                .all(|p| p.id == me.id || p.is_bot())
        {
            // Everyone else is a bot: the game starts now.
            start_game(conn, &mut loaded, &me, now)?;
        } else {
            events::record(conn, &loaded, GameEvent::Challenged { by: me.id })?;
        }
        Ok(game.id)
    })?;
    frame::read(conn, |conn| {
        view::load_view(conn, game_id, actor.account_id())
    })
}

/// Checks that a locked game is a challenge still waiting for its players.
///
/// # Errors
/// [`GameError::NotAChallenge`], [`GameError::ChallengeExpired`].
pub(super) fn require_open(loaded: &GameWithSeats) -> Result<(), GameError> {
    let game = &loaded.game;
    if game.status != GameStatus::Invited {
        return Err(GameError::NotAChallenge {
            game_id: game.id,
            status: game.status,
        });
    }
    if super::expires_at(game) <= db::now() {
        return Err(GameError::ChallengeExpired { game_id: game.id });
    }
    Ok(())
}

/// Accepts a seat; when it is the last one, the game starts. Accepting twice answers the same.
///
/// # Errors
/// [`GameError::NotFound`], `NotYourGame`, `NotAChallenge`, `ChallengeExpired`; `BadMessage`
/// for a `message` too long (nothing done); storage failures.
pub fn accept(
    conn: &mut DbConnection,
    actor: &Actor,
    game_id: i64,
    message: Option<&str>,
) -> Result<GameView, GameError> {
    let message = super::messages::cleaned(message)?;
    frame::with_locked_game(conn, game_id, |conn, loaded| {
        let (seat, me) = loaded.require_seat(actor)?;
        let me = me.clone();
        let already = loaded
            .seats
            .iter()
            .any(|(s, _)| s.seat == seat && s.accepted_at.is_some());
        if already && loaded.game.status == GameStatus::Active {
            return Ok(view::view_of(conn, loaded, me.id)?);
        }
        require_open(loaded)?;
        let now = db::now();
        if !already {
            super::messages::record(
                conn,
                loaded,
                (seat, me.id),
                loaded.game.ply,
                turnpost_shared::api::MessageAction::Accept,
                message.as_deref(),
            )?;
            q::accept_seat(conn, game_id, seat, now)?;
            for (s, _) in &mut loaded.seats {
                if s.seat == seat {
                    s.accepted_at = Some(now);
                }
            }
        }
        if loaded.vacant_seats().is_empty()
            && loaded.seats.iter().all(|(s, _)| s.accepted_at.is_some())
        {
            start_game(conn, loaded, &me, now)?;
        } else {
            let mut state = loaded.game.state();
            state.last_activity_at = now;
            loaded.save(conn, state)?;
            if !already {
                events::record(conn, loaded, GameEvent::Accepted { by: me.id })?;
            }
        }
        Ok(view::view_of(conn, loaded, me.id)?)
    })
}

/// Starts a locked challenge whose seats have all accepted: status from the engine, clocks,
/// and the mails saying it started (`by` accepted last).
///
/// # Errors
/// Storage failures; an unreadable stored position.
pub(super) fn start_game(
    conn: &mut DbConnection,
    loaded: &mut GameWithSeats,
    by: &Account,
    now: chrono::NaiveDateTime,
) -> Result<(), GameError> {
    let mut state = loaded.game.state();
    state.last_activity_at = now;
    // The dice seed is drawn now, when no player can withdraw any more.
    if let Some((options, start)) = super::dice::draw(&loaded.game)? {
        let text = options.to_string();
        q::set_options(conn, loaded.game.id, &text)?;
        loaded.game.options = text;
        loaded.game.position = start.position_text();
        state.position = loaded.game.position.clone();
    }
    let engine = super::engine(&loaded.game)?;
    let (status, result, to_move) = super::status_columns(&engine.status());
    state.status = status;
    state.result = result;
    state.to_move = to_move;
    state.started_at = Some(now);
    super::clock::start(conn, loaded, &mut state, now)?;
    loaded.save_and_record(conn, state, GameEvent::Started { by: by.id })?;
    Ok(())
}

/// Whether every name is a built-in bot's.
fn all_bots(conn: &mut DbConnection, names: &[String]) -> Result<bool, DbError> {
    for name in names {
        if !accounts::by_name_key(conn, name)?.is_some_and(|a| a.is_bot()) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Declines (or, for the challenger, withdraws) a challenge: it is cancelled.
///
/// # Errors
/// [`GameError::NotFound`], `NotYourGame`, `NotAChallenge`, `ChallengeExpired`; storage
/// failures.
pub fn decline(
    conn: &mut DbConnection,
    actor: &Actor,
    game_id: i64,
) -> Result<GameView, GameError> {
    frame::with_locked_game(conn, game_id, |conn, loaded| {
        let me = loaded.require_seat(actor)?.1.clone();
        require_open(loaded)?;
        let now = db::now();
        let mut state = loaded.game.state();
        state.status = GameStatus::Cancelled;
        state.result_reason = Some(ResultReason::Declined);
        state.finished_at = Some(now);
        state.last_activity_at = now;
        loaded.save_and_record(conn, state, GameEvent::Declined { by: me.id })?;
        Ok(view::view_of(conn, loaded, me.id)?)
    })
}
