//! `GET /tournaments/new` and `POST /tournaments`: organising a tournament from the browser.
//! The kind is chosen first (a GET form, so no script is needed); then everything the API's
//! `POST /v1/tournaments` takes: name, format (round-robin single or double, every round at
//! once or not; Swiss; tables for Chinese Checkers), rounds, seats a table, the kind's options
//! (the new-game form's widgets), the clock and timeout rule, the entry window, the most
//! players and the accounts to invite. Posting creates it through the tournament service; a
//! refusal shows the form again with the reason above it and the values kept.

use actix_web::{web, HttpResponse};
use maud::{html, Markup};
use turnpost_shared::api::{CreateTournamentRequest, TournamentFormat};
use turnpost_shared::GameKind;

use super::game_settings_fields::{self as fields, field, field_or, FormValues, Kept, KindQuery};
use super::signed_in_form::{see_other, SignedInForm};
use super::SignedIn;
use super::WebAnswer;
use crate::games::GameError;
use crate::http::error::ApiError;
use crate::tournaments::{TournamentError, MAX_ENTRY_DAYS, MAX_PLAYERS, MAX_ROUNDS};

/// The option a table's seat count sets (left out of the form: see [`format_fields`]).
const PLAYERS_OPTION: &str = "players";

/// The format, its round-robin switches, rounds and (Chinese Checkers) seats a table.
fn format_fields(kind: GameKind, kept: &FormValues) -> Markup {
    let format = field_or(kept, "format", "swiss");
    let tables = kind == GameKind::ChineseCheckers;
    html! {
        fieldset {
            legend { "Format" }
            p {
                label for="format" { "Format" } " "
                select #format name="format" aria-describedby="format-help" {
                    option value="swiss" selected[format == "swiss"] { "Swiss" }
                    option value="round_robin" selected[format == "round_robin"] { "Round-robin" }
                    @if tables {
                        option value="tables" selected[format == "tables"] { "Tables (3–6 a table)" }
                    }
                }
                br; small #format-help {
                    "Round-robin and Swiss are two-player games"
                    @if tables { "; tables split the players into tables of the seats below each round" }
                    "."
                }
            }
            label.choice {
                input #double type="checkbox" name="double" value="yes" checked[kept.contains_key("double")];
                "Double (round-robin): everyone meets twice, colours reversed"
            }
            label.choice {
                input #all_at_once type="checkbox" name="all_at_once" value="yes" checked[kept.contains_key("all_at_once")];
                "Every round at once (round-robin): all its games start together"
            }
            p {
                label for="rounds" { "Rounds (Swiss, tables)" } " "
                input #rounds type="number" name="rounds" min="1" max=(MAX_ROUNDS) value=(field_or(kept, "rounds", "5")) aria-describedby="rounds-help";
                br; small #rounds-help { "1 to " (MAX_ROUNDS) "; a round-robin works out its rounds from the players." }
            }
            @if tables {
                p {
                    label for="table_seats" { "Seats a table (tables)" } " "
                    input #table_seats type="number" name="table_seats" min="3" max="6" value=(field_or(kept, "table_seats", "3")) aria-describedby="table_seats-help";
                    br; small #table_seats-help { "3 to 6; it sets each game's players." }
                }
            }
        }
    }
}

/// The form's page for `kind`: blank (200), or shown again with the values of `kept` and the
/// reason a post was refused (422).
fn page(signed_in: &SignedIn, kind: GameKind, kept: Kept<'_>) -> HttpResponse {
    let (kept, refusal) = (kept.values, kept.refusal);
    let form = html! {
        form.stack.tournament method="post" action="/tournaments" {
            (signed_in.csrf_field())
            (fields::kind_heading(kind))
            p {
                label for="name" { "Name" } " "
                input #name type="text" name="name" value=(field_or(kept, "name", "")) required maxlength="80" autocomplete="off";
            }
            (format_fields(kind, kept))
            fieldset {
                legend { "The games" }
                (fields::option_fields(kind, kept, &[PLAYERS_OPTION]))
                (fields::clock_fields(kept))
                (fields::timeout_field(kept))
            }
            fieldset {
                legend { "Entries" }
                p {
                    label for="entry_days" { "Days until entries close" } " "
                    input #entry_days type="number" name="entry_days" min="1" max=(MAX_ENTRY_DAYS) value=(field_or(kept, "entry_days", "7")) aria-describedby="entry_days-help";
                    br; small #entry_days-help { "1 to " (MAX_ENTRY_DAYS) "; round 1 starts then." }
                }
                p {
                    label for="max_players" { "Most players" } " "
                    input #max_players type="number" name="max_players" min="2" max=(MAX_PLAYERS) value=(field_or(kept, "max_players", "")) aria-describedby="max_players-help";
                    br; small #max_players-help { "2 to " (MAX_PLAYERS) "; optional." }
                }
                // Ticked on the blank form: a field that fills up should not wait (issue 47).
                label.choice {
                    input #start_when_full type="checkbox" name="start_when_full" value="yes" checked[kept.is_empty() || kept.contains_key("start_when_full")] aria-describedby="start_when_full-help";
                    "Start as soon as the last place is taken"
                }
                small #start_when_full-help { "Needs Most players; otherwise round 1 starts when entries close." }
                p {
                    label for="invite" { "Invite" } " "
                    input #invite type="text" name="invite" value=(field_or(kept, "invite", "")) autocomplete="off" autocapitalize="none" spellcheck="false" aria-describedby="invite-help";
                    br; small #invite-help { "Account names separated by commas; each is mailed the announcement (optional)." }
                }
            }
            button type="submit" { "Create the tournament" }
        }
    };
    fields::page(
        "Organise a tournament",
        "/tournaments/new",
        kind,
        refusal,
        &form,
    )
}

/// `GET /tournaments/new`.
///
/// # Errors
/// 400 for an unknown kind.
pub async fn show(signed_in: SignedIn, query: web::Query<KindQuery>) -> WebAnswer {
    let kind = fields::kind_of(query.kind.as_deref())?;
    Ok(page(&signed_in, kind, Kept::blank()))
}

/// The whole number in `name`, none when empty; `label` and `expected` say what the field
/// takes when it is not one.
fn whole<T: std::str::FromStr>(
    form: &FormValues,
    name: &str,
    label: &str,
    expected: &str,
) -> Result<Option<T>, String> {
    match field(form, name) {
        "" => Ok(None),
        text => text
            .parse()
            .map(Some)
            .map_err(|_| format!("{label}: `{text}` is not a whole number; expected {expected}")),
    }
}

/// The tournament a posted form asks for.
fn request_of(form: &FormValues, kind: GameKind) -> Result<CreateTournamentRequest, String> {
    let format = match field(form, "format") {
        "" => TournamentFormat::Swiss,
        text => text
            .parse::<TournamentFormat>()
            .map_err(|_| format!("Format `{text}`: expected swiss, round_robin or tables"))?,
    };
    let (double, all_at_once) = (
        form.contains_key("double"),
        form.contains_key("all_at_once"),
    );
    if (double || all_at_once) && format != TournamentFormat::RoundRobin {
        return Err(
            "Double and every round at once are for the round-robin format: choose \
             Round-robin, or untick them"
                .to_owned(),
        );
    }
    let rounds = match format {
        TournamentFormat::RoundRobin => None,
        _ => whole(form, "rounds", "Rounds", &format!("1 to {MAX_ROUNDS}"))?,
    };
    let table_seats = match format {
        TournamentFormat::Tables => whole(form, "table_seats", "Seats a table", "3 to 6")?,
        _ => None,
    };
    let expected_days = format!("1 to {MAX_ENTRY_DAYS}");
    let entry_days: i64 = whole(
        form,
        "entry_days",
        "Days until entries close",
        &expected_days,
    )?
    .unwrap_or(7);
    if !(1..=MAX_ENTRY_DAYS).contains(&entry_days) {
        return Err(format!(
            "Days until entries close: expected {expected_days}, not {entry_days}"
        ));
    }
    let closes = crate::db::now() + chrono::Duration::days(entry_days);
    let max_players = whole(
        form,
        "max_players",
        "Most players",
        &format!("2 to {MAX_PLAYERS}"),
    )?;
    // The box is ticked by default; without a maximum it cannot apply, so it is left to
    // the service's default (off) rather than refused.
    let start_when_full = match (form.contains_key("start_when_full"), max_players) {
        (false, _) => Some(false),
        (true, Some(_)) => Some(true),
        (true, None) => None,
    };
    Ok(CreateTournamentRequest {
        name: field(form, "name").to_owned(),
        kind,
        options: fields::options_of(form),
        clock: fields::clock_of(form),
        timeout: fields::timeout_of(form)?,
        format,
        double,
        all_at_once,
        table_seats,
        rounds,
        entry_closes_at: crate::db::rfc3339(closes),
        max_players,
        start_when_full,
        invite: field(form, "invite")
            .split(',')
            .map(str::trim)
            .filter(|name| !name.is_empty())
            .map(str::to_owned)
            .collect(),
    })
}

/// Whether the service failed (rather than refused what was asked).
fn failed(error: &TournamentError) -> bool {
    matches!(
        error,
        TournamentError::Storage(_)
            | TournamentError::Pairing { .. }
            | TournamentError::Game(GameError::Storage(_))
    )
}

/// `POST /tournaments`: creates the tournament and shows its page, or the form again with the
/// reason and the values posted.
///
/// # Errors
/// 403 without a session or its token; 400 for an unknown kind; 429 past the hourly budget
/// (of tournaments, or of challenges: invitations are charged as `POST /v1/tournaments` says);
/// storage failures.
pub async fn create(posted: SignedInForm) -> WebAnswer {
    posted.charge_join()?;
    let (state, signed_in, form) = posted.into_parts();
    let kind = fields::kind_of(form.get("kind").map(String::as_str))?;
    let request = match request_of(&form, kind) {
        Ok(request) => request,
        Err(reason) => return Ok(page(&signed_in, kind, Kept::refused(&form, &reason))),
    };
    // Charged as `POST /v1/tournaments` is: past an invitee's budget, 429 and nothing made.
    let created = crate::http::budgeted_tournament::create_charged(
        &state,
        signed_in.actor(),
        signed_in.account.name_key.clone(),
        request,
    )
    .await?;
    Ok(match created {
        Ok(view) => see_other(format!("/tournaments/{}", view.id)),
        Err(failure) if failed(&failure) => return Err(ApiError::from(failure).into()),
        Err(refusal) => page(&signed_in, kind, Kept::refused(&form, &refusal.to_string())),
    })
}
