//! Random secrets and their hashes: API tokens, one-time codes, Message-IDs.

use sha2::{Digest, Sha256};

/// Letters and digits.
pub const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/// Lower-case letters and digits.
pub const LOWER_ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
/// Code alphabet without look-alikes (no 0/O, 1/I/L, U/V).
pub const CODE_ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTWXYZ";
/// Length of one-time codes.
pub const CODE_LENGTH: usize = 8;
/// Prefix of API tokens.
pub const TOKEN_PREFIX: &str = "tp_";

/// `len` characters drawn uniformly from `alphabet` (at most 256 symbols) with the OS's
/// cryptographic generator.
#[must_use]
pub fn random_string(len: usize, alphabet: &[u8]) -> String {
    let n = alphabet.len().clamp(1, 256);
    // Rejection sampling: accept bytes below the largest multiple of n.
    let limit = 256 - (256 % n);
    let mut out = String::with_capacity(len);
    let mut buf = [0u8; 64];
    while out.len() < len {
        if getrandom::fill(&mut buf).is_err() {
            // The OS generator does not fail on supported platforms; fall back to a slower
            // source rather than produce a weak secret.
            fallback_fill(&mut buf);
        }
        for &b in &buf {
            if usize::from(b) < limit && out.len() < len {
                out.push(char::from(alphabet[usize::from(b) % n]));
            }
        }
    }
    out
}

fn fallback_fill(buf: &mut [u8]) {
    // Hash of time and address entropy; only reached if getrandom fails.
    let mut hasher = Sha256::new();
    hasher.update(format!("{:?}{:p}", std::time::SystemTime::now(), buf.as_ptr()).as_bytes());
    let digest = hasher.finalize();
    for (i, b) in buf.iter_mut().enumerate() {
        *b = digest[i % digest.len()];
    }
}

/// A new API token: `tp_` + 32 letters and digits.
#[must_use]
pub fn new_token() -> String {
    format!("{TOKEN_PREFIX}{}", random_string(32, ALNUM))
}

/// A new one-time code.
#[must_use]
pub fn new_code() -> String {
    random_string(CODE_LENGTH, CODE_ALPHABET)
}

/// Normalises a code as typed: upper case, spaces and dashes removed.
#[must_use]
pub fn normalize_code(typed: &str) -> String {
    typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_uppercase)
        .collect()
}

/// Hex SHA-256.
#[must_use]
pub fn sha256_hex(input: &str) -> String {
    hex(&Sha256::digest(input.as_bytes()))
}

/// Bytes as lower-case hex.
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hex text as bytes; `None` for anything else (odd length, other characters).
#[must_use]
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| {
            text.get(i..i + 2)
                .and_then(|pair| u8::from_str_radix(pair, 16).ok())
        })
        .collect()
}

/// Stored hash of a one-time code, bound to its account.
#[must_use]
pub fn code_hash(account_id: i64, code: &str) -> String {
    sha256_hex(&format!("turnpost-code:{account_id}:{code}"))
}

/// Compares two strings in time independent of where they differ.
#[must_use]
pub fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_codes_have_their_shape() {
        let token = new_token();
        assert!(token.starts_with("tp_") && token.len() == 35, "{token}");
        assert!(token[3..].bytes().all(|b| b.is_ascii_alphanumeric()));
        let code = new_code();
        assert_eq!(code.len(), 8);
        assert!(code.bytes().all(|b| CODE_ALPHABET.contains(&b)));
        assert_ne!(new_token(), new_token());
    }

    #[test]
    fn codes_normalise() {
        assert_eq!(normalize_code(" abcd-ef 23 "), "ABCDEF23");
        assert!(constant_time_eq("abc", "abc"));
        assert!(!constant_time_eq("abc", "abd"));
    }
}
