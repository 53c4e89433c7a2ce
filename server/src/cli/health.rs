//! `turnpost-server health`: asks a running server's `GET /v1/health` and says whether it
//! answered 200 within a few seconds — for a container's HEALTHCHECK, where the slim image has
//! no curl. Plain HTTP/1.1 over TCP to the server's own listener, nothing else to install.

use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs as _};
use std::time::Duration;

use crate::config::Config;

/// How long the whole check may take, per step (connect, write, read).
const TIMEOUT: Duration = Duration::from_secs(5);

/// The largest answer read: the health body is a few dozen bytes.
const MAX_ANSWER: u64 = 64 * 1024;

/// Why the server is not healthy (or could not be asked).
#[derive(Debug, thiserror::Error)]
pub enum HealthError {
    /// `--url` is not an `http://host:port` URL.
    #[error("--url {0}: expected http://HOST:PORT (the server's listen address)")]
    Url(String),
    /// No connection.
    #[error("cannot reach the server at {address}: {source}")]
    Unreachable {
        /// Where.
        address: String,
        /// Why.
        source: std::io::Error,
    },
    /// An answer other than 200, or none.
    #[error("the server at {address} is not healthy: {said}")]
    Unhealthy {
        /// Where.
        address: String,
        /// Its status line, or what went wrong.
        said: String,
    },
}

/// The address to ask: `url`'s, else the configured listen address (an unspecified address,
/// `0.0.0.0` or `[::]`, asked on loopback).
///
/// # Errors
/// [`HealthError::Url`] for a URL that is not `http://host:port`.
pub fn target(config: &Config, url: Option<&str>) -> Result<String, HealthError> {
    if let Some(url) = url {
        let parsed = url::Url::parse(url).map_err(|_| HealthError::Url(url.to_owned()))?;
        let host = parsed.host_str().filter(|_| parsed.scheme() == "http");
        let (Some(host), Some(port)) = (host, parsed.port_or_known_default()) else {
            return Err(HealthError::Url(url.to_owned()));
        };
        return Ok(format!("{host}:{port}"));
    }
    Ok(match config.listen.parse::<SocketAddr>() {
        Ok(address) if address.ip().is_unspecified() => {
            let loopback = if address.is_ipv4() {
                "127.0.0.1"
            } else {
                "[::1]"
            };
            format!("{loopback}:{}", address.port())
        }
        _ => config.listen.clone(),
    })
}

/// Asks `address` (`host:port`) for `GET /v1/health`.
///
/// # Errors
/// [`HealthError::Unreachable`] or [`HealthError::Unhealthy`].
pub fn check(address: &str) -> Result<(), HealthError> {
    let unreachable = |source| HealthError::Unreachable {
        address: address.to_owned(),
        source,
    };
    let unhealthy = |said: String| HealthError::Unhealthy {
        address: address.to_owned(),
        said,
    };
    let resolved = address
        .to_socket_addrs()
        .map_err(unreachable)?
        .next()
        .ok_or_else(|| {
            unreachable(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "the name has no address",
            ))
        })?;
    let mut stream = TcpStream::connect_timeout(&resolved, TIMEOUT).map_err(unreachable)?;
    stream
        .set_read_timeout(Some(TIMEOUT))
        .and_then(|()| stream.set_write_timeout(Some(TIMEOUT)))
        .map_err(unreachable)?;
    // One write: a server that answers before reading it all must not break the request.
    let request = format!(
        "GET /v1/health HTTP/1.1\r\nHost: {address}\r\nUser-Agent: turnpost-server health\r\n\
         Connection: close\r\n\r\n"
    );
    stream
        .write_all(request.as_bytes())
        .map_err(|e| unhealthy(format!("cannot send the request ({e})")))?;
    let mut answer = Vec::new();
    let read = stream.take(MAX_ANSWER).read_to_end(&mut answer);
    let status_line = answer
        .split(|&b| b == b'\n')
        .next()
        .map(|line| String::from_utf8_lossy(line).trim().to_owned())
        .unwrap_or_default();
    if status_line.is_empty() {
        let why = read
            .err()
            .map_or("no answer".to_owned(), |e| format!("no answer ({e})"));
        return Err(unhealthy(why));
    }
    let code = status_line.split_whitespace().nth(1);
    if status_line.starts_with("HTTP/1.") && code == Some("200") {
        Ok(())
    } else {
        Err(unhealthy(status_line))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::target;
    use crate::config::Config;

    #[test]
    fn the_target_is_the_url_or_the_listen_address_on_loopback() {
        let mut config = Config::for_tests(std::env::temp_dir());
        config.listen = "0.0.0.0:8080".into();
        assert_eq!(target(&config, None).unwrap(), "127.0.0.1:8080");
        config.listen = "[::]:8080".into();
        assert_eq!(target(&config, None).unwrap(), "[::1]:8080");
        config.listen = "10.0.0.5:9000".into();
        assert_eq!(target(&config, None).unwrap(), "10.0.0.5:9000");
        assert_eq!(
            target(&config, Some("http://server:8080/")).unwrap(),
            "server:8080"
        );
        assert!(target(&config, Some("https://server:8080")).is_err());
        assert!(target(&config, Some("nonsense")).is_err());
    }
}
