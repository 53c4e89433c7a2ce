//! The fields of a game's settings that the new-game form and the tournament form both offer, and
//! the page around them: the kind (chosen first), the kind's options from the engine's option list
//! (with their defaults and allowed values), the clock (days per move, or a Fischer clock) and the
//! timeout rule; and reading them back from a posted form. A form shown again after a refusal keeps
//! what was posted (`kept`).

use std::collections::{BTreeMap, HashMap};

use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use maud::{html, Markup};
use turnpost_shared::api::OptionValue;
use turnpost_shared::play::TimeoutMode;
use turnpost_shared::rules::OptionValues;
use turnpost_shared::{AnyGame, GameKind};

use super::{layout, WebError};
use crate::games::dice;

/// A posted form's fields by name (empty for a form shown the first time).
pub type FormValues = HashMap<String, String>;

/// What a settings form is shown with: the values posted and why they were refused, or
/// nothing (a blank form, shown the first time).
#[derive(Debug, Clone, Copy)]
pub struct Kept<'a> {
    /// The values to show again.
    pub values: &'a FormValues,
    /// Why the post was refused.
    pub refusal: Option<&'a str>,
}

/// No values: what a blank form shows.
static NO_VALUES: std::sync::LazyLock<FormValues> = std::sync::LazyLock::new(FormValues::new);

impl<'a> Kept<'a> {
    /// A blank form, shown the first time.
    #[must_use]
    pub fn blank() -> Self {
        Self {
            values: &NO_VALUES,
            refusal: None,
        }
    }

    /// The form again with the values posted and why they were refused.
    #[must_use]
    pub fn refused(values: &'a FormValues, refusal: &'a str) -> Self {
        Self {
            values,
            refusal: Some(refusal),
        }
    }
}

/// The query of a form that chooses the kind first: the kind chosen.
#[derive(Debug, serde::Deserialize)]
pub struct KindQuery {
    /// A kind name.
    pub kind: Option<String>,
}

/// The page of a form that chooses the kind first: `title` as its heading, the reason a post
/// was refused above the rest (then 422, else 200), the kind chooser (sent to `chooser`), and
/// `form`, the settings of `kind`.
#[must_use]
pub fn page(
    title: &str,
    chooser: &str,
    kind: GameKind,
    refusal: Option<&str>,
    form: &Markup,
) -> HttpResponse {
    let status = refusal.map_or(StatusCode::OK, |_| StatusCode::UNPROCESSABLE_ENTITY);
    let body = html! {
        h1 { (title) }
        @if let Some(error) = refusal { p.error role="alert" { (error) } }
        (kind_chooser(chooser, kind))
        (form)
    };
    layout::response(status, title, &body)
}

/// The form that chooses the kind, sent to `action` by GET (so no script is needed), `kind`
/// selected.
fn kind_chooser(action: &str, kind: GameKind) -> Markup {
    html! {
        form.filter method="get" action=(action) {
            label { "Game " select name="kind" {
                @for k in GameKind::ALL {
                    option value=(k.name()) selected[k == kind] { (k.title()) }
                }
            } }
            " " button type="submit" { "Choose" }
        }
    }
}

/// The hidden field that carries `kind` and the heading naming it, with a link to its rules.
#[must_use]
pub fn kind_heading(kind: GameKind) -> Markup {
    html! {
        input type="hidden" name="kind" value=(kind.name());
        h2 { (kind.title()) " " a href={ "/rules/" (kind.name()) } { "(rules)" } }
    }
}

/// The kind a form or query names (Kefren when none).
///
/// # Errors
/// 400 naming the kinds there are, for an unknown kind.
pub fn kind_of(text: Option<&str>) -> Result<GameKind, WebError> {
    Ok(kind_named(text.map(str::trim))?.unwrap_or(GameKind::Kefren))
}

/// The kind a query names, none when it names none (absent or empty).
///
/// # Errors
/// 400 naming the kinds there are, for an unknown kind.
pub fn kind_named(text: Option<&str>) -> Result<Option<GameKind>, WebError> {
    let Some(text) = text.filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let kind = text.parse::<GameKind>().map_err(|_| {
        let known: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
        WebError::bad_request(format!(
            "kind={text} is not a game; use one of {}",
            known.join(", ")
        ))
    })?;
    Ok(Some(kind))
}

/// The posted value of `name`, trimmed; empty when absent.
#[must_use]
pub fn field<'a>(form: &'a FormValues, name: &str) -> &'a str {
    form.get(name).map_or("", |v| v.trim())
}

/// The posted value of `name`, or `default` for a form not posted yet.
#[must_use]
pub fn field_or<'a>(kept: &'a FormValues, name: &str, default: &'a str) -> &'a str {
    kept.get(name).map_or(default, String::as_str)
}

/// A labelled widget for each of `kind`'s options, except the dice seed (the server draws it)
/// and the keys in `leave_out`; each named `option.KEY`.
#[must_use]
pub fn option_fields(kind: GameKind, kept: &FormValues, leave_out: &[&str]) -> Markup {
    let specs = AnyGame::option_specs(kind)
        .iter()
        .filter(|s| s.key != dice::SEED && !leave_out.contains(&s.key));
    html! {
        @for spec in specs {
            @let id = format!("option-{}", spec.key);
            @let name = format!("option.{}", spec.key);
            @let value = field_or(kept, &name, spec.default);
            p {
                label for=(id) { (spec.key) }
                " "
                @match spec.values {
                    OptionValues::OneOf(values) => select id=(id) name=(name) aria-describedby={ (id) "-help" } {
                        @for choice in values {
                            option value=(choice) selected[*choice == value] { (choice) }
                        }
                    },
                    OptionValues::U64 => input id=(id) type="number" min="0" name=(name) value=(value) aria-describedby={ (id) "-help" };,
                }
                br;
                small id={ (id) "-help" } { (spec.help) " (default " (spec.default) "; " (spec.values.to_string()) ")" }
            }
        }
    }
}

/// Days per move, or a Fischer clock instead.
#[must_use]
pub fn clock_fields(kept: &FormValues) -> Markup {
    html! {
        p {
            label for="days" { "Days per move" } " "
            input #days type="number" name="days" min="1" max="30" value=(field_or(kept, "days", "3")) aria-describedby="days-help";
            br; small #days-help { "1 to 30. Or a Fischer clock instead:" }
            " " label for="fischer" { "Fischer clock" } " "
            input #fischer type="text" name="fischer" value=(field_or(kept, "fischer", "")) placeholder="7d+1d/14d" autocomplete="off" aria-describedby="fischer-help";
            br; small #fischer-help { "initial days + days added per move / most days banked (optional)" }
        }
    }
}

/// What happens when a player runs out of time.
#[must_use]
pub fn timeout_field(kept: &FormValues) -> Markup {
    let chosen = field_or(kept, "timeout", "auto");
    html! {
        p {
            label for="timeout" { "When a player runs out of time" } " "
            select #timeout name="timeout" {
                option value="auto" selected[chosen == "auto"] { "they lose at once (auto)" }
                option value="claim" selected[chosen == "claim"] { "the others may claim the win (claim)" }
            }
        }
    }
}

/// The options posted (`option.KEY` fields), empty ones left out.
#[must_use]
pub fn options_of(form: &FormValues) -> BTreeMap<String, OptionValue> {
    form.iter()
        .filter_map(|(key, value)| Some((key.strip_prefix("option.")?, value.trim())))
        .filter(|(_, value)| !value.is_empty())
        .map(|(key, value)| (key.to_owned(), OptionValue::Text(value.to_owned())))
        .collect()
}

/// The clock posted: the Fischer clock if given, else the days per move; none for neither
/// (the server's default).
#[must_use]
pub fn clock_of(form: &FormValues) -> Option<String> {
    match (field(form, "fischer"), field(form, "days")) {
        ("", "") => None,
        ("", days) => Some(format!("{days}d")),
        (fischer, _) => Some(fischer.to_owned()),
    }
}

/// The timeout rule posted; none for the default.
///
/// # Errors
/// What was expected, for a value other than `auto` or `claim`.
pub fn timeout_of(form: &FormValues) -> Result<Option<TimeoutMode>, String> {
    match field(form, "timeout") {
        "" => Ok(None),
        text => Ok(Some(
            text.parse::<TimeoutMode>().map_err(|e| e.to_string())?,
        )),
    }
}
