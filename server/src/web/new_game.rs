//! `GET /new` and `POST /new`: the new game form of a signed-in browser. The kind is chosen
//! first (a GET form, so no script is needed); then that kind's options from the engine's
//! option list, with their defaults and allowed values, the other seats (account names,
//! `bot-1` … `bot-5`, or `open` for anyone to take; seats left empty are open), the clock and
//! the timeout rule. Posting makes the challenge through the game service with the API's checks
//! and limits, then shows its page.

use std::collections::{BTreeMap, HashMap};

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpResponse};
use maud::{html, Markup};
use turnpost_shared::{
    AnyGame, CreateGameRequest, GameKind, OptionValue, OptionValues, Options, TimeoutMode,
    OPEN_SEAT,
};

use super::{csrf, layout, SignedIn, WebError};
use crate::games::{challenge, dice};
use crate::state::AppState;

/// The query of the form: the kind chosen.
#[derive(Debug, serde::Deserialize)]
pub struct KindQuery {
    /// A kind name.
    kind: Option<String>,
}

fn kind_of(text: Option<&str>) -> Result<GameKind, WebError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(GameKind::Kefren),
        Some(text) => text.parse::<GameKind>().map_err(|_| {
            let known: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
            WebError::bad_request(format!(
                "kind={text} is not a game; use one of {}",
                known.join(", ")
            ))
        }),
    }
}

/// The form for `kind`, with `error` above it.
fn form(signed_in: &SignedIn, kind: GameKind, error: Option<&str>) -> Markup {
    let specs = AnyGame::option_specs(kind);
    html! {
        h1 { "New game" }
        @if let Some(error) = error { p.error role="alert" { (error) } }
        form.filter method="get" action="/new" {
            label { "Game " select name="kind" {
                @for k in GameKind::ALL {
                    option value=(k.name()) selected[k == kind] { (k.title()) }
                }
            } }
            " " button type="submit" { "Choose" }
        }
        form.new-game method="post" action="/new" {
            (signed_in.csrf_field())
            input type="hidden" name="kind" value=(kind.name());
            h2 { (kind.title()) " " a href={ "/rules/" (kind.name()) } { "(rules)" } }
            @for spec in specs.iter().filter(|s| s.key != dice::SEED) {
                @let id = format!("option-{}", spec.key);
                p {
                    label for=(id) { (spec.key) }
                    " "
                    @match spec.values {
                        OptionValues::OneOf(values) => select id=(id) name={ "option." (spec.key) } aria-describedby={ (id) "-help" } {
                            @for value in values {
                                option value=(value) selected[*value == spec.default] { (value) }
                            }
                        },
                        OptionValues::U64 => input id=(id) type="number" min="0" name={ "option." (spec.key) } value=(spec.default) aria-describedby={ (id) "-help" };,
                    }
                    br;
                    small id={ (id) "-help" } { (spec.help) " (default " (spec.default) "; " (spec.values.to_string()) ")" }
                }
            }
            p {
                label for="seat" { "Your seat" } " "
                input #seat type="number" name="seat" min="1" max="6" value="1" aria-describedby="seat-help";
                br; small #seat-help { "1 moves first." }
            }
            p {
                label for="others" { "Other players" } " "
                input #others type="text" name="others" autocomplete="off" autocapitalize="none" spellcheck="false" placeholder="open" aria-describedby="others-help";
                br; small #others-help { "In turn order after you, separated by commas: account names, "
                    "bot-1 … bot-5 (the computer, weakest to strongest), or open (anyone may join). "
                    "Seats you leave out are open." }
            }
            p {
                label for="days" { "Days per move" } " "
                input #days type="number" name="days" min="1" max="30" value="3" aria-describedby="days-help";
                br; small #days-help { "1 to 30. Or a Fischer clock instead:" }
                " " label for="fischer" { "Fischer clock" } " "
                input #fischer type="text" name="fischer" placeholder="7d+1d/14d" autocomplete="off" aria-describedby="fischer-help";
                br; small #fischer-help { "initial days + days added per move / most days banked (optional)" }
            }
            p {
                label for="timeout" { "When a player runs out of time" } " "
                select #timeout name="timeout" {
                    option value="auto" selected { "they lose at once (auto)" }
                    option value="claim" { "the others may claim the win (claim)" }
                }
            }
            p {
                label for="rated" { "Rated" } " "
                select #rated name="rated" aria-describedby="rated-help" {
                    option value="" selected { "as usual" }
                    option value="yes" { "yes" }
                    option value="no" { "no" }
                }
                br; small #rated-help { "As usual: rated between people, unrated with a bot or a non-standard board." }
            }
            button type="submit" { "Post the challenge" }
        }
    }
}

/// `GET /new`.
///
/// # Errors
/// 400 for an unknown kind.
pub async fn show(
    signed_in: SignedIn,
    query: web::Query<KindQuery>,
) -> Result<HttpResponse, WebError> {
    let kind = kind_of(query.kind.as_deref())?;
    Ok(layout::ok("New game", &form(&signed_in, kind, None)))
}

/// The challenge a posted form asks for.
fn request_of(
    form: &HashMap<String, String>,
    kind: GameKind,
    me: &str,
) -> Result<CreateGameRequest, String> {
    let field = |name: &str| form.get(name).map(|v| v.trim()).unwrap_or_default();
    let options: BTreeMap<String, OptionValue> = form
        .iter()
        .filter_map(|(key, value)| Some((key.strip_prefix("option.")?, value.trim())))
        .filter(|(_, value)| !value.is_empty())
        .map(|(key, value)| (key.to_owned(), OptionValue::Text(value.to_owned())))
        .collect();
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
    let clock = match (field("fischer"), field("days")) {
        ("", "") => None,
        ("", days) => Some(format!("{days}d")),
        (fischer, _) => Some(fischer.to_owned()),
    };
    let timeout = match field("timeout") {
        "" => None,
        text => Some(text.parse::<TimeoutMode>().map_err(|e| e.to_string())?),
    };
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
pub async fn create(
    state: web::Data<AppState>,
    signed_in: SignedIn,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    let form = form.into_inner();
    signed_in.check_csrf(form.get(csrf::FIELD).map(String::as_str))?;
    let kind = kind_of(form.get("kind").map(String::as_str))?;
    let request = match request_of(&form, kind, &signed_in.account.name) {
        Ok(request) => request,
        Err(reason) => return Ok(refused(&signed_in, kind, &reason)),
    };
    let actor = signed_in.actor();
    let ctx = state.mail.clone();
    let cap = state.bot_games_cap;
    let limits = state.clone();
    let made = crate::blocking::with_conn(&state, move |conn| {
        let checked = match challenge::check(conn, &actor, &request, cap) {
            Ok(checked) => checked,
            Err(refusal @ crate::games::GameError::Storage(_)) => return Err(refusal.into()),
            Err(refusal) => return Ok(Err(refusal.to_string())),
        };
        let charge = limits
            .limits
            .charge_challenge(checked.challenger(), checked.recipients())?;
        let view = challenge::create(conn, &ctx, &actor, &checked)?;
        charge.keep();
        Ok(Ok(view))
    })
    .await?;
    Ok(match made {
        Ok(view) => HttpResponse::SeeOther()
            .insert_header((header::LOCATION, format!("/games/{}", view.id)))
            .finish(),
        Err(reason) => refused(&signed_in, kind, &reason),
    })
}

fn refused(signed_in: &SignedIn, kind: GameKind, reason: &str) -> HttpResponse {
    layout::response(
        StatusCode::UNPROCESSABLE_ENTITY,
        "New game",
        &form(signed_in, kind, Some(reason)),
    )
}
