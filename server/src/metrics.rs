//! This process's Prometheus metrics: counters and histograms the layers above record into, and
//! the text exposition `GET /metrics` serves (when `TURNPOST_METRICS=true`).
//!
//! One registry per process, kept in a static, so every layer records with one call and no
//! handle threaded through: the game service (moves), mail delivery, mail in, bots, sweeps and
//! the HTTP layer. Recording costs an atomic add whether the endpoint is on or not. Several
//! server processes each count their own work; Prometheus adds them up across its targets.
//! Gauges that describe the database (pool use, the mail backlog) are set when scraped.

mod process;

use std::sync::LazyLock;
use std::time::Duration;

use prometheus::{
    Encoder as _, Gauge, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec,
    IntGauge, IntGaugeVec, Opts, Registry, TextEncoder,
};

/// Latency buckets of HTTP requests, in seconds (a move commits in a few milliseconds; a page
/// that draws a board takes longer).
const HTTP_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Think-time buckets of bot moves, in seconds.
const THINK_BUCKETS: &[f64] = &[
    0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Options: plain, or a histogram's with its buckets.
macro_rules! options {
    ($name:literal, $help:literal) => {
        Opts::new($name, $help)
    };
    ($name:literal, $help:literal, $buckets:ident) => {
        HistogramOpts::new($name, $help).buckets($buckets.to_vec())
    };
}

/// A metric of `kind` from its options: one series, or a family by `labels`.
macro_rules! metric {
    ($kind:ident, $options:expr) => {
        $kind::with_opts($options)
    };
    ($kind:ident, $options:expr, [$($label:literal),+]) => {
        $kind::new($options, &[$($label),+])
    };
}

/// Declares [`Metrics`] and its constructor from one table, a metric a row: its field, kind,
/// labels (a family) and buckets (a histogram), name and help.
macro_rules! metrics {
    ($(
        $field:ident: $kind:ident $([$($label:literal),+])? $(/ $buckets:ident)?
            = $name:literal, $help:literal;
    )+) => {
        /// Every metric of the process.
        struct Metrics {
            registry: Registry,
            $($field: $kind,)+
        }

        impl Metrics {
            /// Every metric, registered in a new registry. Fails only for an invalid name or
            /// label (constants here, so the unit test below would fail first).
            fn registered() -> Result<Self, prometheus::Error> {
                let registry = Registry::new();
                $(
                    let $field = metric!($kind, options!($name, $help $(, $buckets)?) $(, [$($label),+])?)?;
                    registry.register(Box::new($field.clone()))?;
                )+
                Ok(Self { registry, $($field,)+ })
            }
        }
    };
}

metrics! {
    moves: IntCounterVec["kind"] = "turnpost_moves_total", "Moves played, by game kind.";
    http_requests: IntCounterVec["method", "route", "status"] = "turnpost_http_requests_total",
        "HTTP requests answered, by method, route pattern and status.";
    http_seconds: HistogramVec["method", "route", "status"] / HTTP_BUCKETS
        = "turnpost_http_request_duration_seconds",
        "Time to answer an HTTP request, by method, route pattern and status.";
    mail_queued: IntCounter = "turnpost_mail_queued_total",
        "Mails written to the outbox by this process.";
    mail_sent: IntCounter = "turnpost_mail_sent_total",
        "Mails the relay accepted from this process.";
    mail_retried: IntCounter = "turnpost_mail_retried_total",
        "Failed delivery attempts that will be tried again.";
    mail_dead: IntCounter = "turnpost_mail_dead_total",
        "Mails dead-lettered (refused for good or too many failed attempts).";
    mail_pending: IntGauge = "turnpost_mail_pending",
        "Mails waiting in the outbox (all processes), when scraped.";
    mail_oldest_pending_seconds: Gauge = "turnpost_mail_oldest_pending_age_seconds",
        "How long the oldest waiting mail has waited, when scraped (0 when none).";
    inbound: IntCounterVec["outcome", "reason"] = "turnpost_inbound_mail_total",
        "Replies read by mail in: handled, or ignored and why.";
    imap_failures: IntCounter = "turnpost_imap_failures_total",
        "Times the IMAP mailbox could not be read (connection, login or a command failed); \
         each is retried after a back-off.";
    bot_moves: IntCounter = "turnpost_bot_moves_total",
        "Moves played by built-in bots in this process.";
    bot_think_seconds: Histogram / THINK_BUCKETS = "turnpost_bot_think_seconds",
        "Time a bot took to choose a move.";
    sweeps: IntCounter = "turnpost_sweeps_total",
        "Sweep rounds run (reminders, timeouts, claims, digests).";
    sweep_findings: IntCounterVec["kind"] = "turnpost_sweep_findings_total",
        "What the sweeps acted on, by kind.";
    pool_connections: IntGauge = "turnpost_db_pool_connections",
        "Database connections open in this process's pool, when scraped.";
    pool_idle: IntGauge = "turnpost_db_pool_idle_connections",
        "Open connections not in use, when scraped.";
    pool_max: IntGauge = "turnpost_db_pool_max_connections", "Most connections the pool opens.";
    build_info: IntGaugeVec["version"] = "turnpost_build_info",
        "1, labelled with the turnpost-server version running.";
}

/// The metrics, or none if they could not be made (logged once; recording then does nothing).
static METRICS: LazyLock<Option<Metrics>> = LazyLock::new(|| {
    Metrics::registered()
        .inspect(|m| {
            // Its one series says which version runs.
            m.build_info
                .with_label_values(&[env!("CARGO_PKG_VERSION")])
                .set(1);
        })
        .inspect_err(|error| tracing::error!(%error, "metrics are unavailable"))
        .ok()
});

/// Records into the metrics, when they could be made.
fn record(into: impl FnOnce(&Metrics)) {
    if let Some(m) = &*METRICS {
        into(m);
    }
}

/// A move was recorded in a game of `kind`.
pub fn move_played(kind: &str) {
    record(|m| m.moves.with_label_values(&[kind]).inc());
}

/// An HTTP request was answered. `route` is the matched route's pattern (`/v1/games/:id`),
/// never the path itself, so ids do not multiply the series; `method` is a standard method's
/// name or one label for all others (`crate::app::request_metrics`), so invented methods do
/// not either.
pub fn http_request(method: &str, route: &str, status: u16, took: Duration) {
    record(|m| {
        m.http_requests
            .with_label_values(&[method, route, &status.to_string()])
            .inc();
        m.http_seconds
            .with_label_values(&[method, route, &status.to_string()])
            .observe(took.as_secs_f64());
    });
}

/// A mail was written to the outbox.
pub fn mail_queued() {
    record(|m| m.mail_queued.inc());
}

/// A mail was delivered.
pub fn mail_sent() {
    record(|m| m.mail_sent.inc());
}

/// A delivery attempt failed and will be retried.
pub fn mail_retried() {
    record(|m| m.mail_retried.inc());
}

/// A mail was dead-lettered.
pub fn mail_dead() {
    record(|m| m.mail_dead.inc());
}

/// A reply was handled (`reason` empty) or ignored for `reason`.
pub fn inbound_mail(outcome: &str, reason: &str) {
    record(|m| m.inbound.with_label_values(&[outcome, reason]).inc());
}

/// The IMAP mailbox failed (and will be tried again).
pub fn imap_failure() {
    record(|m| m.imap_failures.inc());
}

/// A bot played a move after thinking `took`.
pub fn bot_move(took: Duration) {
    record(|m| {
        m.bot_moves.inc();
        m.bot_think_seconds.observe(took.as_secs_f64());
    });
}

/// A sweep round ran and acted on `findings` (kind, count).
pub fn sweep(findings: &[(&str, usize)]) {
    record(|m| {
        m.sweeps.inc();
        for (kind, count) in findings {
            m.sweep_findings
                .with_label_values(&[kind])
                .inc_by(u64::try_from(*count).unwrap_or(u64::MAX));
        }
    });
}

/// What the database looks like when scraped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DatabaseGauges {
    /// Connections open in the pool.
    pub connections: u32,
    /// Of them, not in use.
    pub idle: u32,
    /// The pool's size.
    pub max: u32,
    /// Mails waiting.
    pub mail_pending: i64,
    /// Age of the oldest waiting mail, in seconds.
    pub oldest_pending_secs: f64,
}

/// The text exposition of every metric, with the database gauges set to `gauges`.
///
/// # Errors
/// The metrics could not be made, or the encoder's error (neither expected).
pub fn render(gauges: DatabaseGauges) -> Result<String, prometheus::Error> {
    let metrics = METRICS
        .as_ref()
        .ok_or_else(|| prometheus::Error::Msg("metrics are unavailable".to_owned()))?;
    metrics.pool_connections.set(i64::from(gauges.connections));
    metrics.pool_idle.set(i64::from(gauges.idle));
    metrics.pool_max.set(i64::from(gauges.max));
    metrics.mail_pending.set(gauges.mail_pending);
    metrics
        .mail_oldest_pending_seconds
        .set(gauges.oldest_pending_secs);
    let mut text = Vec::new();
    TextEncoder::new().encode(&metrics.registry.gather(), &mut text)?;
    let mut text = String::from_utf8(text).map_err(|e| prometheus::Error::Msg(e.to_string()))?;
    text.push_str(&process::exposition());
    Ok(text)
}

/// The exposition of the replies `mail-in` delivered, by outcome, as the database counts them
/// for every process (`counts` from `crate::db::mail_in_deliveries::counts`).
#[must_use]
pub fn mail_in_exposition(counts: &[(String, i64)]) -> String {
    use std::fmt::Write as _;
    let name = "turnpost_mail_in_deliveries_total";
    let mut text = format!(
        "# HELP {name} Replies an MTA delivered (mail-in on its pipe, or LMTP), by outcome, counted in the \
         database for all processes.\n# TYPE {name} counter\n"
    );
    for (outcome, count) in counts {
        // Outcomes are this server's own words; escaped all the same.
        let outcome = outcome.replace('\\', "\\\\").replace('"', "\\\"");
        let _ = writeln!(text, "{name}{{outcome=\"{outcome}\"}} {count}");
    }
    text
}

/// The content type of [`render`]'s text.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    /// The exposition with fixed database gauges.
    fn rendered() -> String {
        super::render(super::DatabaseGauges {
            connections: 2,
            idle: 1,
            max: 8,
            mail_pending: 3,
            oldest_pending_secs: 1.5,
        })
        .unwrap()
    }

    #[test]
    fn every_metric_is_valid_and_rendered() {
        super::move_played("kefren");
        let text = rendered();
        assert!(
            text.contains("turnpost_moves_total{kind=\"kefren\"}"),
            "{text}"
        );
        assert!(
            text.contains("turnpost_db_pool_max_connections 8"),
            "{text}"
        );
        assert!(
            text.contains("turnpost_mail_oldest_pending_age_seconds 1.5"),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "turnpost_build_info{{version=\"{}\"}} 1",
                env!("CARGO_PKG_VERSION")
            )),
            "{text}"
        );
        super::http_request(
            "GET",
            "/v1/health",
            200,
            std::time::Duration::from_millis(3),
        );
        let text = rendered();
        assert!(
            text.contains(
                "turnpost_http_request_duration_seconds_count{method=\"GET\",route=\"/v1/health\",status=\"200\"} 1"
            ),
            "{text}"
        );
    }
}
