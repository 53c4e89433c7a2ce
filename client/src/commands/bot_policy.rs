//! Which challenges `turnpost bot run` accepts: the kinds given with `--accept`, rated ones
//! only with `--rated`, no more games at once than `--max-games`, and with `--protocol ccp`
//! only the games a CCP engine can play.

use turnpost_shared::api::GameView;
use turnpost_shared::play::GameStatus;
use turnpost_shared::GameKind;

use super::bot_ccp;

/// The acceptance policy of a run.
#[derive(Debug, Clone)]
pub struct Policy {
    /// The kinds accepted (none: no challenge is accepted).
    pub kinds: Vec<GameKind>,
    /// Whether rated challenges are accepted too.
    pub rated: bool,
    /// At most this many active games at once.
    pub max_games: Option<usize>,
    /// The engine speaks CCP: only 2-player Chinese Checkers games it can play.
    pub ccp: bool,
}

/// What to do with a challenge.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Not a challenge waiting for this account's answer (already accepted, started, over).
    NotOurs,
    /// Accept it.
    Accept,
    /// Decline it: the policy never takes it (the reason, for the run's output).
    Decline(String),
    /// Leave it waiting: it fits, but the account plays as many games as it may; looked at
    /// again when one of them ends.
    Later,
}

impl Policy {
    /// What to do with `game`, a challenge to the account, while it plays `active` games.
    #[must_use]
    pub fn judge(&self, game: &GameView, active: usize) -> Verdict {
        let waits_for_us = game.status == GameStatus::Invited
            && game.your_seat.is_some_and(|seat| {
                game.seats
                    .iter()
                    .any(|s| s.seat == seat && !s.accepted && !s.open)
            });
        if !waits_for_us {
            return Verdict::NotOurs;
        }
        if !self.kinds.contains(&game.kind) {
            let accepted = if self.kinds.is_empty() {
                "no kind (--accept)".to_string()
            } else {
                self.kinds
                    .iter()
                    .map(|kind| kind.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            return Verdict::Decline(format!("{} is not among {accepted}", game.kind));
        }
        if self.ccp {
            if let Err(why) = bot_ccp::fits(game) {
                return Verdict::Decline(why);
            }
        }
        if game.rated && !self.rated {
            return Verdict::Decline("rated games are not accepted (--rated)".to_string());
        }
        if self.max_games.is_some_and(|max| active >= max) {
            return Verdict::Later;
        }
        Verdict::Accept
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used, reason = "tests")]
    use super::*;

    fn challenge(kind: &str, rated: bool, accepted: bool) -> GameView {
        serde_json::from_value(serde_json::json!({
            "id": 3, "kind": kind, "options": {}, "clock": null, "timeout": "auto",
            "deadline": null, "claimable": false, "status": "invited",
            "seats": [
                {"seat": 1, "seat_name": "1", "player": "anna", "accepted": true, "bank_seconds": null},
                {"seat": 2, "seat_name": "2", "player": "bert", "accepted": accepted, "bank_seconds": null}
            ],
            "result": null, "result_reason": null, "ply": 0, "to_move": 1, "your_seat": 2,
            "your_turn": false, "draw_offered_by": null, "position": "", "board": "",
            "last_moves": [], "legal_moves": null, "created_at": "2026-01-01T00:00:00Z",
            "expires_at": null, "started_at": null, "finished_at": null,
            "last_activity_at": "2026-01-01T00:00:00Z", "rated": rated
        }))
        .expect("a game view")
    }

    #[test]
    fn kinds_rated_and_the_cap_decide() {
        let policy = Policy {
            kinds: vec![GameKind::Kefren, GameKind::SanQi],
            rated: false,
            max_games: Some(2),
            ccp: false,
        };
        assert_eq!(
            policy.judge(&challenge("kefren", false, false), 1),
            Verdict::Accept
        );
        assert_eq!(
            policy.judge(&challenge("kefren", false, false), 2),
            Verdict::Later
        );
        assert!(matches!(
            policy.judge(&challenge("kechi", false, false), 0),
            Verdict::Decline(reason) if reason == "kechi is not among kefren, sanqi"
        ));
        assert!(matches!(
            policy.judge(&challenge("sanqi", true, false), 0),
            Verdict::Decline(_)
        ));
        assert_eq!(
            policy.judge(&challenge("kefren", false, true), 0),
            Verdict::NotOurs
        );
        let rated = Policy {
            rated: true,
            max_games: None,
            ..policy
        };
        assert_eq!(
            rated.judge(&challenge("sanqi", true, false), 99),
            Verdict::Accept
        );
        // A CCP engine: 2-player Chinese Checkers only.
        let ccp = Policy {
            kinds: vec![GameKind::ChineseCheckers],
            rated: true,
            max_games: None,
            ccp: true,
        };
        assert_eq!(
            ccp.judge(&challenge("chinese-checkers", false, false), 0),
            Verdict::Accept
        );
        let mut three = challenge("chinese-checkers", false, false);
        three.options.insert("players".into(), "3".into());
        assert!(matches!(
            ccp.judge(&three, 0),
            Verdict::Decline(reason) if reason.contains("players=3")
        ));
    }
}
