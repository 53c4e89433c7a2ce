//! One outbound request of a webhook delivery, made safely: the host is resolved here and each
//! address checked ([`OutboundPolicy::refusal`]), and the connection goes to the checked
//! addresses only (no second resolution, so a name that answers a public address to the check
//! and a private one to the connection — DNS rebinding — cannot pass); redirects are not
//! followed (a 3xx is a failure); no proxy from the environment (it would resolve the name
//! itself); connect within 5 s, all within 15 s; at most 4 KB of the answer read. Only the
//! headers the delivery names are sent: no cookie, token or secret of the server.

use std::net::{SocketAddr, ToSocketAddrs as _};
use std::time::{Duration, Instant};

use super::destination::OutboundPolicy;

/// Connecting may take this long.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// The whole request may take this long.
pub const TOTAL_TIMEOUT: Duration = Duration::from_secs(15);
/// Bytes of the answer read at most.
pub const ANSWER_READ_MAX: usize = 4 * 1024;

/// A request to make.
#[derive(Debug, Clone)]
pub struct OutboundRequest {
    /// Where.
    pub url: String,
    /// The headers, content type included.
    pub headers: Vec<(String, String)>,
    /// The body (bytes: a web push body is encrypted).
    pub body: Vec<u8>,
}

/// What came of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboundAnswer {
    /// The status answered, if any.
    pub status: Option<u16>,
    /// Why it failed (none: a 2xx answer).
    pub error: Option<String>,
    /// How long it took.
    pub duration_ms: i64,
}

impl OutboundAnswer {
    /// Whether the endpoint took it.
    #[must_use]
    pub fn delivered(&self) -> bool {
        self.error.is_none()
    }
}

/// Sends `request` under `policy`.
pub async fn send(policy: &OutboundPolicy, request: OutboundRequest) -> OutboundAnswer {
    let started = Instant::now();
    let (status, error) = match attempt(policy, request).await {
        Ok(status) if (200..300).contains(&status) => (Some(status), None),
        Ok(status) if (300..400).contains(&status) => (
            Some(status),
            Some(format!(
                "answered {status}, a redirect: redirects are not followed (point the webhook at the final URL)"
            )),
        ),
        Ok(status) => (Some(status), Some(format!("answered {status}"))),
        Err(error) => (None, Some(error)),
    };
    OutboundAnswer {
        status,
        error,
        duration_ms: i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX),
    }
}

/// The request, answering the status.
async fn attempt(policy: &OutboundPolicy, request: OutboundRequest) -> Result<u16, String> {
    // Checked again at each try: the operator's settings may have changed since it was added.
    let url = policy.check_url(&request.url)?;
    let port = url.port_or_known_default().unwrap_or(443);
    let mut client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .connect_timeout(CONNECT_TIMEOUT)
        .timeout(TOTAL_TIMEOUT)
        .user_agent(concat!("turnpost-webhooks/", env!("CARGO_PKG_VERSION")));
    if let Some(url::Host::Domain(domain)) = url.host() {
        let addresses = resolve(domain.to_owned(), port).await?;
        let mut allowed = Vec::new();
        let mut refused = None;
        for address in addresses {
            match policy.refusal(address) {
                None => allowed.push(address),
                Some(why) => refused = refused.or(Some(why)),
            }
        }
        if allowed.is_empty() {
            return Err(match refused {
                Some(why) => format!("{domain} resolves to a refused address: {why}"),
                None => format!("{domain} resolves to no address"),
            });
        }
        client = client.resolve_to_addrs(domain, &allowed);
    }
    let client = client
        .build()
        .map_err(|error| format!("cannot make an HTTP client: {error}"))?;
    let mut builder = client.post(url);
    for (name, value) in &request.headers {
        builder = builder.header(name.as_str(), value.as_str());
    }
    let mut response = builder
        .body(request.body)
        .send()
        .await
        .map_err(|error| describe(&error))?;
    let status = response.status().as_u16();
    // Read a little of the answer so the connection ends cleanly, and no more.
    let mut read = 0usize;
    while read < ANSWER_READ_MAX {
        match response.chunk().await {
            Ok(Some(chunk)) => read += chunk.len(),
            Ok(None) | Err(_) => break,
        }
    }
    Ok(status)
}

/// The addresses of `domain`, resolved once, within the connect timeout.
async fn resolve(domain: String, port: u16) -> Result<Vec<SocketAddr>, String> {
    let shown = domain.clone();
    let lookup = tokio::task::spawn_blocking(move || (domain.as_str(), port).to_socket_addrs());
    match tokio::time::timeout(CONNECT_TIMEOUT, lookup).await {
        Ok(Ok(Ok(addresses))) => Ok(addresses.collect()),
        Ok(Ok(Err(error))) => Err(format!("cannot resolve {shown}: {error}")),
        Ok(Err(_)) => Err(format!("cannot resolve {shown}")),
        Err(_) => Err(format!("resolving {shown} took longer than 5 s")),
    }
}

/// A failed request as the delivery log says it (no URL: it may carry a token).
fn describe(error: &reqwest::Error) -> String {
    if error.is_timeout() {
        "no answer within the timeout (connect 5 s, total 15 s)".to_owned()
    } else if error.is_connect() {
        let mut source: Option<&dyn std::error::Error> = std::error::Error::source(error);
        let mut deepest = None;
        while let Some(inner) = source {
            deepest = Some(inner.to_string());
            source = inner.source();
        }
        format!(
            "cannot connect{}",
            deepest.map(|why| format!(": {why}")).unwrap_or_default()
        )
    } else {
        "the request failed".to_owned()
    }
    .to_owned()
}
