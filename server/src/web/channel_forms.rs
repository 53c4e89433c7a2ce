//! What the posted forms of the settings page's channel sections (web push, webhooks) share:
//! one channel's category switches saved (every box of the form, `super::channel_switches`; an
//! unticked one is off) through the same settings update as the API's, and a refusal shown on
//! the page. Drawing the form is apart, so that the page's sections need not see the handlers.

use turnpost_shared::api::{ChannelCategoriesPatch, NotificationSettingsPatch};

use super::settings::render;
use super::signed_in_form::SignedInForm;
use super::WebAnswer;
use super::WebError;
use crate::http::error::ApiError;
use crate::preferences::Channel;

/// Shows the refusal of a form on the settings page, or fails with a server error.
///
/// # Errors
/// `error` itself when it is a server error; storage failures while drawing the page.
pub async fn refused(posted: &SignedInForm<impl Sized>, error: ApiError) -> WebAnswer {
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
    // The fields of `super::channel_switches::SWITCHES`, one by one.
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
