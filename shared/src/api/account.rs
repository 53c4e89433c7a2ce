//! Signing up, signing in with a one-time code, and the account itself.

use serde::{Deserialize, Serialize};

/// Declares a request body that carries an account's e-mail address, written like a struct in
/// which `email` takes only its doc comment: the macro adds what every request derives and the
/// address's schema (length, pattern, example), written here once for all of them.
macro_rules! request_with_email {
    ($(#[doc = $doc:literal])* pub struct $name:ident { $($fields:tt)* }) => {
        request_with_email!(@fields [$(#[doc = $doc])*] $name [] $($fields)*);
    };
    (@fields $docs:tt $name:ident [$($done:tt)*]
        $(#[doc = $field_doc:literal])* pub email: String, $($rest:tt)*) => {
        request_with_email!(@fields $docs $name [$($done)*
            $(#[doc = $field_doc])*
            #[cfg_attr(
                feature = "openapi",
                schema(
                    min_length = 3,
                    max_length = 254,
                    // An ASCII address as the server takes it (others only when its relay
                    // speaks SMTPUTF8): a dot-atom local part (RFC 5322 atext, single inner
                    // dots) of at most 64 characters (RFC 5321), and a domain of dotted labels
                    // of 1–63 letters, digits and inner hyphens. The length bound is written
                    // out as up to three dots with pieces short enough (no lookahead: data
                    // generators for JSON Schema cannot draw from one); the server also takes
                    // the rarer local parts with more dots.
                    pattern = r#"^(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]{1,64}|[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]{1,31}\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]{1,32}|[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]{1,20}\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]{1,20}\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]{1,22}|[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]{1,15}(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]{1,15}){3})@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$"#,
                    example = "anna@example.org"
                )
            )]
            pub email: String,
        ] $($rest)*);
    };
    (@fields $docs:tt $name:ident [$($done:tt)*]
        $(#[$attr:meta])* pub $field:ident: $ty:ty, $($rest:tt)*) => {
        request_with_email!(@fields $docs $name [$($done)* $(#[$attr])* pub $field: $ty,] $($rest)*);
    };
    (@fields [$($docs:tt)*] $name:ident [$($done:tt)*]) => {
        $($docs)*
        #[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
        #[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
        #[serde(deny_unknown_fields)]
        pub struct $name { $($done)* }
    };
}

request_with_email! {
    /// `POST /v1/accounts`: sign up; a one-time code is mailed to `email`.
    pub struct SignUpRequest {
        /// 2–32 letters, digits, `-` or `_`; unique regardless of case.
        #[cfg_attr(
            feature = "openapi",
            schema(
                min_length = 2,
                max_length = 32,
                pattern = r"^[A-Za-z0-9_-]+$",
                example = "anna"
            )
        )]
        pub name: String,
        /// Where codes and turn emails go.
        pub email: String,
    }
}

request_with_email! {
    /// `POST /v1/sessions`: ask for a one-time sign-in code by email.
    pub struct SignInRequest {
        /// The account's email address.
        pub email: String,
    }
}

request_with_email! {
    /// `POST /v1/sessions/verify`: trade a one-time code for a personal API token.
    pub struct VerifyRequest {
        /// The account's email address.
        pub email: String,
        /// The code from the email (case and spaces or dashes do not matter).
        #[cfg_attr(feature = "openapi", schema(max_length = 64, example = "K7QX2MRD"))]
        pub code: String,
        /// A label for the token, e.g. the machine it is used on: at most 64 characters, no
        /// control characters (trimmed when stored).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(
            feature = "openapi",
            schema(max_length = 64, pattern = r"^[^\u0000-\u001f\u007f-\u009f]*$")
        )]
        pub label: Option<String>,
    }
}

/// Answer to sign-up and sign-in: a code is on its way (sign-in answers the same whether or not
/// the address has an account).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CodeSent {
    /// Always `"code_sent"`.
    pub status: String,
    /// How long the code stays valid.
    pub expires_in_seconds: u64,
}

/// A player account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Account {
    /// Account id.
    pub id: i64,
    /// Name as the player spelled it.
    pub name: String,
    /// Verified email address.
    pub email: String,
    /// When the account was created.
    pub created_at: String,
}
