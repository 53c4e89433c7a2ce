//! What the forms of the settings page's channel sections (web push, webhooks) share: the form
//! of one channel's category switches, drawn and saved (every box of the form; an unticked one
//! is off) through the same settings update as the API's, and a refusal shown on the page.

use actix_web::HttpResponse;
use maud::{html, Markup};
use turnpost_shared::api::{ChannelCategories, ChannelCategoriesPatch, NotificationSettingsPatch};

use super::settings::render;
use super::signed_in_form::SignedInForm;
use super::viewer::SignedIn;
use super::WebError;
use crate::http::error::ApiError;
use crate::preferences::Channel;

/// The switches of a channel (webhooks, push): field, label.
const SWITCHES: [(&str, &str); 5] = [
    ("turn", "Your turn"),
    ("challenges", "Challenges for you"),
    (
        "challenge_replies",
        "Answers to your challenges, games starting",
    ),
    ("game_over", "A game of yours ended, or a player left"),
    ("draw_offers", "Draw offers"),
];

/// The switch `field` of `switches`.
fn switch_value(switches: &ChannelCategories, field: &str) -> bool {
    match field {
        "turn" => switches.turn,
        "challenges" => switches.challenges,
        "challenge_replies" => switches.challenge_replies,
        "game_over" => switches.game_over,
        _ => switches.draw_offers,
    }
}

/// The form of a channel's `switches`, posted to `action`.
#[must_use]
pub fn switches_form(
    signed_in: &SignedIn,
    action: &str,
    legend: &str,
    button: &str,
    switches: &ChannelCategories,
) -> Markup {
    html! {
        form.stack method="post" action=(action) {
            (signed_in.csrf_field())
            fieldset {
                legend { (legend) }
                @for (field, label) in SWITCHES {
                    label.choice {
                        input type="checkbox" name=(field) value="on" checked[switch_value(switches, field)];
                        " " (label)
                    }
                }
            }
            button type="submit" { (button) }
        }
    }
}

/// Shows the refusal of a form on the settings page, or fails with a server error.
///
/// # Errors
/// `error` itself when it is a server error; storage failures while drawing the page.
pub async fn refused(
    posted: &SignedInForm<impl Sized>,
    error: ApiError,
) -> Result<HttpResponse, WebError> {
    let error = WebError::from(error);
    if error.status.is_server_error() {
        return Err(error);
    }
    render(
        &posted.state,
        &posted.signed_in,
        Some(Err(&error.message)),
        error.status,
    )
    .await
}

/// Saves the switches of `channel` as `posted` ticks them.
///
/// # Errors
/// Storage failures.
pub async fn save_switches(posted: &SignedInForm, channel: Channel) -> Result<(), WebError> {
    let on = |field: &str| Some(posted.form.contains_key(field));
    // The fields of SWITCHES, one by one.
    let switches = ChannelCategoriesPatch {
        turn: on("turn"),
        challenges: on("challenges"),
        challenge_replies: on("challenge_replies"),
        game_over: on("game_over"),
        draw_offers: on("draw_offers"),
    };
    let patch = match channel {
        Channel::Push => NotificationSettingsPatch {
            push: Some(switches),
            ..NotificationSettingsPatch::default()
        },
        Channel::Webhooks => NotificationSettingsPatch {
            webhooks: Some(switches),
            ..NotificationSettingsPatch::default()
        },
    };
    let account_id = posted.signed_in.account.id;
    crate::http::blocking::with_conn(&posted.state, move |conn| {
        Ok(crate::preferences::update(conn, account_id, &patch)?)
    })
    .await?;
    Ok(())
}
