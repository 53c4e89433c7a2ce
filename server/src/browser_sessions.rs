//! Browser sessions: what a session cookie stands for. Signing in on the web (with the mailed
//! code or link, [`crate::accounts::verify_with`]) starts one; the cookie holds a random
//! secret and only its SHA-256 is stored, with the account, when it started, when it was last
//! used and which browser it is. Deleting the row signs that browser out; a session unused for
//! [`IDLE_DAYS`] days no longer counts.

use chrono::Duration;

use crate::db::accounts::Account;
use crate::db::browser_sessions::NewBrowserSession;
use crate::db::{self, browser_sessions as q, DbConnection, DbError};
use crate::secrets;

// The row a session is, for callers that hold no queries of their own (pages).
pub use crate::db::browser_sessions::BrowserSession;

/// Days a session may go unused before it stops signing in (also the cookie's lifetime).
pub const IDLE_DAYS: i64 = 90;

/// Characters of a session secret (letters and digits: 238 bits).
const SECRET_LENGTH: usize = 40;

/// The prefix of a session secret, so one is never taken for an API token or a play pass.
const SECRET_PREFIX: &str = "tps_";

/// Starts a session for `account_id` (inside the caller's transaction); its secret, for the
/// cookie, and its row.
///
/// # Errors
/// [`DbError::Query`].
pub fn start(
    conn: &mut DbConnection,
    account_id: i64,
    label: &str,
) -> Result<(String, BrowserSession), DbError> {
    let secret = format!(
        "{SECRET_PREFIX}{}",
        secrets::random_string(SECRET_LENGTH, secrets::ALNUM)
    );
    let now = db::now();
    let session = q::insert(
        conn,
        &NewBrowserSession {
            account_id,
            secret_hash: &secrets::sha256_hex(&secret),
            label,
            created_at: now,
            last_used_at: now,
        },
    )?;
    Ok((secret, session))
}

/// The live session whose cookie holds `secret`, and its account (noting its use at most once
/// a minute); `None` for an unknown, revoked or idle session.
///
/// # Errors
/// [`DbError::Query`].
pub fn resolve(
    conn: &mut DbConnection,
    secret: &str,
) -> Result<Option<(BrowserSession, Account)>, DbError> {
    if !secret.starts_with(SECRET_PREFIX) || secret.len() != SECRET_PREFIX.len() + SECRET_LENGTH {
        return Ok(None);
    }
    let Some((session, account)) = q::by_hash(conn, &secrets::sha256_hex(secret))? else {
        return Ok(None);
    };
    let now = db::now();
    let idle = now.signed_duration_since(session.last_used_at);
    if idle > Duration::days(IDLE_DAYS) {
        q::delete(conn, session.account_id, session.id)?;
        return Ok(None);
    }
    if idle > Duration::minutes(1) {
        q::touch(conn, session.id, now)?;
    }
    Ok(Some((session, account)))
}

/// The account's sessions, newest first.
///
/// # Errors
/// [`DbError::Query`].
pub fn list(conn: &mut DbConnection, account_id: i64) -> Result<Vec<BrowserSession>, DbError> {
    q::list(conn, account_id)
}

/// Signs one of the account's browsers out; false if it has no such session.
///
/// # Errors
/// [`DbError::Query`].
pub fn revoke(conn: &mut DbConnection, account_id: i64, session_id: i64) -> Result<bool, DbError> {
    q::delete(conn, account_id, session_id)
}

/// Signs every browser of the account out; how many were signed in. Its play links and the
/// play cookies they left in browsers end too, in the same transaction
/// ([`db::accounts::revoke_play_links`]): a play cookie plays a seat without a session, and
/// "everywhere" must reach the browser that holds one (a lost laptop).
///
/// # Errors
/// [`DbError::Query`].
pub fn revoke_all(conn: &mut DbConnection, account_id: i64) -> Result<usize, DbError> {
    db::transaction::write_with(conn, |conn| {
        let count = q::delete_all(conn, account_id)?;
        db::accounts::revoke_play_links(conn, account_id)?;
        Ok(count)
    })
}

/// Browsers by a marker of their `User-Agent`, first match wins: Edge and Opera also say
/// Chrome, and Chrome also says Safari.
const BROWSERS: &[(&str, &str)] = &[
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Firefox/", "Firefox"),
    ("Chromium/", "Chromium"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
];

/// Systems likewise: Android says Linux, and iPhones say Mac OS X.
const SYSTEMS: &[(&str, &str)] = &[
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
];

/// The name of the first of `known` whose marker `user_agent` contains.
fn first_named(user_agent: &str, known: &[(&str, &'static str)]) -> Option<&'static str> {
    known
        .iter()
        .find(|(marker, _)| user_agent.contains(marker))
        .map(|&(_, name)| name)
}

/// A short name for a browser from its `User-Agent` ("Chrome on Android"), for the list of
/// sessions; the start of the text itself when it names no browser known here.
#[must_use]
pub fn label_of_user_agent(user_agent: &str) -> String {
    let browser = first_named(user_agent, BROWSERS);
    let system = first_named(user_agent, SYSTEMS);
    match (browser, system) {
        (Some(browser), Some(system)) => format!("{browser} on {system}"),
        (Some(name), None) | (None, Some(name)) => name.to_owned(),
        (None, None) => {
            let start: String = user_agent
                .chars()
                .filter(|c| !c.is_control())
                .take(40)
                .collect();
            if start.trim().is_empty() {
                "a browser".to_owned()
            } else {
                start
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::label_of_user_agent;

    #[test]
    fn user_agents_get_short_labels() {
        let phone =
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) \
                     Chrome/126.0.0.0 Mobile Safari/537.36";
        assert_eq!(label_of_user_agent(phone), "Chrome on Android");
        let mac = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like \
                   Gecko) Version/17.5 Safari/605.1.15";
        assert_eq!(label_of_user_agent(mac), "Safari on macOS");
        let firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
        assert_eq!(label_of_user_agent(firefox), "Firefox on Linux");
        assert_eq!(label_of_user_agent("curl/8.5.0"), "curl/8.5.0");
        assert_eq!(label_of_user_agent(""), "a browser");
    }
}
