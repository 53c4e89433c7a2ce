//! `GET /metrics`: off by default (404); on, Prometheus text that a parser reads, whose
//! counters move when a move is played, a mail is sent and a request is answered.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;

use common::{get, post, Backend, TestApp};
use serde_json::json;

both_backends!(
    metrics_are_off_by_default,
    metrics_move_after_a_move,
    invented_methods_share_one_series,
    imap_failures_are_counted,
);

/// The scraped samples.
async fn scrape(app: &TestApp) -> prometheus_parse::Scrape {
    let answer = app
        .http
        .get(format!("{}/metrics", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    let content_type = answer.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        content_type.starts_with("text/plain; version=0.0.4"),
        "{content_type}"
    );
    let text = answer.text().await.unwrap();
    prometheus_parse::Scrape::parse(text.lines().map(|l| Ok(l.to_owned()))).unwrap()
}

/// The sum of the samples of `name` whose labels include every pair of `labels`.
fn value(scrape: &prometheus_parse::Scrape, name: &str, labels: &[(&str, &str)]) -> f64 {
    scrape
        .samples
        .iter()
        .filter(|s| s.metric == name)
        .filter(|s| labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
        .map(|s| match s.value {
            prometheus_parse::Value::Counter(v)
            | prometheus_parse::Value::Gauge(v)
            | prometheus_parse::Value::Untyped(v) => v,
            prometheus_parse::Value::Histogram(ref buckets) => {
                buckets.last().map_or(0.0, |b| b.count)
            }
            prometheus_parse::Value::Summary(_) => 0.0,
        })
        .sum()
}

async fn metrics_are_off_by_default(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    assert!(!app.config.metrics);
    let answer = app.get("/metrics", None).await;
    assert_eq!(answer.status, 404, "{answer:?}");
}

async fn metrics_move_after_a_move(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| config.metrics = true).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let created = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "bert"]}),
    )
    .await;
    let id = created.body["id"].as_i64().unwrap();
    post(&app, &format!("/v1/games/{id}/accept"), &bert, json!({})).await;
    app.game_mail_composed().await;
    // Everything queued so far is delivered before the first scrape.
    let mut before = scrape(&app).await;
    for _ in 0..200 {
        if value(&before, "turnpost_mail_sent_total", &[])
            >= value(&before, "turnpost_mail_queued_total", &[])
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        before = scrape(&app).await;
    }
    for name in [
        "turnpost_db_pool_connections",
        "turnpost_db_pool_idle_connections",
        "turnpost_mail_pending",
        "turnpost_mail_oldest_pending_age_seconds",
    ] {
        assert!(
            before.samples.iter().any(|s| s.metric == name),
            "{name} missing"
        );
    }
    assert_eq!(value(&before, "turnpost_db_pool_max_connections", &[]), 4.0);

    let shown = get(&app, &format!("/v1/games/{id}"), &anna).await.body;
    let first = shown["legal_moves"][0].as_str().unwrap().to_owned();
    let moved = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &anna,
        json!({"move": first, "ply": 0}),
    )
    .await;
    assert_eq!(moved.status, 201, "{moved:?}");
    // The same request again: answered alike, not a second move.
    let again = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &anna,
        json!({"move": first, "ply": 0}),
    )
    .await;
    assert_eq!(again.status, 201, "{again:?}");
    app.game_mail_composed().await;
    let route = [("route", "/v1/games/:id/moves"), ("method", "POST")];
    let mut after = scrape(&app).await;
    for _ in 0..200 {
        if value(&after, "turnpost_mail_sent_total", &[])
            > value(&before, "turnpost_mail_sent_total", &[])
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        after = scrape(&app).await;
    }

    // Other tests of this binary run in the same process and count too: only this app's game
    // kind is certain to have moved by exactly what this test did, so compare at least.
    let moves =
        |s: &prometheus_parse::Scrape| value(s, "turnpost_moves_total", &[("kind", "kefren")]);
    assert!(moves(&after) >= moves(&before) + 1.0, "moves did not move");
    let requests = |s: &prometheus_parse::Scrape| {
        value(
            s,
            "turnpost_http_requests_total",
            &[route[0], route[1], ("status", "201")],
        )
    };
    assert!(
        requests(&after) >= requests(&before) + 2.0,
        "{:?}",
        after
            .samples
            .iter()
            .filter(|s| s.metric == "turnpost_http_requests_total")
            .map(|s| format!("{:?} {:?}", s.labels, s.value))
            .collect::<Vec<_>>()
    );
    // The histogram counted both requests under the pattern, never the path with the id.
    let latency =
        |s: &prometheus_parse::Scrape| value(s, "turnpost_http_request_duration_seconds", &route);
    assert!(latency(&after) >= latency(&before) + 2.0);
    let path = format!("/v1/games/{id}/moves");
    assert!(
        !after
            .samples
            .iter()
            .any(|s| s.labels.get("route") == Some(path.as_str())),
        "a series per game"
    );
    assert!(
        value(&after, "turnpost_mail_queued_total", &[])
            > value(&before, "turnpost_mail_queued_total", &[])
    );
    assert!(
        value(&after, "turnpost_mail_sent_total", &[])
            > value(&before, "turnpost_mail_sent_total", &[])
    );
    assert!(value(&after, "turnpost_sweeps_total", &[]) >= 1.0);
    // The scrapes themselves are requests.
    assert!(
        value(
            &after,
            "turnpost_http_requests_total",
            &[("route", "/metrics")]
        ) >= 2.0
    );
    // The latency histogram by status too, as the operators' guide says.
    assert!(
        value(
            &after,
            "turnpost_http_request_duration_seconds",
            &[route[0], route[1], ("status", "201")]
        ) >= 2.0
    );
    // The process's own series, and which version runs.
    assert_eq!(
        value(
            &after,
            "turnpost_build_info",
            &[("version", env!("CARGO_PKG_VERSION"))]
        ),
        1.0
    );
    assert!(value(&after, "process_resident_memory_bytes", &[]) > 1_000_000.0);
    assert!(value(&after, "process_open_fds", &[]) >= 3.0);
    assert!(value(&after, "process_cpu_seconds_total", &[]) > 0.0);
    assert!(value(&after, "process_start_time_seconds", &[]) > 1_700_000_000.0);
}

/// A client may send any token as a method: invented ones must not each add a series that is
/// never freed (recording is on even with `/metrics` off; here it is on, to read it).
async fn invented_methods_share_one_series(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| config.metrics = true).await;
    const INVENTED: usize = 150;
    for i in 0..INVENTED {
        // Some short, some of a kilobyte; to a route and to no route.
        let name = if i % 3 == 0 {
            format!("INVENTED{i}{}", "X".repeat(1000))
        } else {
            format!("INVENTED{i}")
        };
        let path = if i % 2 == 0 { "/v1/health" } else { "/nowhere" };
        let method = reqwest::Method::from_bytes(name.as_bytes()).unwrap();
        let answer = app
            .http
            .request(method, format!("{}{path}", app.base))
            .send()
            .await
            .unwrap();
        assert!(answer.status().is_client_error(), "{name}: {answer:?}");
    }
    let scraped = scrape(&app).await;
    let standard = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "other",
    ];
    for name in [
        "turnpost_http_requests_total",
        "turnpost_http_request_duration_seconds",
    ] {
        let methods: std::collections::BTreeSet<&str> = scraped
            .samples
            .iter()
            .filter(|s| s.metric == name)
            .filter_map(|s| s.labels.get("method"))
            .collect();
        assert!(
            methods.iter().all(|m| standard.contains(m)),
            "{name}: {} method labels, e.g. {:?}",
            methods.len(),
            methods
                .iter()
                .find(|m| !standard.contains(m))
                .map(|m| m.chars().take(40).collect::<String>())
        );
    }
    // Other tests of this binary run in the same process and count too: at least ours.
    assert!(
        value(
            &scraped,
            "turnpost_http_requests_total",
            &[("method", "other")]
        ) >= INVENTED as f64
    );
}

/// A mailbox that does not answer is counted each time it is tried.
async fn imap_failures_are_counted(backend: Backend) {
    // Nothing listens on port 1 of the loopback.
    let app = TestApp::spawn_with(backend, |config| {
        config.metrics = true;
        config.imap_url = Some("imap://games:pw@127.0.0.1:1/INBOX".to_owned());
    })
    .await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let scraped = scrape(&app).await;
        if value(&scraped, "turnpost_imap_failures_total", &[]) >= 1.0 {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no IMAP failure counted in 20 s"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}
