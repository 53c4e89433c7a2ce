//! The server's VAPID key pair (RFC 8292): made by whichever process asks first and kept in
//! `server_secrets` with the other keys; its public half is the `applicationServerKey` the
//! pages subscribe with, and every push request carries a JWT it signs.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use p256::ecdsa::signature::Signer as _;
use p256::ecdsa::{Signature, SigningKey};
use p256::elliptic_curve::sec1::ToEncodedPoint as _;

use crate::db::{server_secrets, DbConnection, DbError};

/// The key's name in `server_secrets` (its value: the private scalar, base64url).
pub const VAPID_KEY_NAME: &str = "vapid_private_key";

/// How long a signed JWT is valid: RFC 8292 allows at most 24 hours; 12 leaves room for
/// clocks that differ.
pub const JWT_VALID_FOR: chrono::TimeDelta = chrono::TimeDelta::hours(12);

/// The key pair.
#[derive(Clone)]
pub struct VapidKey {
    signing: SigningKey,
    public: String,
}

impl std::fmt::Debug for VapidKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the private half.
        f.debug_struct("VapidKey")
            .field("public", &self.public)
            .finish_non_exhaustive()
    }
}

impl VapidKey {
    /// The server's key pair, made and stored on the first start.
    ///
    /// # Errors
    /// Storage failures; [`DbError::Corrupt`] when the stored key cannot be read.
    pub fn load(conn: &mut DbConnection) -> Result<Self, DbError> {
        let stored = server_secrets::get_or_create(conn, VAPID_KEY_NAME, &fresh_scalar())?;
        let bytes = URL_SAFE_NO_PAD
            .decode(stored.trim())
            .map_err(|error| DbError::Corrupt(format!("{VAPID_KEY_NAME}: {error}")))?;
        let secret = p256::SecretKey::from_slice(&bytes)
            .map_err(|_| DbError::Corrupt(format!("{VAPID_KEY_NAME} is not a P-256 key")))?;
        let public = URL_SAFE_NO_PAD.encode(secret.public_key().to_encoded_point(false));
        Ok(Self {
            signing: SigningKey::from(secret),
            public,
        })
    }

    /// The public key: the uncompressed point, base64url without padding.
    #[must_use]
    pub fn public_key(&self) -> &str {
        &self.public
    }

    /// The `Authorization` header of a push request to `endpoint`: `vapid t=<JWT>, k=<key>`,
    /// the JWT (ES256) claiming `aud` (the endpoint's origin, its port kept), `exp` and `sub`
    /// (`contact`: a `mailto:` or `https:` URI). `None` for an endpoint without an origin.
    #[must_use]
    pub fn authorization(
        &self,
        endpoint: &url::Url,
        contact: &str,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Option<String> {
        let origin = endpoint.origin();
        if !origin.is_tuple() {
            return None;
        }
        let header = URL_SAFE_NO_PAD.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = serde_json::json!({
            "aud": origin.ascii_serialization(),
            "exp": (now + JWT_VALID_FOR).timestamp(),
            "sub": contact,
        });
        let claims = URL_SAFE_NO_PAD.encode(claims.to_string());
        let signed = format!("{header}.{claims}");
        let signature: Signature = self.signing.sign(signed.as_bytes());
        let signature = URL_SAFE_NO_PAD.encode(signature.to_bytes());
        Some(format!("vapid t={signed}.{signature}, k={}", self.public))
    }
}

/// A new private scalar, base64url: 32 random bytes (the OS generator, through `secrets`),
/// drawn again in the rare case they are not a valid scalar (zero, or not below the order).
fn fresh_scalar() -> String {
    loop {
        let hex = crate::secrets::random_string(64, b"0123456789abcdef");
        if let Some(bytes) = crate::secrets::unhex(&hex) {
            if p256::SecretKey::from_slice(&bytes).is_ok() {
                return URL_SAFE_NO_PAD.encode(bytes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use p256::ecdsa::signature::Verifier as _;
    use p256::ecdsa::VerifyingKey;

    use super::*;

    #[test]
    fn the_jwt_verifies_with_the_public_key_and_names_the_origin() {
        let secret = p256::SecretKey::from_slice(&[7u8; 32]).unwrap();
        let key = VapidKey {
            public: URL_SAFE_NO_PAD.encode(secret.public_key().to_encoded_point(false)),
            signing: SigningKey::from(secret),
        };
        let endpoint = url::Url::parse("http://127.0.0.1:4567/push/abc").unwrap();
        let header = key
            .authorization(&endpoint, "mailto:ops@example.org", chrono::Utc::now())
            .unwrap();
        let (token, k) = header
            .strip_prefix("vapid t=")
            .unwrap()
            .split_once(", k=")
            .unwrap();
        assert_eq!(k, key.public_key());
        let (signed, signature) = token.rsplit_once('.').unwrap();
        let claims = signed.split('.').nth(1).unwrap();
        let claims: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(claims).unwrap()).unwrap();
        assert_eq!(claims["aud"], "http://127.0.0.1:4567");
        assert_eq!(claims["sub"], "mailto:ops@example.org");
        let point = URL_SAFE_NO_PAD.decode(k).unwrap();
        let verifying = VerifyingKey::from_sec1_bytes(&point).unwrap();
        let signature = Signature::from_slice(&URL_SAFE_NO_PAD.decode(signature).unwrap()).unwrap();
        assert!(verifying.verify(signed.as_bytes(), &signature).is_ok());
        assert!(verifying.verify(b"other", &signature).is_err());
    }
}
