//! The form of one channel's category switches (web push, webhooks) on the settings page: a
//! box for each category, posted to the channel's handler (`super::channel_forms` saves it).

use maud::{html, Markup};
use turnpost_shared::api::ChannelCategories;

use super::viewer::SignedIn;

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
