//! Message texts.

use super::{ComposedMail, NewMail};

/// The mail carrying a one-time sign-in code.
#[must_use]
pub fn sign_in_code(to: &str, name: &str, code: &str, minutes: i64, public_url: &str) -> NewMail {
    NewMail {
        to: to.to_owned(),
        mail: ComposedMail::plain(
            format!("Your turnpost code: {code}"),
            format!(
                "Hello {name},\n\n\
             your turnpost sign-in code is\n\n    {code}\n\n\
             It is valid for {minutes} minutes and can be used once.\n\
             If you did not ask for it, ignore this mail.\n\n\
             -- \nturnpost\n{public_url}\n"
            ),
        ),
    }
}
