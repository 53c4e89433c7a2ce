//! `GET /new` and `POST /new`: the new game form of a signed-in browser. The kind is chosen
//! first (a GET form, so no script is needed); then that kind's options from the engine's
//! option list, with their defaults and allowed values, the other seats (account names,
//! `bot-1` … `bot-5`, or `open` for anyone to take; seats left empty are open), the clock and
//! the timeout rule. Posting makes the challenge through the game service with the API's checks
//! and limits, then shows its page.

use actix_web::{web, HttpResponse};
use maud::html;
use turnpost_shared::api::{CreateGameRequest, OPEN_SEAT};
use turnpost_shared::{AnyGame, GameKind, Options};

use super::game_settings_fields::{self, FormValues, Kept, KindQuery};
use super::signed_in_form::{see_other, SignedInForm};
use super::SignedIn;
use super::WebAnswer;
use crate::games::challenge;
use crate::http::budgeted_challenge::make_charged;

/// The form's page for `kind`: blank (200), or shown again with the values of `kept` and the
/// reason a post was refused (422).
fn page(signed_in: &SignedIn, kind: GameKind, kept: Kept<'_>) -> HttpResponse {
    let (kept, refusal) = (kept.values, kept.refusal);
    let form = html! {
        @let rated = game_settings_fields::field_or(kept, "rated", "");
        form.new-game method="post" action="/new" {
            (signed_in.csrf_field())
            (game_settings_fields::kind_heading(kind))
            (game_settings_fields::option_fields(kind, kept, &[]))
            p {
                label for="seat" { "Your seat" } " "
                input #seat type="number" name="seat" min="1" max="6" value=(game_settings_fields::field_or(kept, "seat", "1")) aria-describedby="seat-help";
                br; small #seat-help { "1 moves first." }
            }
            p {
                label for="others" { "Other players" } " "
                input #others type="text" name="others" value=(game_settings_fields::field_or(kept, "others", "")) autocomplete="off" autocapitalize="none" spellcheck="false" placeholder="open" aria-describedby="others-help";
                br; small #others-help { "In turn order after you, separated by commas: account names, "
                    "bot-1 … bot-5 (the computer, weakest to strongest), or open (anyone may join). "
                    "Seats you leave out are open." }
            }
            (game_settings_fields::clock_fields(kept))
            (game_settings_fields::timeout_field(kept))
            p {
                label for="rated" { "Rated" } " "
                select #rated name="rated" aria-describedby="rated-help" {
                    option value="" selected[rated.is_empty()] { "as usual" }
                    option value="yes" selected[rated == "yes"] { "yes" }
                    option value="no" selected[rated == "no"] { "no" }
                }
                br; small #rated-help { "As usual: rated between people, unrated with a bot or a non-standard board." }
            }
            button type="submit" { "Post the challenge" }
        }
    };
    game_settings_fields::page("New game", "/new", kind, refusal, &form)
}

/// `GET /new`.
///
/// # Errors
/// 400 for an unknown kind.
pub async fn show(signed_in: SignedIn, query: web::Query<KindQuery>) -> WebAnswer {
    let kind = game_settings_fields::kind_of(query.kind.as_deref())?;
    Ok(page(&signed_in, kind, Kept::blank()))
}

/// The challenge a posted form asks for.
fn request_of(form: &FormValues, kind: GameKind, me: &str) -> Result<CreateGameRequest, String> {
    let field = |name: &str| game_settings_fields::field(form, name);
    let options = game_settings_fields::options_of(form);
    let pairs: Vec<String> = options
        .iter()
        .map(|(k, v)| format!("{k}={}", v.to_text()))
        .collect();
    let seat_count = Options::from_pairs(&pairs)
        .ok()
        .and_then(|o| AnyGame::new_seed_withheld(kind, &o).ok())
        .map_or(2, |g| usize::from(g.seat_count()));
    let mut seats: Vec<String> = field("others")
        .split(',')
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect();
    if seats.len() + 1 < seat_count {
        seats.resize(seat_count - 1, OPEN_SEAT.to_owned());
    }
    let seat = match field("seat") {
        "" => 1,
        text => text
            .parse::<usize>()
            .ok()
            .filter(|s| (1..=seats.len() + 1).contains(s))
            .ok_or_else(|| format!("your seat {text}: expected 1 to {}", seats.len() + 1))?,
    };
    seats.insert(seat - 1, me.to_owned());
    let clock = game_settings_fields::clock_of(form);
    let timeout = game_settings_fields::timeout_of(form)?;
    let rated = match field("rated") {
        "" => None,
        "yes" => Some(true),
        "no" => Some(false),
        other => return Err(format!("rated `{other}`: expected yes or no")),
    };
    Ok(CreateGameRequest {
        kind,
        options,
        seats,
        clock,
        timeout,
        on_leave: None,
        rated,
    })
}

/// `POST /new`: makes the challenge and shows its page, or the form again with the reason.
///
/// # Errors
/// 403 without a session or its token; 400 for an unknown kind; 429 past the hourly
/// challenge budget.
pub async fn create(posted: SignedInForm) -> WebAnswer {
    let (state, signed_in, form) = posted.into_parts();
    let kind = game_settings_fields::kind_of(form.get("kind").map(String::as_str))?;
    let request = match request_of(&form, kind, &signed_in.account.name) {
        Ok(request) => request,
        Err(reason) => return Ok(page(&signed_in, kind, Kept::refused(&form, &reason))),
    };
    let actor = signed_in.actor();
    let cap = state.bot_games_cap;
    let limits = state.clone();
    let made = crate::http::blocking::with_conn(&state, move |conn| {
        let checked = match challenge::check(conn, &actor, &request, cap) {
            Ok(checked) => checked,
            Err(refusal @ crate::games::GameError::Storage(_)) => return Err(refusal.into()),
            Err(refusal) => return Ok(Err(refusal.to_string())),
        };
        let view = make_charged(&limits.limits, &checked, |checked| {
            challenge::create(conn, &actor, checked)
        })?;
        Ok(Ok(view))
    })
    .await?;
    Ok(match made {
        Ok(view) => see_other(format!("/games/{}", view.id)),
        Err(reason) => page(&signed_in, kind, Kept::refused(&form, &reason)),
    })
}
