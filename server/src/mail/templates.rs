//! Message texts.

use super::NewMail;

/// The mail carrying a one-time sign-in code.
#[must_use]
pub fn sign_in_code(to: &str, name: &str, code: &str, minutes: i64, public_url: &str) -> NewMail {
    NewMail {
        to: to.to_owned(),
        subject: format!("Your turnpost code: {code}"),
        body: format!(
            "Hello {name},\n\n\
             your turnpost sign-in code is\n\n    {code}\n\n\
             It is valid for {minutes} minutes and can be used once.\n\
             If you did not ask for it, ignore this mail.\n\n\
             -- \nturnpost\n{public_url}\n"
        ),
        in_reply_to: None,
    }
}
