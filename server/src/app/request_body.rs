//! A deadline on reading a request's body. actix closes a connection whose headers are slow
//! (`client_request_timeout`), but once the headers are in, a body may trickle in a byte at a
//! time for as long as the client likes, holding a connection (and a file descriptor) all along:
//! a thousand such clients starve everyone else. This middleware reads the whole body (at most
//! [`BODY_CAP`] bytes; every body the API accepts is far smaller) within the deadline before the
//! handler runs, and answers 408 — closing the connection — when it does not arrive in time.

use std::time::Duration;

use actix_web::body::{to_bytes_limited, BodyStream, EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::middleware::Next;
use actix_web::{HttpMessage as _, HttpResponse};
use turnpost_shared::api::{ErrorBody, ErrorDetail};

use crate::http::body_follows::body_follows;

/// The largest body read ahead: four times the largest one any route accepts
/// (`app::JSON_LIMIT`, 16 KiB), so the route still answers an oversized body with its own 413.
pub const BODY_CAP: usize = 64 * 1024;

/// The refusal, in JSON under `/v1` and as a page elsewhere (where a person is reading).
fn refusal(req: &ServiceRequest, status: StatusCode, code: &str, message: String) -> HttpResponse {
    let mut response = if req.path().starts_with("/v1/") {
        HttpResponse::build(status).json(ErrorBody {
            error: ErrorDetail {
                code: code.to_owned(),
                message,
            },
        })
    } else {
        actix_web::ResponseError::error_response(&crate::web::WebError { status, message })
    };
    // The rest of the body may still be on its way: the connection cannot serve another request.
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// Reads the body of `req` within `deadline` (from when its headers were read), then runs the
/// rest with the body in memory. A body that does not arrive in time is answered 408; one
/// larger than [`BODY_CAP`] 413; the connection is closed after either.
///
/// # Errors
/// Those of the services it wraps.
pub async fn read_within(
    deadline: Duration,
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    if body_follows(req.headers()) {
        let payload = BodyStream::new(req.take_payload());
        let refused =
            match tokio::time::timeout(deadline, to_bytes_limited(payload, BODY_CAP)).await {
                Ok(Ok(Ok(body))) => {
                    req.set_payload(body.into());
                    None
                }
                Ok(Ok(Err(error))) => Some(refusal(
                    &req,
                    StatusCode::BAD_REQUEST,
                    "bad_body",
                    format!("the body cannot be read: {error}"),
                )),
                Ok(Err(_)) => Some(refusal(
                    &req,
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "payload_too_large",
                    format!("the body is larger than {BODY_CAP} bytes"),
                )),
                Err(_) => Some(refusal(
                    &req,
                    StatusCode::REQUEST_TIMEOUT,
                    "request_timeout",
                    format!(
                        "the body did not arrive within {} s of the request's headers",
                        deadline.as_secs_f64()
                    ),
                )),
            };
        if let Some(response) = refused {
            return Ok(req.into_response(response).map_into_right_body());
        }
    }
    next.call(req)
        .await
        .map(ServiceResponse::map_into_left_body)
}
