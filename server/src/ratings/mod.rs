//! Ratings (issue 27), the pure part: no database, no clock. One rating per [`RatingKind`]:
//! two-player games rate with Glicko-2 ([`glicko`]; Glickman, "Example of the Glicko-2
//! system"), each game its own rating period as lichess does, the deviation growing by one
//! period per idle day; Chinese Checkers games of three to six seats rate in
//! `chinese-checkers-multi` with Weng–Lin's Bayesian approximation over the placings
//! ([`multi`]; Weng and Lin, "A Bayesian Approximation Method for Online Ranking", JMLR 12,
//! 2011, its Bradley–Terry full-pair model). The maths is the `skillratings` crate's; this module fixes
//! the constants and the scales. Storage is `crate::db::ratings`; the game service rates a
//! game as it ends.

mod glicko;
mod kind;
mod multi;
mod rating;

pub use glicko::{after_game, after_idle, expected_changes, rating_period, ExpectedChanges, Score};
pub use kind::{RatingKind, UnknownRatingKind};
pub use multi::after_placings;
pub use rating::{Rating, PROVISIONAL_DEVIATION};
