//! CSRF tokens of the pages' forms. A token is an HMAC, under the server's link key, of the
//! secret of the browser's cookie: the session cookie when signed in, else the visitor cookie
//! (a random value set by the first page that shows a form to a visitor, so that a sign-in
//! form posted from another site fails too). Another site cannot read either cookie, so it
//! cannot make the token; another session's token does not match; after sign-out the session
//! is gone and so is its token. Play forms keep their own token (`crate::play_link`).

use hmac::{Hmac, Mac};
use maud::{html, Markup};
use sha2::Sha256;

/// The form field that carries the token.
pub const FIELD: &str = "csrf";

/// The token a posted form carries, if it has one.
#[must_use]
pub fn given(form: &std::collections::HashMap<String, String>) -> Option<&str> {
    form.get(FIELD).map(String::as_str)
}

/// Bytes of the HMAC kept in a token.
const TOKEN_BYTES: usize = 16;

fn mac(key: &[u8], purpose: &str, secret: &str) -> Option<Hmac<Sha256>> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).ok()?;
    mac.update(format!("page-csrf:{purpose}:{secret}").as_bytes());
    Some(mac)
}

/// The token of the cookie secret `secret` (`purpose`: which cookie it is).
#[must_use]
pub fn token(key: &[u8], purpose: &str, secret: &str) -> String {
    mac(key, purpose, secret)
        .map(|mac| {
            let bytes = mac.finalize().into_bytes();
            crate::secrets::hex(bytes.get(..TOKEN_BYTES).unwrap_or_default())
        })
        .unwrap_or_default()
}

/// A form whose token is missing or is not this browser's (403 as a page).
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error(
    "this form's security token is missing or does not belong to this browser's session (it \
     may come from another site, an older page or a session that was signed out); reload the \
     page and try again"
)]
pub struct CsrfRefused;

/// Checks a form's token against the expected one (in constant time).
///
/// # Errors
/// [`CsrfRefused`] when the form has no token or another one.
pub fn check(expected: &str, given: Option<&str>) -> Result<(), CsrfRefused> {
    let given = given.unwrap_or_default();
    if expected.is_empty() || !crate::secrets::constant_time_eq(expected, given) {
        return Err(CsrfRefused);
    }
    Ok(())
}

/// The hidden field carrying `token`, for inside a `form`.
#[must_use]
pub fn field(token: &str) -> Markup {
    html! { input type="hidden" name=(FIELD) value=(token); }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_belong_to_their_secret_and_key() {
        let one = token(b"key", "session", "secret-one");
        assert_eq!(one.len(), 2 * TOKEN_BYTES);
        assert!(check(&one, Some(&one)).is_ok());
        assert!(check(&one, Some(&token(b"key", "session", "secret-two"))).is_err());
        assert!(check(&one, Some(&token(b"key", "visitor", "secret-one"))).is_err());
        assert!(check(&one, Some(&token(b"other", "session", "secret-one"))).is_err());
        assert!(check(&one, None).is_err());
        assert!(check("", Some("")).is_err());
    }
}
