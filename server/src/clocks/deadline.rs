//! Clock arithmetic, without storage: when a turn's time runs out, what a Fischer bank holds
//! after a move, and which reminders a new deadline already makes pointless.

use chrono::{Duration, NaiveDateTime};
use turnpost_shared::play::ClockSpec;

use crate::db::ClockNotices;

/// Seconds in a day.
pub const DAY_SECONDS: i64 = 86_400;

/// The clock of a game as stored (`NULL` means the default).
#[must_use]
pub fn spec_of(stored: Option<&str>) -> ClockSpec {
    stored
        .and_then(|text| text.parse().ok())
        .unwrap_or_default()
}

/// The seconds a seat has for its turn: the days per move, or its Fischer bank.
#[must_use]
pub fn turn_seconds(spec: ClockSpec, bank_seconds: Option<i64>) -> i64 {
    match spec {
        ClockSpec::DaysPerMove(days) => i64::from(days) * DAY_SECONDS,
        ClockSpec::Fischer { initial, .. } => {
            bank_seconds.unwrap_or(i64::from(initial) * DAY_SECONDS)
        }
    }
}

/// A Fischer bank after a move at `now` on a turn that ran out at `deadline`: what was left,
/// plus the increment, capped at the maximum. `None` for days-per-move clocks.
#[must_use]
pub fn bank_after_move(
    spec: ClockSpec,
    deadline: Option<NaiveDateTime>,
    now: NaiveDateTime,
) -> Option<i64> {
    let ClockSpec::Fischer {
        initial,
        increment,
        maximum,
    } = spec
    else {
        return None;
    };
    let left = deadline.map_or(i64::from(initial) * DAY_SECONDS, |deadline| {
        (deadline - now).num_seconds().max(0)
    });
    Some((left + i64::from(increment) * DAY_SECONDS).min(i64::from(maximum) * DAY_SECONDS))
}

/// The reminders that a deadline `deadline` already makes pointless at `now`: a turn that
/// starts with less than 24 h on the clock gets no 24 h reminder (the turn mail says as much).
#[must_use]
pub fn notices_already_due(deadline: NaiveDateTime, now: NaiveDateTime) -> ClockNotices {
    let left = deadline - now;
    let mut notices = ClockNotices::NONE;
    if left <= Duration::hours(24) {
        notices = notices | ClockNotices::REMINDED_24H;
    }
    if left <= Duration::hours(2) {
        notices = notices | ClockNotices::REMINDED_2H;
    }
    notices
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> NaiveDateTime {
        NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").unwrap()
    }

    #[test]
    fn days_per_move_ignores_banks() {
        assert_eq!(
            turn_seconds(ClockSpec::DaysPerMove(3), Some(5)),
            3 * DAY_SECONDS
        );
        assert_eq!(
            bank_after_move(ClockSpec::DaysPerMove(3), None, at("2026-01-01 00:00")),
            None
        );
    }

    #[test]
    fn fischer_banks_keep_what_is_left_plus_the_increment_up_to_the_cap() {
        let spec: ClockSpec = "7d+1d/10d".parse().unwrap();
        let now = at("2026-01-10 12:00");
        // 2.5 days left + 1 day.
        assert_eq!(
            bank_after_move(spec, Some(at("2026-01-13 00:00")), now),
            Some(3 * DAY_SECONDS + DAY_SECONDS / 2)
        );
        // 9.5 days left + 1 day is capped at 10 days.
        assert_eq!(
            bank_after_move(spec, Some(at("2026-01-20 00:00")), now),
            Some(10 * DAY_SECONDS)
        );
        // Past the deadline (claim mode): only the increment.
        assert_eq!(
            bank_after_move(spec, Some(at("2026-01-09 00:00")), now),
            Some(DAY_SECONDS)
        );
        assert_eq!(turn_seconds(spec, None), 7 * DAY_SECONDS);
        assert_eq!(turn_seconds(spec, Some(42)), 42);
    }

    #[test]
    fn short_turns_skip_the_reminders_they_start_inside() {
        let now = at("2026-01-01 00:00");
        assert_eq!(
            notices_already_due(at("2026-01-04 00:00"), now),
            ClockNotices::NONE
        );
        assert_eq!(
            notices_already_due(at("2026-01-02 00:00"), now),
            ClockNotices::REMINDED_24H
        );
        assert_eq!(
            notices_already_due(at("2026-01-01 01:00"), now),
            ClockNotices::REMINDED_24H | ClockNotices::REMINDED_2H
        );
    }

    #[test]
    fn stored_specs_fall_back_to_the_default() {
        assert_eq!(spec_of(None), ClockSpec::DaysPerMove(3));
        assert_eq!(spec_of(Some("5d")), ClockSpec::DaysPerMove(5));
        assert_eq!(spec_of(Some("three days")), ClockSpec::DaysPerMove(3));
    }
}
