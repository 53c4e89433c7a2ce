//! `ApiError`: every error answer, as an exact status and `{"error": {"code", "message"}}`.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use turnpost_shared::api::{ErrorBody, ErrorDetail};

use crate::db::DbError;

/// An error answer.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the request cannot be read (bad JSON syntax, bad header).
    #[error("{message}")]
    BadRequest {
        /// Code.
        code: &'static str,
        /// Message.
        message: String,
    },
    /// 401: no valid token or code.
    #[error("{message}")]
    Unauthorized {
        /// Code.
        code: &'static str,
        /// Message.
        message: String,
    },
    /// 403: authenticated or not, this is not allowed.
    #[error("{message}")]
    Forbidden {
        /// Code.
        code: &'static str,
        /// Message.
        message: String,
    },
    /// 404.
    #[error("{0}")]
    NotFound(String),
    /// 405: the path exists but not with this method.
    #[error("{message}")]
    MethodNotAllowed {
        /// Methods allowed (the `Allow` header).
        allow: String,
        /// Message.
        message: String,
    },
    /// 409: conflicts with the current state (a taken name, a stale ply).
    #[error("{message}")]
    Conflict {
        /// Code.
        code: &'static str,
        /// Message.
        message: String,
    },
    /// 409 with the game as it now stands (a stale ply, a move at a taken ply), so the client
    /// can catch up without another request.
    #[error("{message}")]
    StaleGame {
        /// Code.
        code: &'static str,
        /// Message.
        message: String,
        /// The current state.
        game: Box<turnpost_shared::api::GameView>,
    },
    /// 422 for a move the engine refuses: the reason, and for a syntax error the byte offset
    /// and what was expected there.
    #[error("{message}")]
    BadMove {
        /// `move_syntax` or `illegal_move`.
        code: &'static str,
        /// The engine's message.
        message: String,
        /// Byte offset of a syntax error in the move text.
        offset: Option<usize>,
        /// What the parser expected at `offset`.
        expected: Option<String>,
    },
    /// 413: body over the limit.
    #[error("request body is larger than {limit} bytes")]
    PayloadTooLarge {
        /// The limit.
        limit: usize,
    },
    /// 415: not JSON.
    #[error("send the body as JSON with Content-Type: application/json")]
    UnsupportedMediaType,
    /// 422: well-formed but invalid (unknown field, bad email, illegal move).
    #[error("{message}")]
    Unprocessable {
        /// Code.
        code: &'static str,
        /// Message.
        message: String,
    },
    /// 429 with `Retry-After`.
    #[error("too many requests; retry in {retry_after_secs} s")]
    TooManyRequests {
        /// Seconds until a retry can succeed.
        retry_after_secs: u64,
    },
    /// 503: the database is unreachable.
    #[error("the service is temporarily unavailable")]
    Unavailable,
    /// 500: a bug or an unexpected failure; the detail is logged, not shown.
    #[error("internal error")]
    Internal(String),
}

impl ApiError {
    /// 400 `bad_query`: a query parameter the route cannot read.
    #[must_use]
    pub fn bad_query(message: String) -> Self {
        Self::BadRequest {
            code: "bad_query",
            message,
        }
    }

    /// 401 with this code and message.
    pub fn unauthorized(code: &'static str, message: impl Into<String>) -> Self {
        Self::Unauthorized {
            code,
            message: message.into(),
        }
    }

    /// 403 with this code and message.
    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Self {
        Self::Forbidden {
            code,
            message: message.into(),
        }
    }

    /// 409 with this code and message.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::Conflict {
            code,
            message: message.into(),
        }
    }

    /// 409 with the game as it now stands.
    fn stale(
        code: &'static str,
        message: String,
        game: Box<turnpost_shared::api::GameView>,
    ) -> Self {
        Self::StaleGame {
            code,
            message,
            game,
        }
    }

    /// 422 with this code and message.
    pub fn invalid(code: &'static str, message: impl Into<String>) -> Self {
        Self::Unprocessable {
            code,
            message: message.into(),
        }
    }

    /// The error code in the body.
    #[must_use]
    pub fn code(&self) -> &'static str {
        match self {
            Self::BadRequest { code, .. }
            | Self::Unauthorized { code, .. }
            | Self::Forbidden { code, .. }
            | Self::Conflict { code, .. }
            | Self::StaleGame { code, .. }
            | Self::BadMove { code, .. }
            | Self::Unprocessable { code, .. } => code,
            Self::NotFound(_) => "not_found",
            Self::MethodNotAllowed { .. } => "method_not_allowed",
            Self::PayloadTooLarge { .. } => "payload_too_large",
            Self::UnsupportedMediaType => "unsupported_media_type",
            Self::TooManyRequests { .. } => "rate_limited",
            Self::Unavailable => "unavailable",
            Self::Internal(_) => "internal",
        }
    }
}

impl From<DbError> for ApiError {
    fn from(error: DbError) -> Self {
        match error {
            DbError::Pool(e) => {
                tracing::error!(error = %e, "database unavailable");
                Self::Unavailable
            }
            other => Self::Internal(other.to_string()),
        }
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(error: actix_web::error::BlockingError) -> Self {
        Self::Internal(error.to_string())
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::BadRequest { .. } => StatusCode::BAD_REQUEST,
            Self::Unauthorized { .. } => StatusCode::UNAUTHORIZED,
            Self::Forbidden { .. } => StatusCode::FORBIDDEN,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            Self::Conflict { .. } | Self::StaleGame { .. } => StatusCode::CONFLICT,
            Self::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Unprocessable { .. } | Self::BadMove { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Self::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let Self::Internal(detail) = self {
            tracing::error!(%detail, "internal error");
        }
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code().to_owned(),
                message: self.to_string(),
            },
        };
        let mut response = HttpResponse::build(self.status_code());
        match self {
            Self::TooManyRequests { retry_after_secs } => {
                response.insert_header((header::RETRY_AFTER, retry_after_secs.to_string()));
            }
            Self::Unauthorized { .. } => {
                response.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
            }
            Self::MethodNotAllowed { allow, .. } => {
                response.insert_header((header::ALLOW, allow.as_str()));
            }
            _ => {}
        }
        match self {
            Self::StaleGame { game, .. } => {
                response.json(serde_json::json!({ "error": body.error, "game": game }))
            }
            Self::BadMove {
                offset, expected, ..
            } => response.json(serde_json::json!({ "error": {
                "code": body.error.code,
                "message": body.error.message,
                "offset": offset,
                "expected": expected,
            }})),
            _ => response.json(body),
        }
    }
}

/// Maps actix's JSON extractor errors to exact statuses with useful messages.
pub fn json_error(
    error: actix_web::error::JsonPayloadError,
    _req: &actix_web::HttpRequest,
) -> actix_web::Error {
    use actix_web::error::JsonPayloadError as J;
    let api = match &error {
        J::OverflowKnownLength { limit, .. } | J::Overflow { limit } => {
            ApiError::PayloadTooLarge { limit: *limit }
        }
        J::ContentType => ApiError::UnsupportedMediaType,
        J::Deserialize(e) => match e.classify() {
            serde_json::error::Category::Data => {
                let message = e.to_string();
                match typed_field_code(&message) {
                    // The parser's own words, as the handlers answered them before the field
                    // was typed (without serde's position suffix, or the field's path that
                    // `JsonObject` adds: the code names the field already).
                    code @ ("unknown_kind" | "invalid_timeout") => {
                        let position = format!(" at line {} column {}", e.line(), e.column());
                        let message = message.strip_suffix(&position).unwrap_or(&message);
                        let message = message
                            .strip_suffix("`)")
                            .and_then(|rest| rest.rsplit_once(" (at `"))
                            .map_or(message, |(words, _path)| words);
                        ApiError::invalid(code, message)
                    }
                    code => ApiError::invalid(code, message),
                }
            }
            _ => ApiError::BadRequest {
                code: "bad_json",
                message: format!("the body is not valid JSON: {e}"),
            },
        },
        other => ApiError::BadRequest {
            code: "bad_body",
            message: format!("cannot read the body: {other}"),
        },
    };
    api.into()
}

/// The code for a JSON field the reader refused: typed fields keep the codes the API answered
/// when the handlers checked them (`unknown_kind`, `invalid_timeout`); others are
/// `invalid_field`.
fn typed_field_code(message: &str) -> &'static str {
    if message.starts_with(turnpost_shared::rules::UNKNOWN_GAME_KIND) {
        "unknown_kind"
    } else if message.starts_with(turnpost_shared::play::UNKNOWN_TIMEOUT_MODE) {
        "invalid_timeout"
    } else {
        "invalid_field"
    }
}

/// Maps path parameter errors (e.g. a non-numeric id) to 404.
pub fn path_error(
    error: actix_web::error::PathError,
    _req: &actix_web::HttpRequest,
) -> actix_web::Error {
    ApiError::NotFound(format!("no such resource ({error})")).into()
}

/// The one place a game service refusal becomes an HTTP answer: its status, code and message.
impl From<crate::games::GameError> for ApiError {
    fn from(error: crate::games::GameError) -> Self {
        use crate::games::GameError as G;
        use turnpost_shared::MoveError;
        let message = error.to_string();
        match error {
            G::NotFound { .. } | G::NoSuchPlayer { .. } | G::UnknownRatingKind(_) => {
                Self::NotFound(message)
            }
            G::NotYourGame { .. } => Self::forbidden("not_your_game", message),
            G::NotYourTurn { .. } => Self::forbidden("not_your_turn", message),
            G::StalePly { game, .. } => Self::stale("stale_ply", message, game),
            G::MoveTaken { game, .. } => Self::stale("move_taken", message, game),
            G::NotStarted { game, .. } => Self::stale("not_started", message, game),
            G::GameOver { game, .. } => Self::stale("game_over", message, game),
            G::LeftOnTime { game, .. } => Self::stale("left_on_time", message, game),
            G::Illegal(MoveError::Syntax(syntax)) => Self::BadMove {
                code: "move_syntax",
                message,
                offset: Some(syntax.offset),
                expected: Some(syntax.expected),
            },
            G::Illegal(MoveError::Illegal { .. }) => Self::BadMove {
                code: "illegal_move",
                message,
                offset: None,
                expected: None,
            },
            G::NotActive { .. } => Self::conflict("not_active", message),
            G::NotAChallenge { .. } => Self::conflict("not_a_challenge", message),
            G::ChallengeExpired { .. } => Self::conflict("challenge_expired", message),
            G::AlreadySeated { .. } => Self::conflict("already_seated", message),
            G::NoOpenSeat { .. } => Self::conflict("no_open_seat", message),
            G::NotAnOpenSeat { .. } => Self::conflict("not_an_open_seat", message),
            G::NotFinished { .. } => Self::conflict("not_finished", message),
            G::NotClaimable { .. } => Self::conflict("not_claimable", message),
            G::NoDrawOffer => Self::conflict("no_draw_offer", message),
            G::DrawOffered { .. } => Self::conflict("draw_offered", message),
            G::Conflict => Self::conflict("conflict", message),
            G::LeftGame { .. } => Self::conflict("left_game", message),
            G::BotGamesLimit { .. } => Self::conflict("bot_games_limit", message),
            G::OpenChallengesLimit { .. } => Self::conflict("open_challenges_limit", message),
            G::InvalidOptions(_) => Self::invalid("invalid_options", message),
            G::SeatCount(_) => Self::invalid("seat_count", message),
            G::UnknownPlayer { .. } => Self::invalid("unknown_player", message),
            G::DuplicatePlayer { .. } => Self::invalid("duplicate_player", message),
            G::CreatorNotSeated { .. } => Self::invalid("creator_not_seated", message),
            G::BotsOnly { .. } => Self::invalid("bots_only", message),
            G::InvalidClock(_) => Self::invalid("invalid_clock", message),
            G::InvalidVacation => Self::invalid("invalid_vacation", message),
            G::VacationExhausted { .. } => Self::conflict("vacation_exhausted", message),
            G::BadConditional(_) => Self::invalid("bad_conditional", message),
            G::BadMessage(_) => Self::invalid("bad_message", message),
            G::Storage(db) => db.into(),
        }
    }
}

/// Tournament refusals as HTTP answers.
impl From<crate::tournaments::TournamentError> for ApiError {
    fn from(error: crate::tournaments::TournamentError) -> Self {
        use crate::tournaments::TournamentError as T;
        let message = error.to_string();
        match error {
            T::NotFound { .. } => Self::NotFound(message),
            T::InvalidSettings(_) => Self::invalid("invalid_tournament", message),
            T::BotEntrant => Self::invalid("bot_entrant", message),
            T::Game(game) => game.into(),
            T::EntryClosed { .. } => Self::conflict("entry_closed", message),
            T::Full { .. } => Self::conflict("tournament_full", message),
            T::AlreadyEntered { .. } => Self::conflict("already_entered", message),
            T::NotEntered { .. } => Self::conflict("not_entered", message),
            T::NotOrganiser { .. } => Self::forbidden("not_organiser", message),
            T::TooFewToStart { .. } => Self::conflict("too_few_entrants", message),
            T::NoSuchRound { .. } => Self::NotFound(message),
            T::Pairing { .. } => Self::Internal(message),
            T::Storage(db) => db.into(),
        }
    }
}

/// Account refusals as HTTP answers.
impl From<crate::accounts::AccountError> for ApiError {
    fn from(error: crate::accounts::AccountError) -> Self {
        use crate::accounts::AccountError as A;
        let message = error.to_string();
        match error {
            A::NameTaken | A::NameExists => Self::conflict("name_taken", message),
            A::EmailExists => Self::conflict("email_taken", message),
            A::BotAccount { .. } => Self::conflict("bot_account", message),
            A::Conflict => Self::conflict("conflict", message),
            A::NoCode => Self::unauthorized("invalid_code", message),
            A::NoLink => Self::unauthorized("invalid_link", message),
            A::WrongCode { .. } => Self::unauthorized("wrong_code", message),
            A::CodeLocked | A::LastAttempt => Self::unauthorized("code_locked", message),
            A::NoSuchAccount { .. } => Self::NotFound(message),
            A::Storage(db) => db.into(),
        }
    }
}

/// A refused name, address or label: 422 with the field's code.
impl From<crate::validate::ValidationError> for ApiError {
    fn from(error: crate::validate::ValidationError) -> Self {
        use crate::validate::ValidationError as V;
        let code = match &error {
            V::Name(_) => "invalid_name",
            V::Email(_) => "invalid_email",
            V::Label(_) => "invalid_label",
        };
        Self::invalid(code, error.to_string())
    }
}

/// 429 with `Retry-After`.
impl From<crate::http::ratelimit::RateLimited> for ApiError {
    fn from(error: crate::http::ratelimit::RateLimited) -> Self {
        Self::TooManyRequests {
            retry_after_secs: error.retry_after_secs,
        }
    }
}

/// Preference and unsubscribe refusals as HTTP answers.
impl From<crate::preferences::PreferenceError> for ApiError {
    fn from(error: crate::preferences::PreferenceError) -> Self {
        use crate::preferences::PreferenceError as P;
        let message = error.to_string();
        match error {
            P::InvalidTimeZone { .. } => Self::invalid("invalid_time_zone", message),
            P::InvalidDigestHour { .. } => Self::invalid("invalid_digest_hour", message),
            P::UnknownGame { .. } => Self::NotFound(message),
            P::NotYourGame { .. } => Self::invalid("not_your_game", message),
            P::BadUnsubscribeLink => Self::forbidden("bad_unsubscribe_link", message),
            P::Conflict => Self::conflict("conflict", message),
            P::Storage(db) => db.into(),
        }
    }
}

impl From<crate::webhooks::WebhookError> for ApiError {
    fn from(error: crate::webhooks::WebhookError) -> Self {
        use crate::webhooks::WebhookError as W;
        let message = error.to_string();
        match error {
            W::NotFound(_) => Self::NotFound(message),
            W::Invalid(_) => Self::invalid("invalid_webhook", message),
            W::TooMany(_) => Self::Conflict {
                code: "webhooks_limit",
                message,
            },
            W::Storage(db) => db.into(),
        }
    }
}

impl From<crate::push::PushError> for ApiError {
    fn from(error: crate::push::PushError) -> Self {
        use crate::push::PushError as P;
        let message = error.to_string();
        match error {
            P::NotFound(_) => Self::NotFound(message),
            P::Invalid(_) => Self::invalid("invalid_push_subscription", message),
            P::TooMany(_) => Self::Conflict {
                code: "push_subscriptions_limit",
                message,
            },
            P::Storage(db) => db.into(),
        }
    }
}
