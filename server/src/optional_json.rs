//! A JSON body that may be left out: the routes that took none before (`resign`, `accept`)
//! take an optional one now, so a client that sends nothing keeps working. No body (no length,
//! or length 0) reads as `T::default()`; a body is read as a [`JsonObject`], with its errors.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest};
use serde::de::DeserializeOwned;

use crate::json_object::JsonObject;

/// The body, or `T::default()` when the request has none.
#[derive(Debug)]
pub struct OptionalJson<T>(pub T);

impl<T> OptionalJson<T> {
    /// The value read.
    pub fn into_inner(self) -> T {
        self.0
    }
}

/// Whether the request says a body follows (a length above zero, or chunks).
fn has_body(req: &HttpRequest) -> bool {
    let headers = req.headers();
    if headers.contains_key(header::TRANSFER_ENCODING) {
        return true;
    }
    headers
        .get(header::CONTENT_LENGTH)
        .is_some_and(|length| length.to_str().map_or(true, |length| length.trim() != "0"))
}

impl<T: DeserializeOwned + Default + 'static> FromRequest for OptionalJson<T> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, actix_web::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        if !has_body(req) {
            return Box::pin(async { Ok(OptionalJson(T::default())) });
        }
        let object = JsonObject::<T>::from_request(req, payload);
        Box::pin(async move { Ok(OptionalJson(object.await?.into_inner())) })
    }
}
