//! The web push section of `/settings` as it is drawn: the button that turns notifications on
//! in this browser (`/assets/push.js` subscribes it and posts the subscription with the
//! form's CSRF token), the devices that get them with a Remove button each, and the switches
//! of what push brings (apart from mail's and the webhooks'). The forms post to
//! `super::push_settings`.

use maud::{html, Markup};
use turnpost_shared::api::{ChannelCategories, PushSubscriptionView};

use super::channel_switches::switches_form;
use super::viewer::SignedIn;

/// The section; `public_key`: the server's VAPID key, which the browser subscribes with.
#[must_use]
pub fn section(
    signed_in: &SignedIn,
    devices: &[PushSubscriptionView],
    switches: &ChannelCategories,
    public_key: &str,
) -> Markup {
    html! {
        h2 #push { "Notifications on your devices" }
        p { "turnpost can notify this browser (or phone) of your turn, as mail does, even "
            "when the page is closed. Browsers allow it only on a site served over HTTPS. "
            "Notifications follow the switches below and your muted games." }
        form #push-subscribe method="post" action="/settings/push/subscribe" data-key=(public_key) {
            (signed_in.csrf_field())
            input type="hidden" name="endpoint" value="";
            input type="hidden" name="p256dh" value="";
            input type="hidden" name="auth" value="";
            button type="submit" { "Turn on notifications in this browser" }
            " " span #push-status role="status" {}
        }
        @if !devices.is_empty() {
            ul.rows #push-devices {
                @for device in devices {
                    li {
                        span { strong { (device.name) } " · added " (device.created_at)
                            @if let Some(used) = &device.last_used { " · last notified " (used) } }
                        form.inline method="post" action={ "/settings/push/" (device.id) "/remove" } {
                            (signed_in.csrf_field())
                            button type="submit" aria-label={ "Remove device " (device.id) } { "Remove" }
                        }
                    }
                }
            }
        }
        (switches_form(signed_in, "/settings/push/switches", "What notifications bring", "Save notification switches", switches))
        script src="/assets/push.js" defer {}
    }
}
