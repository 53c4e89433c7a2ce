//! A moment as a person reads it, on pages and in mails (issue 47: deadlines showed as
//! `2026-11-29T15:29:35Z`): "Sun 29 Nov, 15:29 (in 23 h)" in the reader's time zone. A
//! reader without an account (a spectator, a signed-out browser) reads UTC, and the text
//! says "UTC" so it is not taken for their own time; a reader's own zone is not named, as
//! they chose it. The year is shown only when it is not the current one.

use chrono::{DateTime, Datelike, NaiveDateTime, Utc};
use chrono_tz::Tz;

/// Whose clock a time is read on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    /// An account, in its chosen zone (`preferences`' time_zone).
    Zone(Tz),
    /// Nobody signed in: UTC, said so.
    Anonymous,
}

impl Reader {
    /// The reader for an account's zone, or [`Reader::Anonymous`] without an account.
    #[must_use]
    pub fn of(zone: Option<Tz>) -> Self {
        zone.map_or(Self::Anonymous, Self::Zone)
    }
}

/// `at` (UTC) as `reader` reads it at `now`: "Sun 29 Nov, 15:29 (in 23 h)",
/// "Sat 28 Nov, 14:00 UTC (2 h ago)".
#[must_use]
pub fn time_in_words(at: NaiveDateTime, now: NaiveDateTime, reader: Reader) -> String {
    let (zone, named) = match reader {
        Reader::Zone(zone) => (zone, false),
        Reader::Anonymous => (Tz::UTC, true),
    };
    let local = DateTime::<Utc>::from_naive_utc_and_offset(at, Utc).with_timezone(&zone);
    let this_year = DateTime::<Utc>::from_naive_utc_and_offset(now, Utc)
        .with_timezone(&zone)
        .year();
    let mut text = if local.year() == this_year {
        local.format("%a %-d %b, %H:%M").to_string()
    } else {
        local.format("%a %-d %b %Y, %H:%M").to_string()
    };
    if named {
        text.push_str(" UTC");
    }
    format!("{text} ({})", relative(at - now))
}

/// An RFC 3339 time (as the API gives it) in words; the text as it is when it is not one.
#[must_use]
pub fn rfc3339_in_words(at: &str, now: NaiveDateTime, reader: Reader) -> String {
    DateTime::parse_from_rfc3339(at.trim()).map_or_else(
        |_| at.to_owned(),
        |time| time_in_words(time.naive_utc(), now, reader),
    )
}

/// "in 23 h", "2 h ago", "now": minutes under an hour, hours under two days, then days;
/// rounded down, so that "in 1 h" is never less than an hour away.
fn relative(delta: chrono::Duration) -> String {
    let minutes = delta.num_minutes();
    let span = minutes.unsigned_abs();
    let amount = if span < 1 {
        return "now".to_owned();
    } else if span < 60 {
        format!("{span} min")
    } else if span < 48 * 60 {
        format!("{} h", span / 60)
    } else {
        format!("{} days", span / (24 * 60))
    };
    if minutes > 0 {
        format!("in {amount}")
    } else {
        format!("{amount} ago")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> NaiveDateTime {
        DateTime::parse_from_rfc3339(text)
            .map(|t| t.naive_utc())
            .unwrap_or_default()
    }

    const NOW: &str = "2026-11-28T16:29:00Z";

    /// Each instant as a reader in its zone reads it at [`NOW`].
    fn reads(reader: Reader, cases: &[(&str, &str)]) {
        for (instant, words) in cases {
            assert_eq!(time_in_words(at(instant), at(NOW), reader), *words);
        }
    }

    #[test]
    fn the_future_in_hours_in_the_readers_zone() {
        reads(
            Reader::Zone(chrono_tz::Europe::Paris),
            &[("2026-11-29T14:29:35Z", "Sun 29 Nov, 15:29 (in 22 h)")],
        );
    }

    #[test]
    fn the_past_in_hours_and_minutes() {
        reads(
            Reader::Zone(Tz::UTC),
            &[
                ("2026-11-28T14:29:00Z", "Sat 28 Nov, 14:29 (2 h ago)"),
                ("2026-11-28T16:00:00Z", "Sat 28 Nov, 16:00 (29 min ago)"),
                ("2026-11-28T16:29:20Z", "Sat 28 Nov, 16:29 (now)"),
            ],
        );
    }

    #[test]
    fn the_future_in_minutes_and_days() {
        reads(
            Reader::Zone(chrono_tz::America::New_York),
            &[
                ("2026-11-28T16:34:00Z", "Sat 28 Nov, 11:34 (in 5 min)"),
                ("2026-12-01T18:00:00Z", "Tue 1 Dec, 13:00 (in 3 days)"),
                // Just under two days still counts hours.
                ("2026-11-30T16:00:00Z", "Mon 30 Nov, 11:00 (in 47 h)"),
            ],
        );
    }

    #[test]
    fn a_signed_out_reader_is_told_it_is_utc() {
        assert_eq!(
            time_in_words(at("2026-11-29T15:29:35Z"), at(NOW), Reader::of(None)),
            "Sun 29 Nov, 15:29 UTC (in 23 h)"
        );
    }

    #[test]
    fn another_year_is_named_and_bad_text_is_kept() {
        let reader = Reader::of(Some(chrono_tz::Asia::Tokyo));
        assert_eq!(
            rfc3339_in_words("2027-01-02T03:00:00Z", at(NOW), reader),
            "Sat 2 Jan 2027, 12:00 (in 34 days)"
        );
        assert_eq!(rfc3339_in_words("soon", at(NOW), reader), "soon");
    }
}
