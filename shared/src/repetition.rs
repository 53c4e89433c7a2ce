//! Games that repeat end (invariant 12): a draw by threefold repetition and a move limit, the
//! same for the server, the CLI and the bots. The engines are pure positions and know no
//! history; [`PositionHistory`] is the history, built by replaying a game's record.
//!
//! - **Repetition**: when a move makes a position stand for the third time in the game, the
//!   game ends at once, drawn (no claim: in correspondence play nobody should have to watch for
//!   it). "The same position" is the same position text: board, seat to move and whatever else
//!   the text holds because the rules depend on it (SanQi's ko cell, the seats that left a
//!   Chinese Checkers game). Kechi's positions never recur ([`crate::Game::POSITIONS_RECUR`]).
//! - **Move limit**: the move that reaches the variant's limit ([`crate::Game::move_limit`])
//!   ends the game drawn, unless the rules ended it.
//!
//! With three or more seats, either ending is a draw among the seats still playing.

use std::collections::HashMap;

use crate::result_reason::ResultReason;

/// The move limit of a variant that does not set its own: ten times a long game of Kefren or
/// SanQi (fewer than 100 moves), and more than any Kechi game can last.
pub const DEFAULT_MOVE_LIMIT: u32 = 1000;

/// How many times a position stands when the game ends drawn by repetition.
pub const REPETITIONS: u8 = 3;

/// Why the length rules ended a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LengthEnding {
    /// A position stood for the third time.
    Repetition,
    /// The game reached its move limit.
    MoveLimit,
}

impl LengthEnding {
    /// The result reason the server stores.
    #[must_use]
    pub fn reason(self) -> ResultReason {
        match self {
            Self::Repetition => ResultReason::Repetition,
            Self::MoveLimit => ResultReason::MoveLimit,
        }
    }
}

/// The key of a position: a 64-bit FNV-1a hash of its position text (stable across runs and
/// machines; a false match among a game's at most few thousand positions has odds below 10⁻¹³).
#[must_use]
pub fn position_key(position_text: &str) -> u64 {
    position_text
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

/// The positions a game has stood in, counted, and the number of moves played: what the
/// length rules need. Build it with [`PositionHistory::of_record`] (or
/// [`PositionHistory::replay`]), then tell it each new move ([`PositionHistory::after_line`]).
#[derive(Clone, Debug)]
pub struct PositionHistory {
    /// How many times each position (by [`position_key`]) has stood; empty for kinds whose
    /// positions never recur.
    seen: HashMap<u64, u8>,
    /// The key of the latest position.
    last: u64,
    /// Moves played (forced passes included, departures not).
    moves: u32,
    limit: u32,
    recur: bool,
    /// The first ending reached, kept once reached.
    ended: Option<LengthEnding>,
}

impl PositionHistory {
    /// The history of a game standing at a position whose text is `position_text`, its
    /// positions recurring or not (`recur`), its move limit `limit`.
    #[must_use]
    pub fn starting(recur: bool, limit: u32, position_text: &str) -> Self {
        let mut history = Self {
            seen: HashMap::new(),
            last: 0,
            moves: 0,
            limit,
            recur,
            ended: None,
        };
        if recur {
            history.stand(position_key(position_text));
        }
        history
    }

    /// Counts `moves` moves played before the history starts (a position set up from its
    /// text).
    pub fn set_moves(&mut self, moves: u32) {
        self.moves = moves;
    }

    /// Takes in a record line just played: a departure or a move (`departure`), which left the
    /// position whose text is `position_text`, the game over by its rules or not (`over`);
    /// answers the ending it reached, if this line reached one (a game the rules ended is not
    /// ended again). A departure is not a move: it counts no move, and the position it leaves
    /// counts only if it changed (a bot taking a seat over does not).
    pub fn after(
        &mut self,
        departure: bool,
        position_text: &str,
        over: bool,
    ) -> Option<LengthEnding> {
        if !departure {
            self.count_move();
        }
        let mut ending = None;
        if self.recur {
            let key = position_key(position_text);
            let stands = (!departure || key != self.last).then(|| self.stand(key));
            if stands.is_some_and(|times| times >= REPETITIONS) {
                ending = Some(LengthEnding::Repetition);
            }
        }
        if ending.is_none() && !departure && self.moves >= self.limit {
            ending = Some(LengthEnding::MoveLimit);
        }
        if over {
            return None;
        }
        if self.ended.is_none() {
            self.ended = ending;
            return ending;
        }
        None
    }

    /// Counts one move without a position (a kind whose positions never recur).
    pub fn count_move(&mut self) {
        self.moves = self.moves.saturating_add(1);
    }

    /// The first ending the game reached, if any.
    #[must_use]
    pub fn ending(&self) -> Option<LengthEnding> {
        self.ended
    }

    /// Moves played (forced passes included, departures not).
    #[must_use]
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// The move limit of the game.
    #[must_use]
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// How many times the position whose text is `position_text` has stood in the game.
    #[must_use]
    pub fn times_stood(&self, position_text: &str) -> u8 {
        self.times_stood_key(position_key(position_text))
    }

    /// As [`PositionHistory::times_stood`], by key.
    #[must_use]
    pub fn times_stood_key(&self, key: u64) -> u8 {
        self.seen.get(&key).copied().unwrap_or(0)
    }

    /// Whether a move leading to the position whose text is `position_text` ends the game by
    /// repetition (the position has stood twice already). What a bot checks before it moves.
    #[must_use]
    pub fn completes_repetition(&self, position_text: &str) -> bool {
        self.recur && self.times_stood(position_text) + 1 >= REPETITIONS
    }

    /// Whether the next move ends the game by the move limit (unless its rules end it).
    #[must_use]
    pub fn next_move_reaches_limit(&self) -> bool {
        self.moves + 1 >= self.limit
    }

    /// One more standing of the position `key`; answers how many times it has stood.
    fn stand(&mut self, key: u64) -> u8 {
        self.last = key;
        let count = self.seen.entry(key).or_insert(0);
        *count = count.saturating_add(1);
        *count
    }
}
