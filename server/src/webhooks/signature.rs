//! Standard Webhooks signing (<https://www.standardwebhooks.com/>): a `whsec_` secret (the
//! base64 of a random key), and `webhook-signature: v1,<base64 HMAC-SHA256>` over
//! `"{webhook-id}.{webhook-timestamp}.{body}"` keyed with the decoded secret.

use base64::Engine as _;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The secrets' prefix.
pub const SECRET_PREFIX: &str = "whsec_";

/// Bytes of a new key (the specification asks for 24 to 64).
const KEY_BYTES: usize = 32;

/// A new secret: `whsec_` and the base64 of [`KEY_BYTES`] random bytes.
#[must_use]
pub fn new_secret() -> String {
    let mut key = [0u8; KEY_BYTES];
    if getrandom::fill(&mut key).is_err() {
        // The OS generator does not fail on supported platforms; never sign with zeros.
        let fallback = crate::secrets::random_string(KEY_BYTES, crate::secrets::ALNUM);
        key.copy_from_slice(&fallback.as_bytes()[..KEY_BYTES]);
    }
    format!(
        "{SECRET_PREFIX}{}",
        base64::engine::general_purpose::STANDARD.encode(key)
    )
}

/// A new `webhook-id`: `msg_` and 26 random letters and digits, fixed for every try of one
/// delivery (receivers deduplicate on it).
#[must_use]
pub fn new_message_id() -> String {
    format!(
        "msg_{}",
        crate::secrets::random_string(26, crate::secrets::ALNUM)
    )
}

/// The `webhook-signature` header's value for one try; `None` for a secret that is not
/// `whsec_` and base64 (a stored value edited by hand).
#[must_use]
pub fn sign(secret: &str, message_id: &str, timestamp: i64, body: &str) -> Option<String> {
    let key = base64::engine::general_purpose::STANDARD
        .decode(secret.strip_prefix(SECRET_PREFIX)?)
        .ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(format!("{message_id}.{timestamp}.").as_bytes());
    mac.update(body.as_bytes());
    let digest = mac.finalize().into_bytes();
    Some(format!(
        "v1,{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_specification_example_signs_alike() {
        // The example of the Standard Webhooks reference libraries' tests.
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
        let body = r#"{"test": 2432232314}"#;
        assert_eq!(
            sign(secret, id, 1_614_265_330, body).as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
    }

    #[test]
    fn a_new_secret_is_whsec_and_32_bytes() {
        let secret = new_secret();
        let key = base64::engine::general_purpose::STANDARD
            .decode(secret.strip_prefix(SECRET_PREFIX).unwrap_or(""))
            .unwrap_or_default();
        assert_eq!(key.len(), 32);
        assert_ne!(secret, new_secret());
        assert!(sign("not a secret", "msg_1", 1, "{}").is_none());
    }
}
