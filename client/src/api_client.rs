//! The HTTP client for the turnpost API: JSON in and out, errors turned into exit codes.

use std::time::Duration;

use reqwest::blocking::{Client, RequestBuilder};
use reqwest::StatusCode;
use serde::de::DeserializeOwned;
use serde::Serialize;
use turnpost_shared::ErrorBody;

use crate::failure::Failure;

/// How long a command waits for the server by default (`wait` polls, so no request is long).
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a command waits for a TCP connection by default.
const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// A client for one server, with or without a bearer token.
pub struct ApiClient {
    server: String,
    token: Option<String>,
    http: Client,
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
        })
    }

    pub fn server(&self) -> &str {
        &self.server
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

    /// `GET /v1<path>` of a non-JSON document (a record, a picture).
    ///
    /// # Errors
    /// See [`ApiClient::send`].
    pub fn get_text(&self, path: &str) -> Result<String, Failure> {
        self.send_raw(self.http.get(self.url(path)))
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

    fn url(&self, path: &str) -> String {
        format!("{}/v1{path}", self.server)
    }

    /// Sends a request and reads the JSON answer.
    ///
    /// # Errors
    /// A refusal (exit 1) with the server's message for a 4xx answer; a network failure
    /// (exit 3) when the server cannot be reached, answers 5xx or answers something unexpected.
    fn send<T: DeserializeOwned>(&self, request: RequestBuilder) -> Result<T, Failure> {
        let body = self.send_raw(request)?;
        let text = if body.trim().is_empty() {
            "null"
        } else {
            &body
        };
        serde_json::from_str(text).map_err(|error| {
            Failure::network(format!(
                "{} answered something this client does not understand: {error}",
                self.server
            ))
        })
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
        let response = request
            .send()
            .map_err(|error| Failure::network(format!("cannot reach {}: {error}", self.server)))?;
        let status = response.status();
        let body = response.text().map_err(|error| {
            Failure::network(format!("reading the answer of {}: {error}", self.server))
        })?;
        if status.is_success() {
            return Ok(body);
        }
        let message = serde_json::from_str::<ErrorBody>(&body)
            .map(|error| error.error.message)
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
