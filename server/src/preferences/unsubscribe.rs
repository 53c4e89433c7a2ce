//! Unsubscribe links that need no login: `/v1/unsubscribe?a=<account>&c=<category>&s=<sig>`,
//! where `sig` is an HMAC-SHA256 of account and category under a key every server process
//! shares (kept in the database). A link switches off one category for one account, so a
//! leaked link can do no more than that, and no one can make a link for another account.

use hmac::{Hmac, Mac};
use sha2::Sha256;
use turnpost_shared::api::TurnMail;

use super::{Category, PreferenceError, Preferences};
use crate::db::transaction as tx;
use crate::db::{server_secrets, DbConnection, DbError};
use crate::secrets::{hex, unhex};

type Signer = Hmac<Sha256>;

/// The name of the signing key in `server_secrets`.
pub const KEY_NAME: &str = "unsubscribe-link-key";

/// The key that signs unsubscribe links, made by the first process that needs it.
///
/// # Errors
/// [`DbError::Query`].
pub fn load_key(conn: &mut DbConnection) -> Result<Vec<u8>, DbError> {
    let fresh = crate::secrets::random_string(48, crate::secrets::LOWER_ALNUM);
    Ok(server_secrets::get_or_create(conn, KEY_NAME, &fresh)?.into_bytes())
}

fn signature(key: &[u8], account_id: i64, category: Category) -> Option<Signer> {
    let mut mac = Signer::new_from_slice(key).ok()?;
    mac.update(format!("unsubscribe:{account_id}:{}", category.as_str()).as_bytes());
    Some(mac)
}

/// The one-click unsubscribe URL for `category` mail to `account_id`.
#[must_use]
pub fn link(public_url: &str, key: &[u8], account_id: i64, category: Category) -> String {
    let sig = signature(key, account_id, category)
        .map(|mac| hex(&mac.finalize().into_bytes()))
        .unwrap_or_default();
    format!(
        "{}/v1/unsubscribe?a={account_id}&c={}&s={sig}",
        public_url.trim_end_matches('/'),
        category.as_str()
    )
}

/// The query of an unsubscribe link.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct LinkQuery {
    /// Account id.
    pub a: Option<String>,
    /// Category name.
    pub c: Option<String>,
    /// Signature (hex).
    pub s: Option<String>,
}

fn forged() -> PreferenceError {
    PreferenceError::BadUnsubscribeLink
}

/// Checks a link: the account and category it was signed for.
///
/// # Errors
/// [`PreferenceError::BadUnsubscribeLink`] for a missing part, an unknown category or a wrong
/// signature.
pub fn verify(key: &[u8], query: &LinkQuery) -> Result<(i64, Category), PreferenceError> {
    let account_id: i64 = query
        .a
        .as_deref()
        .and_then(|a| a.parse().ok())
        .ok_or_else(forged)?;
    let category = query
        .c
        .as_deref()
        .and_then(|name| name.parse::<Category>().ok())
        .ok_or_else(forged)?;
    let given = query.s.as_deref().and_then(unhex).ok_or_else(forged)?;
    let mac = signature(key, account_id, category).ok_or_else(forged)?;
    // `verify_slice` compares in constant time.
    mac.verify_slice(&given).map_err(|_| forged())?;
    Ok((account_id, category))
}

/// Switches `category` off for `account_id`; the preferences as they were before (so the
/// page can offer to undo it).
///
/// # Errors
/// Storage failures.
pub fn apply(
    conn: &mut DbConnection,
    account_id: i64,
    category: Category,
) -> Result<Preferences, PreferenceError> {
    tx::write_with(conn, |conn| -> Result<Preferences, PreferenceError> {
        let before = Preferences::load(conn, account_id)?;
        let mut preferences = before.clone();
        preferences.switch_off(category);
        preferences.save(conn, account_id)?;
        Ok(before)
    })
}

/// Undoes [`apply`]: switches `category` on again for `account_id` (turn mail as
/// `turn_mail`, immediate or digest).
///
/// # Errors
/// Storage failures.
pub fn undo(
    conn: &mut DbConnection,
    account_id: i64,
    category: Category,
    turn_mail: TurnMail,
) -> Result<(), PreferenceError> {
    tx::write_with(conn, |conn| -> Result<(), PreferenceError> {
        let mut preferences = Preferences::load(conn, account_id)?;
        preferences.switch_on(category, turn_mail);
        preferences.save(conn, account_id)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query_of(url: &str) -> LinkQuery {
        let url = url::Url::parse(url).unwrap();
        let get = |k: &str| {
            url.query_pairs()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.into_owned())
        };
        LinkQuery {
            a: get("a"),
            c: get("c"),
            s: get("s"),
        }
    }

    #[test]
    fn a_link_verifies_for_its_account_and_category_only() {
        let key = b"key-one";
        let url = link("https://tp.example/", key, 42, Category::Turn);
        assert!(url.starts_with("https://tp.example/v1/unsubscribe?a=42&c=turn&s="));
        assert_eq!(verify(key, &query_of(&url)).unwrap(), (42, Category::Turn));

        let mut other_account = query_of(&url);
        other_account.a = Some("43".into());
        assert!(verify(key, &other_account).is_err());
        let mut other_category = query_of(&url);
        other_category.c = Some("reminders".into());
        assert!(verify(key, &other_category).is_err());
        assert!(verify(b"key-two", &query_of(&url)).is_err());
        let mut cut = query_of(&url);
        cut.s = cut.s.map(|s| s[..10].to_owned());
        assert!(verify(key, &cut).is_err());
        let mut junk = query_of(&url);
        junk.s = Some("zz".repeat(32));
        assert!(verify(key, &junk).is_err());
        assert!(verify(
            key,
            &LinkQuery {
                a: None,
                c: None,
                s: None
            }
        )
        .is_err());
    }
}
