//! Clocks and deadlines for people: a deadline in the machine's local time with how far off it
//! is ("Tue 2026-11-24 14:03 +01:00, in 2 d 3 h"), Fischer banks as days and hours, and the
//! clock text (`3d`, `7d+1d/14d`) in words.

use chrono::{DateTime, Local, TimeDelta, TimeZone, Utc};
use turnpost_shared::play::ClockSpec;

/// A time from the API (RFC 3339) as a UTC instant; None for text that is not one.
pub fn parse_time(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|time| time.with_timezone(&Utc))
}

/// The full form of a local time: "Tue 2026-11-24 14:03 +01:00".
pub const LONG: &str = "%a %Y-%m-%d %H:%M %:z";
/// The form for one line of a list: "Tue 24 Nov 14:03".
pub const SHORT: &str = "%a %d %b %H:%M";

/// `at` in the machine's local time zone in `form` ([`LONG`] or [`SHORT`]), with how far
/// from now it is.
pub fn local_deadline(at: &str, form: &str) -> String {
    deadline_in(at, &Local, Utc::now(), form)
}

/// `at` in `zone`, with how far from `now` it is; the API's text unchanged when it is not a
/// time (an old or odd server should not make a game unreadable).
pub fn deadline_in<Tz: TimeZone>(at: &str, zone: &Tz, now: DateTime<Utc>, form: &str) -> String
where
    Tz::Offset: std::fmt::Display,
{
    match parse_time(at) {
        Some(time) => format!(
            "{} ({})",
            time.with_timezone(zone).format(form),
            relative(time - now)
        ),
        None => at.to_string(),
    }
}

/// How far off a deadline is: "in 2 d 3 h", "in 5 h 10 min", "in 4 min", "3 h 2 min ago".
pub fn relative(until: TimeDelta) -> String {
    if until >= TimeDelta::zero() {
        format!("in {}", span(until))
    } else {
        format!("{} ago", span(-until))
    }
}

/// A length of time in the two largest units that matter: "2 d 3 h", "5 h 10 min", "4 min".
pub fn span(length: TimeDelta) -> String {
    let minutes = length.num_minutes().max(0);
    let (days, hours, mins) = (minutes / 1440, minutes / 60 % 24, minutes % 60);
    match (days, hours) {
        (0, 0) if mins == 0 => "under a minute".to_string(),
        (0, 0) => format!("{mins} min"),
        (0, _) if mins == 0 => format!("{hours} h"),
        (0, _) => format!("{hours} h {mins} min"),
        (_, 0) => format!("{days} d"),
        _ => format!("{days} d {hours} h"),
    }
}

/// A Fischer bank in days and hours ("6 d 4 h").
pub fn bank(seconds: u64) -> String {
    // Out of range only for a nonsense value; it shows as very long rather than failing.
    let seconds = i64::try_from(seconds).unwrap_or(i64::MAX);
    span(TimeDelta::try_seconds(seconds).unwrap_or(TimeDelta::MAX))
}

/// The clock text in words: "3 days per move", "Fischer 7d+1d/14d (7 days, +1 day a move,
/// at most 14)"; unknown text as it is.
pub fn clock_words(clock: &str) -> String {
    let plural = |n: u8| if n == 1 { "day" } else { "days" };
    match clock.parse::<ClockSpec>() {
        Ok(ClockSpec::DaysPerMove(days)) => format!("{days} {} per move", plural(days)),
        Ok(ClockSpec::Fischer {
            initial,
            increment,
            maximum,
        }) => format!(
            "Fischer {clock} ({initial} {}, +{increment} {} a move, at most {maximum})",
            plural(initial),
            plural(increment)
        ),
        Err(_) => clock.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::FixedOffset;

    #[test]
    fn spans_use_the_two_largest_units() {
        assert_eq!(span(TimeDelta::seconds(20)), "under a minute");
        assert_eq!(span(TimeDelta::minutes(4)), "4 min");
        assert_eq!(span(TimeDelta::minutes(5 * 60 + 10)), "5 h 10 min");
        assert_eq!(span(TimeDelta::hours(3)), "3 h");
        assert_eq!(span(TimeDelta::minutes((2 * 24 + 3) * 60 + 59)), "2 d 3 h");
        assert_eq!(span(TimeDelta::days(7)), "7 d");
        assert_eq!(relative(TimeDelta::hours(-3)), "3 h ago");
        assert_eq!(bank(6 * 86_400 + 4 * 3_600), "6 d 4 h");
        assert!(bank(u64::MAX).ends_with(" h"));
    }

    #[test]
    fn deadlines_are_shown_in_the_given_zone_with_the_time_left() {
        let now = parse_time("2026-11-22T10:00:00Z").unwrap();
        let berlin = FixedOffset::east_opt(3600).unwrap();
        assert_eq!(
            deadline_in("2026-11-24T13:03:00Z", &berlin, now, LONG),
            "Tue 2026-11-24 14:03 +01:00 (in 2 d 3 h)"
        );
        assert_eq!(
            deadline_in("2026-11-22T08:30:00Z", &Utc, now, LONG),
            "Sun 2026-11-22 08:30 +00:00 (1 h 30 min ago)"
        );
        assert_eq!(
            deadline_in("2026-11-24T13:03:00Z", &berlin, now, SHORT),
            "Tue 24 Nov 14:03 (in 2 d 3 h)"
        );
        assert_eq!(deadline_in("soon", &Utc, now, LONG), "soon");
    }

    #[test]
    fn clocks_in_words() {
        assert_eq!(clock_words("3d"), "3 days per move");
        assert_eq!(clock_words("1d"), "1 day per move");
        assert_eq!(
            clock_words("7d+1d/14d"),
            "Fischer 7d+1d/14d (7 days, +1 day a move, at most 14)"
        );
        assert_eq!(clock_words("odd"), "odd");
    }
}
