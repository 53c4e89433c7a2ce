//! The bot worker that runs beside the HTTP server in every process: one task reads what waits
//! for the bots every interval and hands it to the lanes ([`Lane`]); each lane's threads take
//! from its [`FairQueue`] (round-robin across accounts, oldest first), claim, think and play.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::{watch, Notify};
use turnpost_shared::api::{DrawAction, PlayMoveRequest};
use turnpost_shared::bot::BotLevel;
use turnpost_shared::play::PositionHistory;
use turnpost_shared::AnyGame;

use super::fair_queue::{FairQueue, JobKey, Queued};
use super::lane::Lane;
use super::try_claim;
use crate::db::bots::{self as q, BotSeat};
use crate::db::{self, DbConnection, Pool};
use crate::games::{self, ending, moving, Actor, GameError, GameStatus};
use crate::mail_context::MailContext;
use crate::worker_threads::idle_priority::Background;

/// A bot accepts a draw offer when its own chances, as its search sees them, are below this.
pub const DRAW_ACCEPT_BELOW: f64 = 0.1;

/// How many waiting games one read looks at per lane (and as many draw offers): with a few
/// bot games per account, hundreds of accounts' moves.
const BATCH: i64 = 500;

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

/// Something a bot has to do: move, or answer a draw offer.
#[derive(Debug, Clone, Copy)]
struct Job {
    seat: BotSeat,
    draw: bool,
}

impl Queued for Job {
    fn key(&self) -> JobKey {
        (self.seat.game_id, self.seat.ply, self.draw)
    }
    fn owner(&self) -> i64 {
        self.seat.owner
    }
    fn since(&self) -> chrono::NaiveDateTime {
        self.seat.since
    }
}

/// One lane: its queue, the signal that the queue changed, and its low-priority threads.
struct LaneWork {
    lane: Lane,
    queue: Mutex<FairQueue<Job>>,
    ready: Notify,
    threads: Vec<Arc<Background>>,
}

impl LaneWork {
    fn queue(&self) -> std::sync::MutexGuard<'_, FairQueue<Job>> {
        // The queue's state stays consistent between its calls, so a panic elsewhere while it
        // was held leaves nothing half done.
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next job, waiting for one; `None` at shutdown.
    async fn next(&self, shutdown: &mut watch::Receiver<bool>) -> Option<Job> {
        loop {
            let ready = self.ready.notified();
            tokio::pin!(ready);
            ready.as_mut().enable();
            if *shutdown.borrow() {
                return None;
            }
            if let Some(job) = self.queue().take() {
                return Some(job);
            }
            tokio::select! {
                () = &mut ready => {}
                changed = shutdown.changed() => {
                    if changed.is_err() {
                        return None;
                    }
                }
            }
        }
    }
}

/// Plays the bots' moves, looking for them every `interval`, until shutdown.
#[derive(Clone)]
pub struct BotWorker {
    pool: Pool,
    mail: MailContext,
    interval: Duration,
    lanes: Arc<[Arc<LaneWork>]>,
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
    /// Starts the thinking threads: for each lane, as many as [`Lane::threads`] gives for this
    /// machine's cores.
    ///
    /// # Errors
    /// The operating system refused a new thread.
    pub fn start(pool: Pool, mail: MailContext, interval: Duration) -> std::io::Result<Self> {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let mut lanes = Vec::new();
        for lane in Lane::ALL {
            let name = match lane {
                Lane::Quick => "turnpost-bots-quick",
                Lane::Deep => "turnpost-bots-deep",
            };
            let threads = (0..lane.threads(cores))
                .map(|_| Background::start(name).map(Arc::new))
                .collect::<std::io::Result<Vec<_>>>()?;
            lanes.push(Arc::new(LaneWork {
                lane,
                queue: Mutex::new(FairQueue::default()),
                ready: Notify::new(),
                threads,
            }));
        }
        tracing::debug!(cores, "bot lanes started");
        Ok(Self {
            pool,
            mail,
            interval,
            lanes: lanes.into(),
        })
    }

    /// Reads what waits every interval and hands it to the lanes, whose threads act on it,
    /// until shutdown.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        let mut thinkers = Vec::new();
        for lane in self.lanes.iter() {
            for thread in &lane.threads {
                let worker = self.clone();
                let lane = lane.clone();
                let thread = thread.clone();
                let shutdown = shutdown.clone();
                thinkers.push(tokio::spawn(async move {
                    worker.think(&lane, &thread, shutdown).await;
                }));
            }
        }
        loop {
            if *shutdown.borrow() {
                break;
            }
            if let Err(error) = self.read_waiting().await {
                tracing::error!(%error, "reading the bots' waiting games failed; retrying");
            }
            tokio::select! {
                () = tokio::time::sleep(self.interval) => {}
                changed = shutdown.changed() => {
                    if changed.is_err() {
                        break;
                    }
                }
            }
        }
        for lane in self.lanes.iter() {
            lane.ready.notify_waiters();
        }
        for thinker in thinkers {
            if let Err(error) = thinker.await {
                tracing::error!(%error, "a bot thinker failed");
            }
        }
        tracing::info!("bot worker stopped");
    }

    /// Reads the turns and draw offers waiting for a bot, and hands each lane its share.
    async fn read_waiting(&self) -> Result<(), TurnError> {
        let began = Instant::now();
        let lanes: Vec<Lane> = self.lanes.iter().map(|lane| lane.lane).collect();
        let (turns, offers) = self
            .with_conn(move |conn, _| {
                let turns = lanes
                    .into_iter()
                    .map(|lane| q::turns_waiting(conn, lane.levels(), BATCH))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok((turns, q::draw_offers_waiting(conn, BATCH)?))
            })
            .await?;
        for (lane, seats) in self.lanes.iter().zip(turns) {
            let mut jobs: Vec<Job> = seats
                .into_iter()
                .map(|seat| Job { seat, draw: false })
                .collect();
            // Answering a draw offer is a level-1 search: quick.
            if lane.lane == Lane::Quick {
                jobs.extend(offers.iter().map(|&seat| Job { seat, draw: true }));
            }
            lane.queue().replace(jobs, began);
            lane.ready.notify_waiters();
        }
        Ok(())
    }

    /// One thinking thread's loop: take a job from the lane, act on it, mark it done.
    async fn think(
        &self,
        lane: &LaneWork,
        thread: &Background,
        mut shutdown: watch::Receiver<bool>,
    ) {
        while let Some(job) = lane.next(&mut shutdown).await {
            let outcome = if job.draw {
                self.answer_draw(job.seat, thread).await
            } else {
                self.play_turn(job.seat, thread).await
            };
            if let Err(error) = outcome {
                log_dropped(job.seat, &error);
            }
            lane.queue().finish(job.key(), Instant::now());
        }
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

    /// The position of `seat`'s game, as its players know it, if it is still running at the
    /// ply read; with its history where positions can recur (the bot knows the draw by
    /// repetition).
    fn current_position(
        conn: &mut DbConnection,
        seat: BotSeat,
    ) -> Result<Option<(AnyGame, Option<PositionHistory>)>, TurnError> {
        let Some(game) = db::games::find(conn, seat.game_id)? else {
            return Ok(None);
        };
        if game.status != GameStatus::Active || game.ply != seat.ply {
            return Ok(None);
        }
        // What a player in the seat knows: no dice seed (invariant 7); the moves are public.
        let history = games::length::history(conn, &game)?;
        Ok(Some((games::player_view(&game)?, history)))
    }

    /// Claims, computes and plays one bot move; `false` if another process has it or the game
    /// moved on.
    async fn play_turn(&self, turn: BotSeat, thread: &Background) -> Result<bool, TurnError> {
        let claimed = self
            .with_conn(move |conn, _| Ok(try_claim(conn, turn.game_id, turn.ply, db::now())?))
            .await?;
        if !claimed {
            return Ok(false);
        }
        let outcome = self.think_and_play(turn, thread).await;
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
    async fn think_and_play(&self, turn: BotSeat, thread: &Background) -> Result<bool, TurnError> {
        let position = self
            .with_conn(move |conn, _| Self::current_position(conn, turn))
            .await?;
        let Some((position, history)) = position else {
            return Ok(false);
        };
        let level = level_of(&turn);
        let seed = move_seed(turn.game_id, turn.ply);
        let thinking = std::time::Instant::now();
        let chosen = thread
            .run(move || match &history {
                Some(history) => {
                    turnpost_shared::bot::analyse_knowing(&position, history, level, seed)
                        .map(|choice| choice.mv)
                }
                None => turnpost_shared::bot::choose_move(&position, level, seed),
            })
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
            message: None,
        };
        let actor = Actor::Bot {
            account_id: turn.account_id,
        };
        self.with_conn(move |conn, _| {
            match moving::play(conn, &actor, turn.game_id, &request) {
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
    async fn answer_draw(&self, offer: BotSeat, thread: &Background) -> Result<bool, TurnError> {
        let position = self
            .with_conn(move |conn, _| Self::current_position(conn, offer))
            .await?;
        let Some((position, _)) = position else {
            return Ok(false);
        };
        let seed = move_seed(offer.game_id, offer.ply);
        let values = thread
            .run(move || turnpost_shared::bot::analyse(&position, BotLevel::MIN, seed))
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
        self.with_conn(move |conn, _| {
            match ending::draw(conn, &actor, offer.game_id, action, None) {
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
            owner: 4,
            since: chrono::NaiveDateTime::default(),
        };
        assert_eq!(level_of(&seat(Some(1))).number(), 1);
        assert_eq!(level_of(&seat(Some(5))).number(), 5);
        assert_eq!(level_of(&seat(None)), BotLevel::DEFAULT);
        assert_eq!(level_of(&seat(Some(9))), BotLevel::DEFAULT);
    }
}
