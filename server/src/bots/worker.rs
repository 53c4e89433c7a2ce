//! The bot worker that runs beside the HTTP server in every process.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use turnpost_shared::{AnyGame, BotLevel, DrawAction, PlayMoveRequest};

use super::try_claim;
use crate::background::Background;
use crate::db::bots::{self as q, BotSeat};
use crate::db::{self, DbConnection, Pool};
use crate::games::{self, ending, moving, Actor, GameError, GameStatus};
use crate::mail_context::MailContext;

/// A bot accepts a draw offer when its own chances, as its search sees them, are below this.
pub const DRAW_ACCEPT_BELOW: f64 = 0.1;

/// How many waiting games one round looks at.
const BATCH: i64 = 16;

/// The seed of the bot's search for the move at `ply` of `game_id`: the same position gets
/// the same move, whichever process computes it.
#[must_use]
pub fn move_seed(game_id: i64, ply: i32) -> u64 {
    let game = u64::from_ne_bytes(game_id.to_ne_bytes());
    let ply = u64::from(u32::from_ne_bytes(ply.to_ne_bytes()));
    game.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ply.wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// The level a bot account plays at.
fn level_of(seat: &BotSeat) -> BotLevel {
    seat.level
        .and_then(|n| u8::try_from(n).ok())
        .and_then(BotLevel::new)
        .unwrap_or(BotLevel::DEFAULT)
}

/// Plays the bots' moves every `interval` until shutdown.
#[derive(Clone)]
pub struct BotWorker {
    /// Database.
    pub pool: Pool,
    /// For the mails the moves queue.
    pub mail: MailContext,
    /// Time between rounds when there was nothing to do.
    pub interval: Duration,
    /// The one low-priority thread the bots think on.
    pub thinker: Arc<Background>,
}

/// Why a bot's turn was not played; logged, and the next round looks again.
#[derive(Debug, thiserror::Error)]
enum TurnError {
    #[error(transparent)]
    Game(#[from] GameError),
    #[error(transparent)]
    Db(#[from] db::DbError),
    #[error("the bot's task failed: {0}")]
    Task(String),
}

impl BotWorker {
    /// Starts the thinking thread.
    ///
    /// # Errors
    /// The operating system refused a new thread.
    pub fn start(pool: Pool, mail: MailContext, interval: Duration) -> std::io::Result<Self> {
        Ok(Self {
            pool,
            mail,
            interval,
            thinker: Arc::new(Background::start("turnpost-bots")?),
        })
    }

    /// The loop.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        loop {
            if *shutdown.borrow() {
                break;
            }
            let busy = match self.round(&shutdown).await {
                Ok(played) => played > 0,
                Err(error) => {
                    tracing::error!(%error, "bot round failed; retrying");
                    false
                }
            };
            if !busy {
                tokio::select! {
                    () = tokio::time::sleep(self.interval) => {}
                    _ = shutdown.changed() => {}
                }
            }
        }
        tracing::info!("bot worker stopped");
    }

    /// Runs `work` with a pooled connection on the blocking pool.
    async fn with_conn<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut DbConnection, &MailContext) -> Result<T, TurnError> + Send + 'static,
    ) -> Result<T, TurnError> {
        let pool = self.pool.clone();
        let mail = self.mail.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = pool.get().map_err(db::DbError::from)?;
            work(&mut conn, &mail)
        })
        .await
        .map_err(|e| TurnError::Task(e.to_string()))?
    }

    /// Answers waiting draw offers, then plays waiting turns; how many things it did.
    async fn round(&self, shutdown: &watch::Receiver<bool>) -> Result<usize, TurnError> {
        let (offers, turns) = self
            .with_conn(|conn, _| {
                Ok((
                    q::draw_offers_waiting(conn, BATCH)?,
                    q::turns_waiting(conn, BATCH)?,
                ))
            })
            .await?;
        let mut done = 0;
        for offer in offers {
            if *shutdown.borrow() {
                return Ok(done);
            }
            match self.answer_draw(offer).await {
                Ok(true) => done += 1,
                Ok(false) => {}
                Err(error) => log_dropped(offer, &error),
            }
        }
        for turn in turns {
            if *shutdown.borrow() {
                return Ok(done);
            }
            match self.play_turn(turn).await {
                Ok(true) => done += 1,
                Ok(false) => {}
                Err(error) => log_dropped(turn, &error),
            }
        }
        Ok(done)
    }

    /// The position of `seat`'s game, as its players know it, if it is still running at the
    /// ply read.
    fn current_position(
        conn: &mut DbConnection,
        seat: BotSeat,
    ) -> Result<Option<AnyGame>, TurnError> {
        let Some(game) = db::games::find(conn, seat.game_id)? else {
            return Ok(None);
        };
        if game.status != GameStatus::Active || game.ply != seat.ply {
            return Ok(None);
        }
        // What a player in the seat knows: no dice seed (invariant 7).
        Ok(Some(games::player_view(&game)?))
    }

    /// Claims, computes and plays one bot move; `false` if another process has it or the game
    /// moved on.
    async fn play_turn(&self, turn: BotSeat) -> Result<bool, TurnError> {
        let claimed = self
            .with_conn(move |conn, _| Ok(try_claim(conn, turn.game_id, turn.ply, db::now())?))
            .await?;
        if !claimed {
            return Ok(false);
        }
        let outcome = self.think_and_play(turn).await;
        if outcome.is_err() {
            // Let the next round try again rather than wait for the claim to expire.
            let released = self
                .with_conn(move |conn, _| Ok(q::delete_claim(conn, turn.game_id, turn.ply)?))
                .await;
            if let Err(error) = released {
                tracing::warn!(%error, "could not release a bot claim; it will expire");
            }
        }
        outcome
    }

    /// Computes and plays the claimed move; `false` if the game moved on.
    async fn think_and_play(&self, turn: BotSeat) -> Result<bool, TurnError> {
        let position = self
            .with_conn(move |conn, _| Self::current_position(conn, turn))
            .await?;
        let Some(position) = position else {
            return Ok(false);
        };
        let level = level_of(&turn);
        let seed = move_seed(turn.game_id, turn.ply);
        let thinking = std::time::Instant::now();
        let chosen = self
            .thinker
            .run(move || turnpost_shared::choose_move(&position, level, seed))
            .await
            .ok_or_else(|| TurnError::Task("the bot thread is gone".to_owned()))?;
        let notation = match chosen {
            Ok(notation) => notation,
            // The game is over for the engine (e.g. ended by a departure): nothing to play.
            Err(error) => {
                tracing::debug!(game = turn.game_id, %error, "bot has no move");
                return Ok(false);
            }
        };
        let request = PlayMoveRequest {
            notation,
            ply: u32::try_from(turn.ply).unwrap_or_default(),
        };
        let actor = Actor::Bot {
            account_id: turn.account_id,
        };
        self.with_conn(move |conn, ctx| {
            match moving::play(conn, ctx, &actor, turn.game_id, &request) {
                Ok(_) => {
                    crate::metrics::bot_move(thinking.elapsed());
                    Ok(true)
                }
                // Someone else played, or the game ended meanwhile: the move is dropped.
                Err(
                    GameError::StalePly { .. }
                    | GameError::MoveTaken { .. }
                    | GameError::GameOver { .. }
                    | GameError::NotYourTurn { .. },
                ) => Ok(false),
                Err(error) => Err(error.into()),
            }
        })
        .await
    }

    /// Accepts a draw offer when the bot is clearly losing, declines it otherwise; `false` if
    /// the game moved on or another process answered.
    async fn answer_draw(&self, offer: BotSeat) -> Result<bool, TurnError> {
        let position = self
            .with_conn(move |conn, _| Self::current_position(conn, offer))
            .await?;
        let Some(position) = position else {
            return Ok(false);
        };
        let seed = move_seed(offer.game_id, offer.ply);
        let values = self
            .thinker
            .run(move || turnpost_shared::analyse(&position, BotLevel::MIN, seed))
            .await
            .ok_or_else(|| TurnError::Task("the bot thread is gone".to_owned()))?;
        let own = usize::try_from(offer.seat - 1).unwrap_or_default();
        let losing = values
            .ok()
            .and_then(|choice| choice.values.get(own).copied())
            .is_some_and(|value| value < DRAW_ACCEPT_BELOW);
        let action = if losing {
            DrawAction::Accept
        } else {
            DrawAction::Decline
        };
        let actor = Actor::Bot {
            account_id: offer.account_id,
        };
        self.with_conn(move |conn, ctx| {
            match ending::draw(conn, ctx, &actor, offer.game_id, action) {
                Ok(_) => Ok(true),
                // Answered by another process, withdrawn, or the game ended meanwhile.
                Err(GameError::NoDrawOffer | GameError::NotActive { .. }) => Ok(false),
                Err(error) => Err(error.into()),
            }
        })
        .await
    }
}

fn log_dropped(seat: BotSeat, error: &TurnError) {
    tracing::warn!(game = seat.game_id, ply = seat.ply, %error, "bot could not act; retrying later");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_stable_and_differ_by_game_and_ply() {
        assert_eq!(move_seed(7, 12), move_seed(7, 12));
        assert_ne!(move_seed(7, 12), move_seed(7, 13));
        assert_ne!(move_seed(7, 12), move_seed(8, 12));
        assert_ne!(move_seed(1, 0), move_seed(0, 1));
    }

    #[test]
    fn unknown_levels_play_the_default() {
        let seat = |level| BotSeat {
            game_id: 1,
            ply: 0,
            seat: 2,
            account_id: 3,
            level,
        };
        assert_eq!(level_of(&seat(Some(1))).number(), 1);
        assert_eq!(level_of(&seat(Some(5))).number(), 5);
        assert_eq!(level_of(&seat(None)), BotLevel::DEFAULT);
        assert_eq!(level_of(&seat(Some(9))), BotLevel::DEFAULT);
    }
}
