//! The commitment to a game's dice seed: published while the game runs, checked against the
//! seed revealed at its end.

use sha2::{Digest as _, Sha256};

/// The commitment to `seed`: the SHA-256 of the seed's decimal text — the ASCII digits exactly
/// as the option `seed=<u64>` prints them (no sign, no leading zeros, no newline) — in
/// lower-case hex. The same as `printf %s SEED | sha256sum`.
#[must_use]
pub fn seed_commitment(seed: u64) -> String {
    let digest = Sha256::digest(seed.to_string().as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_the_decimal_digits() {
        // `printf %s 0 | sha256sum` and `printf %s 18446744073709551615 | sha256sum`.
        assert_eq!(
            seed_commitment(0),
            "5feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9"
        );
        assert_eq!(
            seed_commitment(u64::MAX),
            "2cdb26265b4dc65e3b44d694f121fd6de99b9e4b8ae7f08d84bfa9537635ae43"
        );
    }
}
