//! The generated OpenAPI document (served at `/v1/openapi.json` and browsable at `/docs`).
//!
//! The API types live in `turnpost-shared`, which stays serde-only; [`schemas`] mirrors them for
//! the document, and a test checks that the mirrors have exactly the fields the real types
//! serialize.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

/// Mirrors of `turnpost_shared` API types, for the document only.
#[allow(dead_code, reason = "documentation-only mirrors, never constructed")]
pub mod schemas {
    use utoipa::ToSchema;

    /// Sign up; a one-time code is mailed.
    #[derive(ToSchema)]
    pub struct SignUpRequest {
        /// 2–32 letters, digits, `-` or `_`; unique regardless of case.
        #[schema(example = "anna")]
        pub name: String,
        /// Email address.
        #[schema(example = "anna@example.org")]
        pub email: String,
    }

    /// Ask for a one-time code.
    #[derive(ToSchema)]
    pub struct SignInRequest {
        /// The account's email address.
        pub email: String,
    }

    /// Trade a code for a token.
    #[derive(ToSchema)]
    pub struct VerifyRequest {
        /// The account's email address.
        pub email: String,
        /// The 8-character code from the email.
        #[schema(example = "K7QX2MRD")]
        pub code: String,
        /// Label for the token.
        pub label: Option<String>,
    }

    /// A code is on its way.
    #[derive(ToSchema)]
    pub struct CodeSent {
        /// `code_sent`.
        pub status: String,
        /// Validity of the code.
        pub expires_in_seconds: u64,
    }

    /// An account.
    #[derive(ToSchema)]
    pub struct Account {
        /// Id.
        pub id: i64,
        /// Name.
        pub name: String,
        /// Email.
        pub email: String,
        /// RFC 3339 UTC.
        pub created_at: String,
    }

    /// A token without its secret.
    #[derive(ToSchema)]
    pub struct TokenInfo {
        /// Id.
        pub id: i64,
        /// Label.
        pub label: String,
        /// RFC 3339 UTC.
        pub created_at: String,
        /// RFC 3339 UTC, to the minute.
        pub last_used_at: Option<String>,
    }

    /// A new token, shown once.
    #[derive(ToSchema)]
    pub struct NewToken {
        /// `tp_` + 32 letters and digits.
        pub token: String,
        /// Listing entry.
        pub info: TokenInfo,
        /// Owner.
        pub account: Account,
    }

    /// Tokens of the account.
    #[derive(ToSchema)]
    pub struct TokenList {
        /// Oldest first.
        pub tokens: Vec<TokenInfo>,
    }

    /// Health.
    #[derive(ToSchema)]
    pub struct Health {
        /// `ok`.
        pub status: String,
        /// `postgres` or `sqlite`.
        pub database: String,
        /// Emails waiting to be delivered (due now or waiting for a retry).
        pub mail_backlog: i64,
        /// Seconds since the oldest of them was queued; `null` when none waits.
        pub oldest_pending_mail_secs: Option<i64>,
    }

    /// A challenge.
    #[derive(ToSchema)]
    pub struct CreateGameRequest {
        /// `kefren`, `kechi`, `sanqi` or `chinese-checkers`.
        #[schema(example = "kefren")]
        pub kind: String,
        /// Options; values may be strings, numbers or booleans.
        pub options: Option<std::collections::BTreeMap<String, String>>,
        /// Account names in turn order; yours among them.
        pub seats: Vec<String>,
        /// `3d` (days per move, 1–30, the default) or `7d+1d/14d` (Fischer bank:
        /// initial+increment/maximum days).
        #[schema(example = "3d")]
        pub clock: Option<String>,
        /// `auto` (running out of time loses; the default) or `claim` (the others may claim).
        pub timeout: Option<String>,
    }

    /// Pause all your clocks.
    #[derive(ToSchema)]
    pub struct VacationRequest {
        /// Days (15 a year).
        pub days: u32,
    }

    /// Category switches.
    #[derive(ToSchema)]
    pub struct CategoriesPatch {
        /// Challenges for you.
        pub challenges: Option<bool>,
        /// Answers to your challenges; game started.
        pub challenge_replies: Option<bool>,
        /// Game over.
        pub game_over: Option<bool>,
        /// Draw offers.
        pub draw_offers: Option<bool>,
        /// Deadline reminders and claim notices.
        pub reminders: Option<bool>,
    }

    /// Change notification preferences; absent fields stay.
    #[derive(ToSchema)]
    pub struct NotificationSettingsPatch {
        /// IANA time zone, e.g. `Europe/Berlin`.
        pub time_zone: Option<String>,
        /// `immediate`, `digest` or `off`.
        pub turn_mail: Option<String>,
        /// Local hour 0–23 of the daily digest.
        pub digest_hour: Option<u8>,
        /// Category switches.
        pub categories: Option<CategoriesPatch>,
        /// Games to mute.
        pub mute: Option<Vec<i64>>,
        /// Games to unmute.
        pub unmute: Option<Vec<i64>>,
    }

    /// A move.
    #[derive(ToSchema)]
    pub struct PlayMoveRequest {
        /// The move in the game's notation.
        #[schema(rename = "move", example = "F2-F3")]
        pub notation: String,
        /// Moves played that the client saw.
        pub ply: u32,
    }

    /// A draw action.
    #[derive(ToSchema)]
    pub struct DrawRequest {
        /// `offer`, `accept` or `decline`.
        pub action: String,
    }

    /// Every error answer.
    #[derive(ToSchema)]
    pub struct ErrorBody {
        /// The error.
        pub error: ErrorDetail,
    }

    /// Code and message.
    #[derive(ToSchema)]
    pub struct ErrorDetail {
        /// Stable snake_case code.
        pub code: String,
        /// Human-readable explanation.
        pub message: String,
    }
}

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("tp_…")
                    .build(),
            ),
        );
    }
}

/// The document.
#[derive(OpenApi)]
#[openapi(
    info(title = "turnpost API", description = "Play-by-mail abstract strategy games. Errors are `{\"error\":{\"code\",\"message\"}}`."),
    paths(
        crate::routes::health::health,
        crate::routes::accounts::create,
        crate::routes::sessions::create,
        crate::routes::sessions::verify,
        crate::routes::me::me,
        crate::routes::tokens::list,
        crate::routes::tokens::revoke,
        crate::routes::games::create::create,
        crate::routes::games::list::list,
        crate::routes::games::show::show,
        crate::routes::games::moves::list,
        crate::routes::games::play::play,
        crate::routes::games::record::record,
        crate::routes::games::board::board,
        crate::routes::games::accept::accept,
        crate::routes::games::decline::decline,
        crate::routes::games::resign::resign,
        crate::routes::games::draw::draw,
        crate::routes::games::claim::claim,
        crate::routes::me::notifications,
        crate::routes::me::update_notifications,
        crate::routes::me::vacation,
        crate::routes::me::take_vacation,
        crate::routes::unsubscribe::page_handler,
        crate::routes::unsubscribe::one_click,
    ),
    components(schemas(
        schemas::SignUpRequest, schemas::SignInRequest, schemas::VerifyRequest, schemas::CodeSent,
        schemas::Account, schemas::TokenInfo, schemas::NewToken, schemas::TokenList, schemas::Health,
        schemas::ErrorBody, schemas::ErrorDetail, schemas::CreateGameRequest,
        schemas::PlayMoveRequest, schemas::DrawRequest, schemas::VacationRequest,
        schemas::CategoriesPatch, schemas::NotificationSettingsPatch
    )),
    modifiers(&BearerAuth),
    tags((name = "accounts", description = "Sign-up, sign-in, tokens"), (name = "games", description = "Challenges, moves, resignation, draws, claims, records"), (name = "notifications", description = "Mail preferences, vacations, unsubscribe links"), (name = "server", description = "Operations"))
)]
pub struct ApiDoc;

/// The document as JSON text.
#[must_use]
pub fn document() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}
