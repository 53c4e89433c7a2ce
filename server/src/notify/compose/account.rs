//! Account mail: the sign-in code and the notice of a sign-up attempt with a verified address.

use crate::mail::{ComposedMail, NewMail};

/// The mail carrying a one-time sign-in code.
#[must_use]
pub fn sign_in_code(
    to: &str,
    name: &str,
    code: &str,
    link: &str,
    minutes: i64,
    public_url: &str,
) -> NewMail {
    NewMail {
        to: to.to_owned(),
        mail: ComposedMail::plain(
            format!("Your turnpost code: {code}"),
            format!(
                "Hello {name},\n\n\
             your turnpost sign-in code is\n\n    {code}\n\n\
             or sign in in your web browser with this link:\n\n    {link}\n\n\
             The code and the link are valid for {minutes} minutes and sign in once.\n\
             If you did not ask for it, ignore this mail.\n\n\
             -- \nturnpost\n{public_url}\n"
            ),
        ),
    }
}

/// The mail to the owner of an address someone tried to sign up with. It names the existing
/// account so the owner knows how to sign in, and carries no code.
#[must_use]
pub fn sign_up_attempt(to: &str, name: &str, public_url: &str) -> NewMail {
    NewMail {
        to: to.to_owned(),
        mail: ComposedMail::plain(
            "Someone tried to sign up with your address".to_owned(),
            format!(
                "Hello {name},\n\n\
             someone asked to create a turnpost account with this address, which already\n\
             belongs to your account {name}. Nothing was changed.\n\n\
             If it was you, sign in instead:\n\n    turnpost login --email {to}\n\n\
             If it was not you, ignore this mail.\n\n\
             -- \nturnpost\n{public_url}\n"
            ),
        ),
    }
}
