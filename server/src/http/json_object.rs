//! A JSON body that must be an object: serde reads a struct from a JSON array too (its fields
//! in order), so `[null, null]` would pass for a patch of two absent fields. Bodies that are
//! objects by contract are read as one first, and refused (422) otherwise. [`OptionalJson`] is
//! such a body that may be left out (routes that took none before).
//!
//! Both take a whole number written with a fraction of zero (`51.0`) where a field is an
//! integer: JSON Schema counts such a number as an integer, and generated clients write them
//! so; serde alone would refuse it. A refused field is named by its path in the message.

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
            read(Value::Object(object))
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
                object @ Value::Object(_) => read(object),
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

/// `value` read as a `T`, its whole numbers as integers; a refusal names the field's path.
fn read<T: DeserializeOwned>(mut value: Value) -> Result<T, serde_json::Error> {
    whole_numbers(&mut value);
    serde_path_to_error::deserialize(value).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner();
        if path == "." {
            inner
        } else {
            // The reader's words first: the error codes are chosen by how they begin.
            <serde_json::Error as serde::de::Error>::custom(format!("{inner} (at `{path}`)"))
        }
    })
}

/// Turns every number in `value` written with a zero fraction (`9.0`, `-3e2`) into the integer
/// it is, where one fits in 64 bits; other numbers stay as they are.
fn whole_numbers(value: &mut Value) {
    match value {
        Value::Number(number) if number.is_f64() => {
            if let Some(whole) = number.as_f64().and_then(whole_number) {
                *number = whole;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_numbers),
        Value::Object(fields) => fields.values_mut().for_each(whole_numbers),
        _ => {}
    }
}

/// The integer `float` is, if it has no fraction and fits in an `i64` or a `u64`.
fn whole_number(float: f64) -> Option<serde_json::Number> {
    // 2^63 and 2^64 are exact in an f64; the casts below are exact inside these bounds.
    const TWO_TO_63: f64 = 9_223_372_036_854_775_808.0;
    const TWO_TO_64: f64 = 18_446_744_073_709_551_616.0;
    if !float.is_finite() || float.fract() != 0.0 {
        None
    } else if float > -TWO_TO_63 && float < TWO_TO_63 {
        // -2^63 itself is left out: an integer written below it (-9223372036854775809) is
        // read as a float that rounds to -2^63, and must not pass for one in range.
        Some((float as i64).into())
    } else if (0.0..TWO_TO_64).contains(&float) {
        Some((float as u64).into())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Counts {
        days: u32,
        #[serde(default)]
        mute: Vec<i64>,
        #[serde(default)]
        share: Option<f64>,
    }

    fn counts(text: &str) -> Result<Counts, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        read(value).map_err(|e| e.to_string())
    }

    #[test]
    fn whole_numbers_written_as_floats_are_integers() {
        assert_eq!(
            counts(r#"{"days": 10.0, "mute": [9602098.0, -3e2, 7], "share": 2.0}"#),
            Ok(Counts {
                days: 10,
                mute: vec![9_602_098, -300, 7],
                share: Some(2.0)
            })
        );
        assert_eq!(
            whole_number(18_446_744_073_709_549_568.0),
            Some(18_446_744_073_709_549_568_u64.into())
        );
        assert_eq!(whole_number(-0.0), Some(0.into()));
        // Integers written past 64 bits are read as floats that round onto the bounds.
        assert_eq!(
            counts(r#"{"days": 1, "mute": [-9223372036854775809]}"#).ok(),
            None
        );
        assert_eq!(counts(r#"{"days": 18446744073709551616}"#).ok(), None);
    }

    #[test]
    fn fractions_and_numbers_too_big_are_refused_with_their_path() {
        let half = counts(r#"{"days": 10.5}"#).unwrap_err();
        assert!(
            half.contains("floating point") && half.ends_with("(at `days`)"),
            "{half}"
        );
        let big = counts(r#"{"days": 1, "mute": [1, 1e300]}"#).unwrap_err();
        assert!(big.ends_with("(at `mute[1]`)"), "{big}");
        let wide = counts(r#"{"days": 4294967296.0}"#).unwrap_err();
        assert!(wide.contains("4294967296"), "{wide}");
        assert_eq!(
            counts(r#"{"share": 0.5, "days": 1}"#).map(|c| c.share),
            Ok(Some(0.5))
        );
        let unknown = counts(r#"{"days": 1, "admin": true}"#).unwrap_err();
        assert!(unknown.starts_with("unknown field `admin`"), "{unknown}");
    }
}
