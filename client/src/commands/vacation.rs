//! `turnpost vacation [DAYS]`: show or take vacation days, which pause all your clocks.

use turnpost_shared::api::{Vacation, VacationRequest};

use crate::clock_display::{local_deadline, LONG};
use crate::failure::Failure;
use crate::output::{print, print_json};
use crate::session::Session;

/// Runs `turnpost vacation`: without `days` shows the days used and left this year and any
/// running vacation; with `days` takes them now (after a running vacation) and says until when.
///
/// # Errors
/// A refusal (exit 1) with the server's message when fewer days are left; network failures.
pub fn run(days: Option<u32>, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let vacation: Vacation = match days {
        Some(days) => session
            .client
            .post("/me/vacation", &VacationRequest { days })?,
        None => session.client.get("/me/vacation")?,
    };
    if json {
        return Ok(print_json("vacation", &vacation)?);
    }
    let mut text = String::new();
    if let Some(days) = days {
        let plural = if days == 1 { "day" } else { "days" };
        text.push_str(&format!("Took {days} vacation {plural}.\n"));
    }
    text.push_str(&describe(&vacation));
    Ok(print(&text)?)
}

/// The allowance and the running vacation in words.
fn describe(vacation: &Vacation) -> String {
    let total = vacation.days_used + vacation.days_left;
    let mut text = format!(
        "Vacation days in {}: {} of {total} used, {} left.\n",
        vacation.year, vacation.days_used, vacation.days_left
    );
    match &vacation.until {
        Some(until) => text.push_str(&format!(
            "On vacation until {}: your clocks are paused until then.\n",
            local_deadline(until, LONG)
        )),
        None => {
            text.push_str("Not on vacation: `turnpost vacation DAYS` pauses all your clocks.\n")
        }
    }
    text
}
