//! A JSON body that must be an object: serde reads a struct from a JSON array too (its fields
//! in order), so `[null, null]` would pass for a patch of two absent fields. Bodies that are
//! objects by contract are read as one first, and refused (422) otherwise. [`OptionalJson`] is
//! such a body that may be left out (routes that took none before).

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::error::JsonPayloadError;
use actix_web::{web, FromRequest, HttpRequest};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::body_follows::body_follows;

/// The body, read as a JSON object and then as `T`; the errors are those of [`web::Json`]
/// (with the app's `JsonConfig`): 400 for bad JSON, 413, 415, and 422 for a body that is not
/// an object or not a `T`.
#[derive(Debug)]
pub struct JsonObject<T>(pub T);

impl<T> JsonObject<T> {
    /// The value read.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for JsonObject<T> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, actix_web::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let object = web::Json::<Map<String, Value>>::from_request(req, payload);
        let req = req.clone();
        Box::pin(async move {
            let object = object.await?.into_inner();
            serde_json::from_value(Value::Object(object))
                .map(JsonObject)
                .map_err(|error| {
                    crate::http::error::json_error(JsonPayloadError::Deserialize(error), &req)
                })
        })
    }
}

/// The body, or `T::default()` when the request has none (or `null`).
#[derive(Debug)]
pub struct OptionalJson<T>(pub T);

impl<T> OptionalJson<T> {
    /// The value read.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T: DeserializeOwned + Default + 'static> FromRequest for OptionalJson<T> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, actix_web::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        if !body_follows(req.headers()) {
            return Box::pin(async { Ok(OptionalJson(T::default())) });
        }
        // `null` is no body too; anything else must be an object.
        let value = web::Json::<Value>::from_request(req, payload);
        let req = req.clone();
        Box::pin(async move {
            let read = match value.await?.into_inner() {
                Value::Null => return Ok(OptionalJson(T::default())),
                object @ Value::Object(_) => serde_json::from_value(object),
                _ => Err(<serde_json::Error as serde::de::Error>::custom(
                    "expected a JSON object or no body",
                )),
            };
            read.map(OptionalJson).map_err(|error| {
                crate::http::error::json_error(JsonPayloadError::Deserialize(error), &req)
            })
        })
    }
}
