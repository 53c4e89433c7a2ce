//! Play links: the personal "play in your browser" link of every turn card.
//!
//! A link names one seat of one game and its player: `/games/{game}/play/{seat}.{account}.{sig}`,
//! where `sig` is an HMAC-SHA256 (truncated to 128 bits) of game, seat, account and the
//! account's link generation, under the key that also signs unsubscribe links (with its own
//! prefix, so one kind of signature never passes for the other). So the link is computable when
//! a mail is composed, from (game, seat, account) and the server's key alone, and no table of
//! links is kept. Following it stores the same pass in a cookie; every request re-checks it:
//! - the game must still be active (the link stops working when the game ends),
//! - the seat must still be held by that account,
//! - the account's link generation must be the one signed: revoking any of the account's API
//!   tokens increments it (`db::tokens::delete`), and so does signing out everywhere
//!   (`crate::browser_sessions::revoke_all`), which revokes every link and cookie issued
//!   before.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::db::DbConnection;
use crate::games::{GameError, GameStatus, GameWithSeats};

type Signer = Hmac<Sha256>;

/// Bytes of the signature kept in links (128 bits: unguessable, and short enough for mail).
const SIG_BYTES: usize = 16;

/// A play pass as read from a link or cookie, not yet checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayPass {
    /// The seat it plays.
    pub seat: i32,
    /// The account holding the seat.
    pub account_id: i64,
    /// The signature, as bytes.
    sig: Vec<u8>,
}

/// Why a pass does not let anyone play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassRefused {
    /// Malformed, forged, for another game, for a seat the account no longer holds, or revoked
    /// (with the account's tokens, or by signing out everywhere).
    Invalid,
    /// The game is not being played (over, or never started).
    NotActive,
}

impl PassRefused {
    /// A sentence for the page.
    #[must_use]
    pub fn message(self) -> &'static str {
        match self {
            Self::Invalid => {
                "this play link is not valid (or was revoked, with your API tokens or by signing \
                 out everywhere); use the link in your latest turn mail"
            }
            Self::NotActive => "this game is not being played, so its play links no longer work",
        }
    }
}

fn mac(key: &[u8], game_id: i64, seat: i32, account_id: i64, generation: i32) -> Option<Signer> {
    let mut mac = Signer::new_from_slice(key).ok()?;
    mac.update(format!("play-link:{game_id}:{seat}:{account_id}:{generation}").as_bytes());
    Some(mac)
}

use crate::secrets::hex;

/// A signature as links carry it: exactly [`SIG_BYTES`] bytes in hex.
fn unhex(text: &str) -> Option<Vec<u8>> {
    crate::secrets::unhex(text).filter(|bytes| bytes.len() == SIG_BYTES)
}

/// The pass text (`{seat}.{account}.{sig}`) for a seat of a game.
#[must_use]
pub fn pass_text(key: &[u8], game_id: i64, seat: i32, account_id: i64, generation: i32) -> String {
    let sig = mac(key, game_id, seat, account_id, generation)
        .map(|mac| {
            let bytes = mac.finalize().into_bytes();
            hex(bytes.get(..SIG_BYTES).unwrap_or_default())
        })
        .unwrap_or_default();
    format!("{seat}.{account_id}.{sig}")
}

/// The play link of a seat of a game.
#[must_use]
pub fn link(
    public_url: &str,
    key: &[u8],
    game_id: i64,
    seat: i32,
    account_id: i64,
    generation: i32,
) -> String {
    format!(
        "{}/games/{game_id}/play/{}",
        public_url.trim_end_matches('/'),
        pass_text(key, game_id, seat, account_id, generation)
    )
}

/// Reads a pass text; `None` when it is not of the shape links have, spelled as
/// [`pass_text`] spells it (numbers without sign or leading zero, the signature in lower-case
/// hex): one secret has one spelling, in logs and caches as in the cookie.
#[must_use]
pub fn parse(text: &str) -> Option<PlayPass> {
    let mut parts = text.split('.');
    let seat: i32 = parts.next()?.parse().ok()?;
    let account_id: i64 = parts.next()?.parse().ok()?;
    let sig = unhex(parts.next()?)?;
    if parts.next().is_some() {
        return None;
    }
    if text != format!("{seat}.{account_id}.{}", hex(&sig)) {
        return None;
    }
    Some(PlayPass {
        seat,
        account_id,
        sig,
    })
}

/// Checks a pass against the game as it stands (read from `loaded`).
///
/// # Errors
/// [`PassRefused`].
pub fn check(key: &[u8], loaded: &GameWithSeats, pass: &PlayPass) -> Result<(), PassRefused> {
    let holder = loaded
        .seats
        .iter()
        .find(|(seat, account)| seat.seat == pass.seat && account.id == pass.account_id)
        .map(|(_, account)| account)
        .ok_or(PassRefused::Invalid)?;
    let mac = mac(
        key,
        loaded.game.id,
        pass.seat,
        pass.account_id,
        holder.link_generation,
    )
    .ok_or(PassRefused::Invalid)?;
    mac.verify_truncated_left(&pass.sig)
        .map_err(|_| PassRefused::Invalid)?;
    if loaded.game.status == GameStatus::Active {
        Ok(())
    } else {
        Err(PassRefused::NotActive)
    }
}

/// Reads game `game_id` and checks `text` against it.
///
/// # Errors
/// `Ok(Err(..))` for a refused pass; `Err` for an unknown game or storage failures.
pub fn verify(
    conn: &mut DbConnection,
    key: &[u8],
    game_id: i64,
    text: &str,
) -> Result<Result<PlayPass, PassRefused>, GameError> {
    let Some(pass) = parse(text) else {
        return Ok(Err(PassRefused::Invalid));
    };
    let loaded = crate::games::reads::loaded(conn, game_id)?;
    Ok(check(key, &loaded, &pass).map(|()| pass))
}

/// The CSRF token of forms posted with a pass: an HMAC of the pass, so a page of another site
/// cannot make it, and it changes when the pass does.
#[must_use]
pub fn csrf_token(key: &[u8], pass_text: &str) -> String {
    Signer::new_from_slice(key)
        .map(|mut mac| {
            mac.update(format!("play-csrf:{pass_text}").as_bytes());
            let bytes = mac.finalize().into_bytes();
            hex(bytes.get(..SIG_BYTES).unwrap_or_default())
        })
        .unwrap_or_default()
}

/// Whether `token` is the CSRF token of `pass_text` (compared in constant time).
#[must_use]
pub fn csrf_matches(key: &[u8], pass_text: &str, token: &str) -> bool {
    let Some(bytes) = unhex(token) else {
        return false;
    };
    Signer::new_from_slice(key).is_ok_and(|mut mac| {
        mac.update(format!("play-csrf:{pass_text}").as_bytes());
        mac.verify_truncated_left(&bytes).is_ok()
    })
}

/// The start of every play cookie's name.
pub const COOKIE_PREFIX: &str = "tp_play_";

/// The cookie holding a game's pass (one per game, so a browser can hold passes of several).
#[must_use]
pub fn cookie_name(game_id: i64) -> String {
    format!("{COOKIE_PREFIX}{game_id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_text_round_trips_and_rejects_damage() {
        let text = pass_text(b"key", 7, 2, 31, 0);
        let pass = parse(&text);
        assert_eq!(pass.as_ref().map(|p| (p.seat, p.account_id)), Some((2, 31)));
        assert!(parse("2.31").is_none());
        assert!(parse("2.31.zz").is_none());
        assert!(parse(&format!("{text}.x")).is_none());
        assert_ne!(text, pass_text(b"key", 7, 2, 31, 1), "generation is signed");
        assert_ne!(text, pass_text(b"key", 8, 2, 31, 0), "game is signed");
    }

    #[test]
    fn only_the_canonical_spelling_is_read() {
        let text = pass_text(b"key", 7, 2, 31, 0);
        let sig = text.rsplit('.').next().unwrap();
        assert!(sig.chars().any(|c| c.is_ascii_lowercase()), "{sig}");
        assert!(parse(&text).is_some());
        for respelt in [
            format!("2.31.{}", sig.to_ascii_uppercase()),
            format!("02.31.{sig}"),
            format!("+2.31.{sig}"),
            format!("2.031.{sig}"),
            format!("2.+31.{sig}"),
            format!("-0.31.{sig}"),
        ] {
            assert_eq!(parse(&respelt), None, "{respelt}");
        }
    }

    #[test]
    fn csrf_tokens_belong_to_their_pass() {
        let token = csrf_token(b"key", "1.2.ab");
        assert!(csrf_matches(b"key", "1.2.ab", &token));
        assert!(!csrf_matches(b"key", "1.3.ab", &token));
        assert!(!csrf_matches(b"key", "1.2.ab", "nothex"));
    }
}
