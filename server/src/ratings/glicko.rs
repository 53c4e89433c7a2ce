//! Glicko-2 for two-player games, through the `skillratings` crate with τ = 0.5. Each game is
//! its own rating period (as lichess does); before a game, and whenever a rating is shown, the
//! deviation grows by one rating period per full day without games, up to 350.

use skillratings::glicko2::{self, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use super::rating::{rounded, Rating};

/// The system constant τ.
const TAU: f64 = 0.5;
/// The deviation never grows above a new player's.
const MAX_DEVIATION: f64 = 350.0;

/// A game's result for one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// A win (1).
    Win,
    /// A draw (½).
    Draw,
    /// A loss (0).
    Loss,
}

impl Score {
    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        }
    }
}

fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    }
}

fn to_crate(rating: Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: rating.rating,
        deviation: rating.deviation,
        volatility: rating.volatility,
    }
}

fn from_crate(rating: Glicko2Rating) -> Rating {
    Rating {
        rating: rating.rating,
        deviation: rating.deviation,
        volatility: rating.volatility,
    }
}

/// `rating` after `idle_days` rating periods without games: the deviation grows by Glicko-2's
/// step for a player who did not compete, one period per day, never above 350.
#[must_use]
pub fn after_idle(rating: Rating, idle_days: i64) -> Rating {
    let mut grown = to_crate(rating);
    for _ in 0..idle_days.max(0) {
        if grown.deviation >= MAX_DEVIATION {
            break;
        }
        grown = glicko2::decay_deviation(&grown);
    }
    grown.deviation = grown.deviation.min(MAX_DEVIATION.max(rating.deviation));
    from_crate(grown)
}

/// `me` after one game (its own rating period) against `opponent` with `score`.
#[must_use]
pub fn after_game(me: Rating, opponent: Rating, score: Score) -> Rating {
    let (mine, _) = glicko2::glicko2(
        &to_crate(me),
        &to_crate(opponent),
        &score.outcome(),
        &config(),
    );
    from_crate(mine)
}

/// `me` after one rating period of several games (Glickman's worked example is one).
#[must_use]
pub fn rating_period(me: Rating, games: &[(Rating, Score)]) -> Rating {
    let results: Vec<(Glicko2Rating, Outcomes)> = games
        .iter()
        .map(|&(opponent, score)| (to_crate(opponent), score.outcome()))
        .collect();
    from_crate(glicko2::glicko2_rating_period(
        &to_crate(me),
        &results,
        &config(),
    ))
}

/// How a rating would change after a win, a draw or a loss (whole points), shown before a
/// rated game starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExpectedChanges {
    /// After a win.
    pub win: i32,
    /// After a draw.
    pub draw: i32,
    /// After a loss.
    pub loss: i32,
}

/// The changes of `me`'s rating after each result against `opponent`.
#[must_use]
pub fn expected_changes(me: Rating, opponent: Rating) -> ExpectedChanges {
    let change = |score| rounded(after_game(me, opponent, score).rating - me.rating);
    ExpectedChanges {
        win: change(Score::Win),
        draw: change(Score::Draw),
        loss: change(Score::Loss),
    }
}
