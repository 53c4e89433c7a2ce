//! The fields of a game's settings that the new-game form and the tournament form both offer:
//! the kind's options from the engine's option list (with their defaults and allowed values),
//! the clock (days per move, or a Fischer clock) and the timeout rule; and reading them back
//! from a posted form. A form shown again after a refusal keeps what was posted (`kept`).

use std::collections::{BTreeMap, HashMap};

use maud::{html, Markup};
use turnpost_shared::{AnyGame, GameKind, OptionValue, OptionValues, TimeoutMode};

use super::WebError;
use crate::games::dice;

/// A posted form's fields by name (empty for a form shown the first time).
pub type FormValues = HashMap<String, String>;

/// The kind a form or query names (Kefren when none).
///
/// # Errors
/// 400 naming the kinds there are, for an unknown kind.
pub fn kind_of(text: Option<&str>) -> Result<GameKind, WebError> {
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
