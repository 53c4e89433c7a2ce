//! Reply keys: the part of a reply address that names one seat of one game and the position the
//! mail showed. An address's token is `<key>g<game>s<seat>p<ply>`, where the key is 26 lower-case
//! base32 characters (130 bits) of HMAC-SHA256(server secret, "reply-v2" | game | seat | ply |
//! account | the account's link generation).
//!
//! The key is derived, not drawn and stored: whoever composes a mail (a request, a sweep, the
//! mail worker) can write the address without a table, and a reply is checked by deriving the
//! key again for the seat's account and comparing in constant time. Nothing secret is stored
//! per seat at all (the secret lives in `server_secrets`, like the unsubscribe key); without
//! the secret no key can be made or guessed.
//! - The ply is signed: it is the ply guard of a move sent by mail, so an old card's address
//!   with its ply edited to the game's current one must not play.
//! - The account's link generation is signed, as in play links (`crate::play_link`): revoking
//!   any of the account's API tokens (and so `turnpost logout`) increments it, which revokes
//!   every reply address sent before.
//!
//! A tournament's announcement carries a second kind of key ([`EntryHolder`]): the token
//! `<key>t<tournament>a<account>`, the key over "entry-v1" | tournament | account | the
//! account's link generation. The letter after the key (`g` or `t`) and the signed prefix both
//! differ, so a game key never reads or checks as a tournament key, nor the other way round.
//!
//! Addresses of cards sent before the ply was signed (keys over game, seat and account only)
//! are recognised as such ([`KeyCheck::Outdated`]): they no longer act, and the handler answers
//! their player that the card is outdated, with the board as it is and a fresh address.

use std::sync::Arc;

use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::ReplyAddressTemplate;
use crate::db::{server_secrets, DbConnection, DbError};

/// The name of the key in `server_secrets`.
pub const REPLY_KEY_NAME: &str = "reply-address-key";

/// Characters of the key: 26 base32 characters carry 130 bits.
const KEY_CHARS: usize = 26;

const BASE32: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";

/// Makes and checks reply addresses.
#[derive(Clone)]
pub struct ReplyKeys {
    template: ReplyAddressTemplate,
    secret: Arc<[u8]>,
}

impl std::fmt::Debug for ReplyKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplyKeys")
            .field("template", &self.template.to_string())
            .finish_non_exhaustive()
    }
}

/// What a reply address says, read but not yet checked against the seat's account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplyToken {
    /// The game.
    pub game_id: i64,
    /// The seat.
    pub seat: i32,
    /// The ply the mail showed.
    pub ply: i32,
    key: String,
}

/// Whom a reply address is for: a seat of a game, the account holding it, and that account's
/// link generation (see [`crate::play_link`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatHolder {
    /// The game.
    pub game_id: i64,
    /// The seat.
    pub seat: i32,
    /// The account holding the seat.
    pub account_id: i64,
    /// The account's link generation.
    pub generation: i32,
}

/// What a reply key turned out to be, for the seat's account.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyCheck {
    /// The key of this game, seat, ply, account and generation.
    Valid,
    /// The key of a card sent before plies were signed, for this seat's account: genuine, but
    /// its ply may have been edited, so it no longer acts.
    Outdated,
    /// Forged, for another account, or revoked with the account's tokens.
    Wrong,
}

/// Whom a tournament's reply address is for: the invited account at its link generation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryHolder {
    /// The tournament.
    pub tournament_id: i64,
    /// The invited account.
    pub account_id: i64,
    /// The account's link generation.
    pub generation: i32,
}

/// What a tournament's reply address says, read but not yet checked against the account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryToken {
    /// The tournament.
    pub tournament_id: i64,
    /// The account it was sent to.
    pub account_id: i64,
    key: String,
}

/// One of our reply addresses, read: a game mail's or a tournament announcement's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplyTarget {
    /// A seat of a game.
    Game(ReplyToken),
    /// An invitation to a tournament.
    Tournament(EntryToken),
}

/// The secret reply keys are derived from, made by the first process that needs it.
///
/// # Errors
/// Storage failures.
pub fn load_secret(conn: &mut DbConnection) -> Result<Vec<u8>, DbError> {
    let fresh = crate::secrets::random_string(48, crate::secrets::LOWER_ALNUM);
    Ok(server_secrets::get_or_create(conn, REPLY_KEY_NAME, &fresh)?.into_bytes())
}

fn base32(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 8 / 5 + 1);
    let mut buffer: u32 = 0;
    let mut bits = 0;
    for &byte in bytes {
        buffer = (buffer << 8) | u32::from(byte);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            let index = usize::try_from((buffer >> bits) & 31).unwrap_or(0);
            out.push(char::from(BASE32.get(index).copied().unwrap_or(b'a')));
        }
    }
    out
}

/// Reads the decimal number at the start of `text`; answers it and the rest.
fn number(text: &str) -> Option<(i64, &str)> {
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let digits = text.get(..end).filter(|d| !d.is_empty() && d.len() <= 18)?;
    Some((digits.parse().ok()?, text.get(end..)?))
}

impl ReplyKeys {
    /// The keys `config` asks for, under the secret in the database (made on first use).
    ///
    /// # Errors
    /// A bad template; storage failures.
    pub fn load(conn: &mut DbConnection, config: &crate::config::Config) -> anyhow::Result<Self> {
        let template = super::reply_template(config)?;
        Ok(Self::new(template, load_secret(conn)?.into()))
    }

    /// Keys under `secret`, addresses from `template`.
    #[must_use]
    pub fn new(template: ReplyAddressTemplate, secret: Arc<[u8]>) -> Self {
        Self { template, secret }
    }

    /// The address template.
    #[must_use]
    pub fn template(&self) -> &ReplyAddressTemplate {
        &self.template
    }

    fn mac(&self, message: &str) -> String {
        let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(&self.secret) else {
            return String::new();
        };
        mac.update(message.as_bytes());
        let digest = mac.finalize().into_bytes();
        let mut key = base32(&digest);
        key.truncate(KEY_CHARS);
        key
    }

    fn key(&self, seat: &SeatHolder, ply: i32) -> String {
        let SeatHolder {
            game_id,
            seat,
            account_id,
            generation,
        } = seat;
        self.mac(&format!(
            "reply-v2|{game_id}|{seat}|{ply}|{account_id}|{generation}"
        ))
    }

    /// The key of cards sent before plies were signed.
    fn outdated_key(&self, game_id: i64, seat: i32, account_id: i64) -> String {
        self.mac(&format!("reply|{game_id}|{seat}|{account_id}"))
    }

    /// The reply address of `seat`, for a mail showing the game at `ply`.
    #[must_use]
    pub fn address(&self, seat: &SeatHolder, ply: i32) -> String {
        let key = self.key(seat, ply);
        let SeatHolder { game_id, seat, .. } = seat;
        self.template
            .address_for(&format!("{key}g{game_id}s{seat}p{ply}"))
    }

    /// The key of the token in `address` and the token's rest after `kind` (`g` a game's,
    /// `t` a tournament's), if it is one of our reply addresses with a token of that kind.
    fn keyed_token(&self, address: &str, kind: char) -> Option<(String, String)> {
        let token = self.template.key_in(address)?;
        let key = token.get(..KEY_CHARS)?.to_owned();
        let rest = token.get(KEY_CHARS..)?.strip_prefix(kind)?.to_owned();
        Some((key, rest))
    }

    /// The token in `address`, if it is one of our reply addresses with a well-formed token.
    #[must_use]
    pub fn token_in(&self, address: &str) -> Option<ReplyToken> {
        let (key, rest) = self.keyed_token(address, 'g')?;
        let (game_id, rest) = number(&rest)?;
        let (seat, rest) = number(rest.strip_prefix('s')?)?;
        let (ply, rest) = number(rest.strip_prefix('p')?)?;
        if !rest.is_empty() {
            return None;
        }
        Some(ReplyToken {
            game_id,
            seat: i32::try_from(seat).ok()?,
            ply: i32::try_from(ply).ok()?,
            key,
        })
    }

    fn entry_key(&self, holder: &EntryHolder) -> String {
        let EntryHolder {
            tournament_id,
            account_id,
            generation,
        } = holder;
        self.mac(&format!(
            "entry-v1|{tournament_id}|{account_id}|{generation}"
        ))
    }

    /// The reply address of a tournament announcement to `holder`'s account.
    #[must_use]
    pub fn entry_address(&self, holder: &EntryHolder) -> String {
        let key = self.entry_key(holder);
        self.template.address_for(&format!(
            "{key}t{}a{}",
            holder.tournament_id, holder.account_id
        ))
    }

    /// The tournament token in `address`, if it is one of our reply addresses with a
    /// well-formed tournament token.
    #[must_use]
    pub fn entry_token_in(&self, address: &str) -> Option<EntryToken> {
        let (key, rest) = self.keyed_token(address, 't')?;
        let (tournament_id, rest) = number(&rest)?;
        let (account_id, rest) = number(rest.strip_prefix('a')?)?;
        if !rest.is_empty() {
            return None;
        }
        Some(EntryToken {
            tournament_id,
            account_id,
            key,
        })
    }

    /// What `address` is, if it is one of our reply addresses: a game's or a tournament's.
    #[must_use]
    pub fn target_in(&self, address: &str) -> Option<ReplyTarget> {
        self.token_in(address)
            .map(ReplyTarget::Game)
            .or_else(|| self.entry_token_in(address).map(ReplyTarget::Tournament))
    }

    /// Whether `token`'s key is the one of its tournament for its account at `generation`.
    #[must_use]
    pub fn check_entry(&self, token: &EntryToken, generation: i32) -> bool {
        let expected = self.entry_key(&EntryHolder {
            tournament_id: token.tournament_id,
            account_id: token.account_id,
            generation,
        });
        !expected.is_empty() && crate::secrets::constant_time_eq(&expected, &token.key)
    }

    /// Whether `token`'s key is the one of its game, seat and ply for the account holding the
    /// seat at its link generation.
    #[must_use]
    pub fn check(&self, token: &ReplyToken, account_id: i64, generation: i32) -> KeyCheck {
        let holder = SeatHolder {
            game_id: token.game_id,
            seat: token.seat,
            account_id,
            generation,
        };
        let matches = |expected: String| {
            !expected.is_empty() && crate::secrets::constant_time_eq(&expected, &token.key)
        };
        if matches(self.key(&holder, token.ply)) {
            KeyCheck::Valid
        } else if matches(self.outdated_key(token.game_id, token.seat, account_id)) {
            KeyCheck::Outdated
        } else {
            KeyCheck::Wrong
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    fn keys(secret: &[u8]) -> ReplyKeys {
        ReplyKeys::new(
            ReplyAddressTemplate::parse("games+%{key}@example.org").unwrap(),
            secret.into(),
        )
    }

    fn holder(game_id: i64, seat: i32, account_id: i64, generation: i32) -> SeatHolder {
        SeatHolder {
            game_id,
            seat,
            account_id,
            generation,
        }
    }

    #[test]
    fn addresses_name_the_seat_and_ply_and_check_the_account() {
        let keys = keys(b"secret");
        let address = keys.address(&holder(42, 2, 7, 0), 13);
        assert!(address.starts_with("games+") && address.ends_with("g42s2p13@example.org"));
        let token = keys.token_in(&address.to_uppercase()).unwrap();
        assert_eq!((token.game_id, token.seat, token.ply), (42, 2, 13));
        assert_eq!(keys.check(&token, 7, 0), KeyCheck::Valid);
        assert_eq!(
            keys.check(&token, 8, 0),
            KeyCheck::Wrong,
            "another account's key"
        );
        // Another seat, or another secret: a different key.
        let other_seat = keys
            .token_in(&keys.address(&holder(42, 1, 7, 0), 13))
            .unwrap();
        assert_ne!(other_seat.key, token.key);
        let forged = ReplyToken {
            seat: 1,
            ..token.clone()
        };
        assert_eq!(keys.check(&forged, 7, 0), KeyCheck::Wrong);
        assert_eq!(self::keys(b"other").check(&token, 7, 0), KeyCheck::Wrong);
        assert_eq!(token.key.len(), KEY_CHARS);
    }

    #[test]
    fn the_ply_and_the_link_generation_are_signed() {
        let keys = keys(b"secret");
        let old_card = keys
            .token_in(&keys.address(&holder(42, 2, 7, 0), 3))
            .unwrap();
        // The old card's address with its ply edited to the game's current one.
        let edited = keys
            .token_in(&keys.address(&holder(42, 2, 7, 0), 3).replace("p3@", "p5@"))
            .unwrap();
        assert_eq!(edited.ply, 5);
        assert_eq!(keys.check(&edited, 7, 0), KeyCheck::Wrong);
        assert_eq!(keys.check(&old_card, 7, 0), KeyCheck::Valid);
        // The account's tokens were revoked since: every earlier address stops working.
        assert_eq!(keys.check(&old_card, 7, 1), KeyCheck::Wrong);
        let fresh = keys
            .token_in(&keys.address(&holder(42, 2, 7, 1), 3))
            .unwrap();
        assert_eq!(keys.check(&fresh, 7, 1), KeyCheck::Valid);
        assert_ne!(fresh.key, old_card.key);
    }

    #[test]
    fn cards_from_before_the_ply_was_signed_are_told_apart() {
        let keys = keys(b"secret");
        let outdated = format!("games+{}g42s2p3@example.org", keys.outdated_key(42, 2, 7));
        let token = keys.token_in(&outdated).unwrap();
        assert_eq!(keys.check(&token, 7, 0), KeyCheck::Outdated);
        assert_eq!(keys.check(&token, 7, 4), KeyCheck::Outdated);
        assert_eq!(
            keys.check(&token, 8, 0),
            KeyCheck::Wrong,
            "another account's"
        );
    }

    #[test]
    fn malformed_tokens_are_not_ours() {
        let keys = keys(b"secret");
        for address in [
            "games+abcdefghijklmnopqrstuvwxyz@example.org",
            "games+abcdefghijklmnopqrstuvwxyzg1s1@example.org",
            "games+abcdefghijklmnopqrstuvwxyzg1s1p2x@example.org",
            "games+abcdefghijklmnopqrstuvwxyzgs1p2@example.org",
            "games+abcdefghijklmnopqrstuvwxyzg99999999999999999999s1p2@example.org",
            "anna@example.org",
        ] {
            assert_eq!(keys.token_in(address), None, "{address}");
        }
    }

    #[test]
    fn tournament_keys_name_the_tournament_and_account_and_never_pass_for_game_keys() {
        let keys = keys(b"secret");
        let invitee = EntryHolder {
            tournament_id: 9,
            account_id: 7,
            generation: 0,
        };
        let address = keys.entry_address(&invitee);
        assert!(address.ends_with("t9a7@example.org"), "{address}");
        let token = keys.entry_token_in(&address.to_uppercase()).unwrap();
        assert_eq!((token.tournament_id, token.account_id), (9, 7));
        assert!(keys.check_entry(&token, 0));
        assert!(
            !keys.check_entry(&token, 1),
            "revoked with the account's tokens"
        );
        assert!(!self::keys(b"other").check_entry(&token, 0));
        // Another account or tournament written into the address: the key no longer fits.
        for edited in [
            address.replace("t9a7@", "t9a8@"),
            address.replace("t9a7@", "t8a7@"),
        ] {
            let token = keys.entry_token_in(&edited).unwrap();
            assert!(!keys.check_entry(&token, 0), "{edited}");
        }
        // Each kind reads only as itself.
        assert_eq!(keys.token_in(&address), None);
        assert_eq!(
            keys.target_in(&address),
            Some(ReplyTarget::Tournament(token.clone()))
        );
        let game = keys.address(&holder(9, 1, 7, 0), 7);
        assert_eq!(keys.entry_token_in(&game), None);
        assert!(matches!(keys.target_in(&game), Some(ReplyTarget::Game(_))));
        // A game key rewritten in the tournament layout does not check as a tournament key.
        let game_key = keys.token_in(&game).unwrap().key;
        let forged = format!("games+{game_key}t9a7@example.org");
        let forged = keys.entry_token_in(&forged).unwrap();
        assert!(!keys.check_entry(&forged, 0));
        for malformed in [
            "games+abcdefghijklmnopqrstuvwxyzt9@example.org",
            "games+abcdefghijklmnopqrstuvwxyzt9a@example.org",
            "games+abcdefghijklmnopqrstuvwxyzt9a7x@example.org",
        ] {
            assert_eq!(keys.target_in(malformed), None, "{malformed}");
        }
    }

    #[test]
    fn base32_is_rfc4648_lower_case() {
        assert_eq!(base32(b"foobar"), "mzxw6ytbo", "whole characters only");
    }
}
