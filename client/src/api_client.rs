//! The HTTP client for the turnpost API: JSON in and out, errors turned into exit codes.

use std::io::Read as _;
use std::time::{Duration, Instant};

use reqwest::blocking::{Client, RequestBuilder};
use reqwest::StatusCode;
use serde::de::DeserializeOwned;
use serde::Serialize;
use turnpost_shared::api::ErrorBody;

use crate::failure::Failure;
use crate::terminal_text::{escape_controls, escape_json};

/// How long a command waits for the server by default (`wait` polls, so no request is long).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a command waits for a TCP connection by default.
const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// The largest answer read: far above any game or list the API sends, far below what could
/// exhaust memory when a server sends without end.
const MAX_ANSWER_BYTES: u64 = 16 * 1024 * 1024;

/// A client for one server, with or without a bearer token.
pub struct ApiClient {
    server: String,
    token: Option<String>,
    http: Client,
    /// When set, no request runs past it (`wait --timeout` against a server that hangs).
    deadline: Option<Instant>,
}

impl ApiClient {
    /// A client for `server` (`http://` or `https://` base URL), with a token or without.
    ///
    /// # Errors
    /// A usage failure for a URL that is not http(s).
    pub fn new(server: &str, token: Option<String>) -> Result<ApiClient, Failure> {
        ApiClient::with_timeout(server, token, DEFAULT_TIMEOUT)
    }

    /// A client whose every request gives up after `timeout` (connecting included).
    ///
    /// # Errors
    /// A usage failure for a URL that is not http(s).
    pub fn with_timeout(
        server: &str,
        token: Option<String>,
        timeout: Duration,
    ) -> Result<ApiClient, Failure> {
        let server = server.trim().trim_end_matches('/').to_string();
        if !(server.starts_with("http://") || server.starts_with("https://")) {
            return Err(Failure::usage(format!(
                "server `{server}`: expected a URL starting with http:// or https://"
            )));
        }
        let http = Client::builder()
            .user_agent(concat!("turnpost/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(DEFAULT_CONNECT_TIMEOUT.min(timeout))
            .timeout(timeout)
            .build()
            .map_err(|error| Failure::usage(format!("cannot set up HTTP: {error}")))?;
        Ok(ApiClient {
            server,
            token,
            http,
            deadline: None,
        })
    }

    /// From now on every request gives up at `deadline` at the latest.
    pub fn set_deadline(&mut self, deadline: Instant) {
        self.deadline = Some(deadline);
    }

    pub fn server(&self) -> &str {
        &self.server
    }

    /// The bearer token, if any (for the event streams, which read with their own client).
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// `GET /v1<path>`.
    ///
    /// # Errors
    /// See [`ApiClient::send`].
    pub fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T, Failure> {
        self.send(self.http.get(self.url(path)))
    }

    /// `POST /v1<path>` with a JSON body.
    ///
    /// # Errors
    /// See [`ApiClient::send`].
    pub fn post<B: Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
    ) -> Result<T, Failure> {
        self.send(self.http.post(self.url(path)).json(body))
    }

    /// `PATCH /v1<path>` with a JSON body.
    ///
    /// # Errors
    /// See [`ApiClient::send`].
    pub fn patch<B: Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
    ) -> Result<T, Failure> {
        self.send(self.http.patch(self.url(path)).json(body))
    }

    /// `PUT /v1<path>` with a JSON body.
    ///
    /// # Errors
    /// See [`ApiClient::send`].
    pub fn put<B: Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        body: &B,
    ) -> Result<T, Failure> {
        self.send(self.http.put(self.url(path)).json(body))
    }

    /// `DELETE /v1<path>`, reading its JSON answer.
    ///
    /// # Errors
    /// See [`ApiClient::send`].
    pub fn delete_json<T: DeserializeOwned>(&self, path: &str) -> Result<T, Failure> {
        self.send(self.http.delete(self.url(path)))
    }

    /// `GET /v1<path>` of a non-JSON document (a record, a picture), with control characters
    /// other than line breaks and tabs escaped.
    ///
    /// # Errors
    /// See [`ApiClient::send`].
    pub fn get_text(&self, path: &str) -> Result<String, Failure> {
        self.send_raw(self.http.get(self.url(path)))
            .map(|text| escape_controls(&text, true))
    }

    /// `POST /v1<path>` without a body.
    ///
    /// # Errors
    /// See [`ApiClient::send`].
    pub fn post_empty<T: DeserializeOwned>(&self, path: &str) -> Result<T, Failure> {
        self.send(self.http.post(self.url(path)))
    }

    /// `DELETE /v1<path>`.
    ///
    /// # Errors
    /// See [`ApiClient::send`].
    pub fn delete(&self, path: &str) -> Result<(), Failure> {
        self.send::<serde_json::Value>(self.http.delete(self.url(path)))
            .map(|_| ())
    }

    /// The URL of API path `path` (`/games/7` → `<server>/v1/games/7`).
    pub fn url(&self, path: &str) -> String {
        format!("{}/v1{path}", self.server)
    }

    /// Sends a request and reads the JSON answer, every string in it escaped for the terminal.
    ///
    /// # Errors
    /// A refusal (exit 1) with the server's message for a 4xx answer; a network failure
    /// (exit 3) when the server cannot be reached, answers 5xx, answers more than 16 MiB or
    /// answers something unexpected.
    fn send<T: DeserializeOwned>(&self, request: RequestBuilder) -> Result<T, Failure> {
        let body = self.send_raw(request)?;
        let text = if body.trim().is_empty() {
            "null"
        } else {
            &body
        };
        let not_understood = |error: serde_json::Error| {
            Failure::network(format!(
                "{} answered something this client does not understand: {error}",
                self.server
            ))
        };
        let mut value: serde_json::Value = serde_json::from_str(text).map_err(not_understood)?;
        escape_json(&mut value);
        serde_json::from_value(value).map_err(not_understood)
    }

    /// Sends a request and returns the body of a successful answer.
    ///
    /// # Errors
    /// As [`ApiClient::send`].
    fn send_raw(&self, request: RequestBuilder) -> Result<String, Failure> {
        let request = match &self.token {
            Some(token) => request.bearer_auth(token),
            None => request,
        };
        let request = match self.deadline {
            Some(deadline) => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(Failure::network(format!(
                        "{} did not answer in time",
                        self.server
                    )));
                }
                request.timeout(left)
            }
            None => request,
        };
        let response = request
            .send()
            .map_err(|error| Failure::network(format!("cannot reach {}: {error}", self.server)))?;
        let status = response.status();
        let reading = |error: std::io::Error| {
            Failure::network(format!("reading the answer of {}: {error}", self.server))
        };
        let mut bytes = Vec::new();
        response
            .take(MAX_ANSWER_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(reading)?;
        if bytes.len() as u64 > MAX_ANSWER_BYTES {
            return Err(Failure::network(format!(
                "{} sent an answer larger than {} MiB; giving up",
                self.server,
                MAX_ANSWER_BYTES / 1024 / 1024
            )));
        }
        let body = String::from_utf8_lossy(&bytes).into_owned();
        if status.is_success() {
            return Ok(body);
        }
        let message = serde_json::from_str::<ErrorBody>(&body)
            .map(|error| escape_controls(&error.error.message, false))
            .unwrap_or_else(|_| format!("HTTP {status}"));
        if status == StatusCode::UNAUTHORIZED {
            Err(Failure::refused(format!(
                "{message} (sign in again with `turnpost login`)"
            )))
        } else if status.is_client_error() {
            Err(Failure::refused(message))
        } else {
            Err(Failure::network(format!(
                "{} failed: {message}",
                self.server
            )))
        }
    }
}
