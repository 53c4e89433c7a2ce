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
                    // was typed (without serde's position suffix).
                    code @ ("unknown_kind" | "invalid_timeout") => {
                        let position = format!(" at line {} column {}", e.line(), e.column());
                        let message = message.strip_suffix(&position).unwrap_or(&message);
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
        let forbidden = |code| Self::Forbidden {
            code,
            message: message.clone(),
        };
        let stale = |code, game| Self::StaleGame {
            code,
            message: message.clone(),
            game,
        };
        let conflict = |code| Self::Conflict {
            code,
            message: message.clone(),
        };
        let invalid = |code| Self::Unprocessable {
            code,
            message: message.clone(),
        };
        match error {
            G::NotFound { .. } | G::NoSuchPlayer { .. } | G::UnknownRatingKind(_) => {
                Self::NotFound(message)
            }
            G::NotYourGame { .. } => forbidden("not_your_game"),
            G::NotYourTurn { .. } => forbidden("not_your_turn"),
            G::StalePly { game, .. } => stale("stale_ply", game),
            G::MoveTaken { game, .. } => stale("move_taken", game),
            G::NotStarted { game, .. } => stale("not_started", game),
            G::GameOver { game, .. } => stale("game_over", game),
            G::LeftOnTime { game, .. } => stale("left_on_time", game),
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
            G::NotActive { .. } => conflict("not_active"),
            G::NotAChallenge { .. } => conflict("not_a_challenge"),
            G::ChallengeExpired { .. } => conflict("challenge_expired"),
            G::AlreadySeated { .. } => conflict("already_seated"),
            G::NoOpenSeat { .. } => conflict("no_open_seat"),
            G::NotAnOpenSeat { .. } => conflict("not_an_open_seat"),
            G::NotFinished { .. } => conflict("not_finished"),
            G::NotClaimable { .. } => conflict("not_claimable"),
            G::NoDrawOffer => conflict("no_draw_offer"),
            G::DrawOffered { .. } => conflict("draw_offered"),
            G::Conflict => conflict("conflict"),
            G::LeftGame { .. } => conflict("left_game"),
            G::BotGamesLimit { .. } => conflict("bot_games_limit"),
            G::OpenChallengesLimit { .. } => conflict("open_challenges_limit"),
            G::InvalidOptions(_) => invalid("invalid_options"),
            G::SeatCount(_) => invalid("seat_count"),
            G::UnknownPlayer { .. } => invalid("unknown_player"),
            G::DuplicatePlayer { .. } => invalid("duplicate_player"),
            G::CreatorNotSeated { .. } => invalid("creator_not_seated"),
            G::BotsOnly { .. } => invalid("bots_only"),
            G::InvalidClock(_) => invalid("invalid_clock"),
            G::InvalidVacation => invalid("invalid_vacation"),
            G::VacationExhausted { .. } => invalid("vacation_exhausted"),
            G::BadConditional(_) => invalid("bad_conditional"),
            G::BadMessage(_) => invalid("bad_message"),
            G::Storage(db) => db.into(),
        }
    }
}

/// Tournament refusals as HTTP answers.
impl From<crate::tournaments::TournamentError> for ApiError {
    fn from(error: crate::tournaments::TournamentError) -> Self {
        use crate::tournaments::TournamentError as T;
        let message = error.to_string();
        let conflict = |code| Self::Conflict {
            code,
            message: message.clone(),
        };
        match error {
            T::NotFound { .. } => Self::NotFound(message),
            T::InvalidSettings(_) => Self::invalid("invalid_tournament", message),
            T::BotEntrant => Self::invalid("bot_entrant", message),
            T::Game(game) => game.into(),
            T::EntryClosed { .. } => conflict("entry_closed"),
            T::Full { .. } => conflict("tournament_full"),
            T::AlreadyEntered { .. } => conflict("already_entered"),
            T::NotEntered { .. } => conflict("not_entered"),
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
        let unauthorized = |code| Self::Unauthorized {
            code,
            message: message.clone(),
        };
        let conflict = |code| Self::Conflict {
            code,
            message: message.clone(),
        };
        match error {
            A::NameTaken | A::NameExists => conflict("name_taken"),
            A::EmailExists => conflict("email_taken"),
            A::BotAccount { .. } => conflict("bot_account"),
            A::Conflict => conflict("conflict"),
            A::NoCode => unauthorized("invalid_code"),
            A::NoLink => unauthorized("invalid_link"),
            A::WrongCode { .. } => unauthorized("wrong_code"),
            A::CodeLocked | A::LastAttempt => unauthorized("code_locked"),
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
            P::NotYourGame { .. } => Self::invalid("not_your_game", message),
            P::BadUnsubscribeLink => Self::Forbidden {
                code: "bad_unsubscribe_link",
                message,
            },
            P::Conflict => Self::Conflict {
                code: "conflict",
                message,
            },
            P::Storage(db) => db.into(),
        }
    }
}
