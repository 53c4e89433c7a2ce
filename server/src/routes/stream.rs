//! `GET /v1/stream` and `GET /v1/games/{id}/stream`: the live streams, as Server-Sent Events
//! (`text/event-stream`, the default) or NDJSON (`Accept: application/x-ndjson`).
//!
//! Every event carries its log id (`id:` in SSE, `"id"` in NDJSON); a client that reconnects
//! sends the last one as `Last-Event-ID` (browsers' `EventSource` does by itself) or `?after=`,
//! and gets exactly the events it missed, in order. A comment line (SSE) or an empty line
//! (NDJSON) every 20 s keeps proxies from closing an idle stream.

use std::time::Duration;

use actix_web::http::header::{self, HeaderMap};
use actix_web::http::StatusCode;
use actix_web::web::{self, Bytes};
use actix_web::{FromRequest as _, HttpRequest, HttpResponse};
use serde::Deserialize;
use turnpost_shared::api::{ErrorBody, ErrorDetail, StreamEvent};

use crate::http::auth::BearerToken;
use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::live::{
    self, OpenStream, StartRefused, StreamOwner, StreamScope, StreamStart, WireFormat,
};

/// How often an idle stream sends a line that says nothing.
const KEEP_ALIVE: Duration = Duration::from_secs(20);

/// The query of both streams.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct StreamQuery {
    /// Resume after this event id (as `Last-Event-ID`; the header wins when both are sent).
    /// Event ids start at 1.
    #[param(minimum = 1)]
    after: Option<i64>,
}

/// The signed-in account's live events: everything that happens in the games it holds a seat
/// in (challenges to it included), as it happens. Authenticated by a token or the browser's
/// session cookie.
///
/// # Errors
/// 400 bad `Last-Event-ID`; 401; 410 the event is older than the log keeps; 429 too many
/// streams open.
#[utoipa::path(get, path = "/v1/stream", tag = "stream", security(("bearer" = []), ("session" = [])),
    params(StreamQuery, ("Last-Event-ID" = Option<i64>, Header, minimum = 1, description = "Resume after this event id (one this stream sent)")),
    responses(
        (status = 200, description = "Server-Sent Events (`text/event-stream`), or NDJSON with `Accept: application/x-ndjson`: one event each",
            content((StreamEvent = "text/event-stream"), (StreamEvent = "application/x-ndjson"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 410, body = ErrorBody), (status = 429, body = ErrorBody)))]
pub async fn account_stream(
    req: HttpRequest,
    state: web::Data<AppState>,
    query: web::Query<StreamQuery>,
) -> Result<HttpResponse, ApiError> {
    let reader = reader(&req, &state).await?;
    let Some(account) = reader else {
        return Err(ApiError::Unauthorized {
            code: "unauthorized",
            message: "send an API token (Authorization: Bearer tp_…) or sign in".into(),
        });
    };
    let start = start(req.headers(), query.after)?;
    serve(
        &req,
        &state,
        StreamScope::Account(account),
        StreamOwner::Account(account),
        reader,
        start,
    )
    .await
}

/// One game's live events, for its players and for spectators (signed in or not): moves, draw
/// offers, departures, the end. Nothing a spectator may not see is in it (no position, no seed,
/// no message); `for_you` marks what is told to the signed-in reader.
///
/// # Errors
/// 400 bad `Last-Event-ID`; 401 a bad token; 404 unknown game; 410 the event is older than
/// the log keeps; 429 too many streams open.
#[utoipa::path(get, path = "/v1/games/{id}/stream", tag = "stream",
    params(("id" = i64, Path, description = "Game id"), StreamQuery,
        ("Last-Event-ID" = Option<i64>, Header, minimum = 1, description = "Resume after this event id (one this stream sent)")),
    responses(
        (status = 200, description = "Server-Sent Events (`text/event-stream`), or NDJSON with `Accept: application/x-ndjson`: one event each",
            content((StreamEvent = "text/event-stream"), (StreamEvent = "application/x-ndjson"))),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 410, body = ErrorBody),
        (status = 429, body = ErrorBody)))]
pub async fn game_stream(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<i64>,
    query: web::Query<StreamQuery>,
) -> Result<HttpResponse, ApiError> {
    let reader = reader(&req, &state).await?;
    let owner = match reader {
        Some(account) => StreamOwner::Account(account),
        None => StreamOwner::Address(crate::http::auth::client_address(&state, &req)),
    };
    let start = start(req.headers(), query.after)?;
    serve(
        &req,
        &state,
        StreamScope::Game(path.into_inner()),
        owner,
        reader,
        start,
    )
    .await
}

/// The signed-in reader: the token's account, else the browser session's, else nobody.
///
/// # Errors
/// 401 for a token that is sent but not valid.
async fn reader(req: &HttpRequest, state: &AppState) -> Result<Option<i64>, ApiError> {
    if req.headers().contains_key(header::AUTHORIZATION) {
        let bearer = BearerToken::extract(req).await?;
        let signed_in =
            crate::http::blocking::with_conn(state, move |conn| bearer.authenticate(conn)).await?;
        return Ok(Some(signed_in.account.id));
    }
    let Some(secret) = req
        .cookie(crate::web::SESSION_COOKIE)
        .map(|cookie| cookie.value().to_owned())
    else {
        return Ok(None);
    };
    crate::http::blocking::with_conn(state, move |conn| {
        Ok(crate::browser_sessions::resolve(conn, &secret)?.map(|(_, account)| account.id))
    })
    .await
}

/// Where the stream starts: after `Last-Event-ID`, else after `?after=`, else now.
///
/// # Errors
/// 400 for a `Last-Event-ID` that is not an event id.
fn start(headers: &HeaderMap, after: Option<i64>) -> Result<StreamStart, ApiError> {
    let bad = |what: &str| ApiError::BadRequest {
        code: "bad_last_event_id",
        message: format!(
            "Last-Event-ID must be the id of an event of this stream (a whole number); got {what}"
        ),
    };
    // Browsers send the header only with an id; an empty one is a client's mistake, refused
    // as the document's integer >= 1 says rather than taken for "from now".
    if let Some(value) = headers.get("last-event-id") {
        let text = value.to_str().map_err(|_| bad("unreadable text"))?.trim();
        if text.is_empty() {
            return Err(bad("an empty header (leave it out to start from now)"));
        }
        let id: i64 = text
            .parse()
            .map_err(|_| bad(&format!("{:?}", text.chars().take(24).collect::<String>())))?;
        // Ids start at 1: no event is "0", and a stream never sent one.
        if id < 1 {
            return Err(bad(&id.to_string()));
        }
        return Ok(StreamStart::After(id));
    }
    match after {
        Some(id) if id < 1 => Err(ApiError::BadRequest {
            code: "bad_query",
            message: format!("after must be an event id (1 or more); got {id}"),
        }),
        Some(id) => Ok(StreamStart::After(id)),
        None => Ok(StreamStart::Now),
    }
}

/// An error answer with a status the API's own errors do not name.
fn refusal(status: StatusCode, code: &str, message: String) -> HttpResponse {
    HttpResponse::build(status).json(ErrorBody {
        error: ErrorDetail {
            code: code.to_owned(),
            message,
        },
    })
}

/// Opens the stream and answers with it.
async fn serve(
    req: &HttpRequest,
    state: &web::Data<AppState>,
    scope: StreamScope,
    owner: StreamOwner,
    reader: Option<i64>,
    start: StreamStart,
) -> Result<HttpResponse, ApiError> {
    let ndjson = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|accept| accept.to_str().ok())
        .is_some_and(|accept| accept.contains("application/x-ndjson"));
    let hub = state.live.clone();
    let pool = state.pool.clone();
    let opened = crate::http::blocking::with_conn(state, move |conn| {
        Ok(live::open_stream(
            conn, pool, &hub, scope, owner, reader, start,
        ))
    })
    .await?;
    let stream = match opened {
        Ok(stream) => stream,
        Err(refused) => return refused_answer(refused),
    };
    let framing = if ndjson {
        WireFormat::Ndjson
    } else {
        WireFormat::ServerSentEvents
    };
    let body = futures_util::stream::unfold(
        Body {
            stream,
            framing,
            started: false,
            stopping: state.live_stopping.clone(),
        },
        Body::next_chunk,
    );
    Ok(HttpResponse::Ok()
        .content_type(framing.content_type())
        .insert_header((header::CACHE_CONTROL, "no-store"))
        // nginx passes the events on at once instead of buffering them.
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
}

/// The answer to a stream that cannot start.
///
/// # Errors
/// Storage failures.
fn refused_answer(refused: StartRefused) -> Result<HttpResponse, ApiError> {
    Ok(match refused {
        StartRefused::UnknownGame(id) => return Err(ApiError::NotFound(format!("no game {id}"))),
        StartRefused::FromTheFuture(id) => refusal(
            StatusCode::BAD_REQUEST,
            "bad_last_event_id",
            format!("there is no event {id} yet: resume with the id of an event this stream sent"),
        ),
        StartRefused::Pruned(id) => refusal(
            StatusCode::GONE,
            "event_pruned",
            format!(
                "event {id} is older than this server keeps; reconnect without Last-Event-ID \
                 and read the game (GET /v1/games/{{id}}) for what you missed"
            ),
        ),
        StartRefused::NotOfThisStream(id) => refusal(
            StatusCode::BAD_REQUEST,
            "bad_last_event_id",
            format!("event {id} is not one of this stream's: resume with an id it sent you"),
        ),
        StartRefused::Refused(cap) => {
            return Ok(HttpResponse::TooManyRequests()
                .insert_header((header::RETRY_AFTER, "30"))
                .json(ErrorBody {
                    error: ErrorDetail {
                        code: "too_many_streams".into(),
                        message: cap.to_string(),
                    },
                }))
        }
        StartRefused::Storage(error) => return Err(error.into()),
    })
}

/// The body of one stream.
struct Body {
    stream: OpenStream,
    framing: WireFormat,
    started: bool,
    stopping: tokio::sync::watch::Receiver<bool>,
}

impl Body {
    /// The next chunk of the body; `None` ends it.
    async fn next_chunk(mut self) -> Option<(Result<Bytes, std::convert::Infallible>, Self)> {
        if *self.stopping.borrow() {
            return None;
        }
        if !self.started {
            self.started = true;
            let opening = self.framing.opening();
            if !opening.is_empty() {
                return Some((Ok(Bytes::from_static(opening.as_bytes())), self));
            }
        }
        let framing = self.framing;
        let mut stopping = self.stopping.clone();
        let outcome = {
            let next = self.stream.next(framing);
            tokio::select! {
                events = next => Outcome::Events(events),
                () = tokio::time::sleep(KEEP_ALIVE) => Outcome::KeepAlive,
                _ = stopping.changed() => Outcome::Stop,
            }
        };
        match outcome {
            Outcome::Events(Some(bytes)) => Some((Ok(bytes), self)),
            Outcome::KeepAlive => Some((
                Ok(Bytes::from_static(framing.keep_alive().as_bytes())),
                self,
            )),
            // Cut off (too slow) or the log failed: the client resumes from its last id.
            Outcome::Events(None) | Outcome::Stop => None,
        }
    }
}

/// What a stream waited for.
enum Outcome {
    Events(Option<Bytes>),
    KeepAlive,
    Stop,
}
