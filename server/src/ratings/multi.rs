//! Multi-player ratings over placings (Chinese Checkers with three to six seats): Weng and
//! Lin's Bayesian approximation (JMLR 12, 2011; the Bradley–Terry full-pair model) as the
//! `skillratings` crate implements it, each seat a team of one ranked by its place (a shared
//! place is a tie). The model's own
//! scale (μ 25, σ 25/3, β σ/2) is stretched to Glicko's (μ 1500, σ 350, β 175) so that both
//! kinds of rating read alike; the model has no volatility, which stays as it was.

use skillratings::weng_lin::{self, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

use super::rating::Rating;

/// β: half the start deviation, as the crate's default (25/6 against 25/3).
const BETA: f64 = 175.0;

/// The ratings of the players of one game after it, in the order given: `places[i]` is
/// `players[i]`'s place (1 = first; equal numbers share a place). Lengths that differ rate
/// nobody (the ratings come back unchanged).
#[must_use]
pub fn after_placings(players: &[Rating], places: &[u32]) -> Vec<Rating> {
    if players.len() != places.len() || players.len() < 2 {
        return players.to_vec();
    }
    let config = WengLinConfig {
        beta: BETA,
        ..WengLinConfig::new()
    };
    let teams: Vec<[WengLinRating; 1]> = players
        .iter()
        .map(|p| {
            [WengLinRating {
                rating: p.rating,
                uncertainty: p.deviation,
            }]
        })
        .collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(places)
        .map(|(team, &place)| {
            (
                team.as_slice(),
                MultiTeamOutcome::new(usize::try_from(place).unwrap_or(usize::MAX)),
            )
        })
        .collect();
    let after = weng_lin::weng_lin_multi_team(&ranked, &config);
    players
        .iter()
        .zip(after)
        .map(|(before, team)| match team.first() {
            Some(new) => Rating {
                rating: new.rating,
                deviation: new.uncertainty,
                volatility: before.volatility,
            },
            None => *before,
        })
        .collect()
}
