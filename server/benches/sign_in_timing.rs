//! Sign-in timing benchmark: whether asking for a sign-in code takes as long for an address
//! that has an account as for one that has none (issue 48, point 11). The real
//! `turnpost-server` binary, on SQLite and on PostgreSQL, answers `TURNPOST_BENCH_TRIES`
//! (default 200) requests for each address, interleaved (known, unknown, then unknown, known,
//! so neither side always follows the other), first on `POST /v1/sessions` (the API), then on
//! `POST /signin` (the web form, with its visitor cookie and CSRF token). Prints each side's
//! median, p90 and the difference of the medians; the target is a difference under 0.1 ms.
//! `TURNPOST_BENCH_PAUSE_MS` (default 5) between requests lets the mail worker write out the
//! known address's mail before the next request, as it would between two people's requests.
//! A warm-up of 20 tries of each is not counted.
//!
//! `cargo bench -p turnpost-server --bench sign_in_timing`; `TURNPOST_BENCH_BACKENDS`
//! (default `sqlite,postgres`) chooses the databases. PostgreSQL needs a role that may create
//! databases: `TURNPOST_TEST_DATABASE_URL` (default
//! `postgres://postgres@127.0.0.1:5432/postgres`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark binary: a failed set-up should stop it loudly"
)]

mod support;

use std::time::{Duration, Instant};

use serde_json::json;
use support::{env_number, env_or, ms, percentile};
use turnpost_server::config::Config;

const KNOWN: &str = "known@example.org";
const UNKNOWN: &str = "nobody@example.org";
const WARMUP: usize = 20;

/// One way of asking for a code.
#[derive(Clone, Copy)]
enum Surface {
    Api,
    WebForm,
}

/// Sends one request for a code for `email`; answers how long the answer took.
async fn ask(
    http: &reqwest::Client,
    base: &str,
    surface: Surface,
    web: &(String, String),
    email: &str,
) -> Duration {
    let request = match surface {
        Surface::Api => http
            .post(format!("{base}/v1/sessions"))
            .json(&json!({ "email": email })),
        Surface::WebForm => http
            .post(format!("{base}/signin"))
            .header(reqwest::header::COOKIE, &web.0)
            .form(&[("email", email), ("csrf", &web.1), ("next", "/")]),
    };
    let asked = Instant::now();
    let response = request.send().await.unwrap();
    let status = response.status();
    let _body = response.bytes().await.unwrap();
    let took = asked.elapsed();
    assert!(status.is_success(), "{email}: {status}");
    took
}

/// The visitor cookie and the CSRF token of the sign-in form.
async fn visitor(http: &reqwest::Client, base: &str) -> (String, String) {
    let response = http.get(format!("{base}/signin")).send().await.unwrap();
    let cookie = response
        .headers()
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_owned())
        .collect::<Vec<_>>()
        .join("; ");
    let page = response.text().await.unwrap();
    let marker = "name=\"csrf\" value=\"";
    let start = page.find(marker).expect("the form has a CSRF field") + marker.len();
    let token = page[start..][..page[start..].find('"').unwrap()].to_owned();
    (cookie, token)
}

/// Median and p90 in ms of `times`.
fn summary(times: &mut [Duration]) -> (f64, f64) {
    times.sort();
    (ms(percentile(times, 0.5)), ms(percentile(times, 0.9)))
}

async fn measure(base: &str, surface: Surface, tries: usize, pause: Duration) -> (f64, f64) {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();
    let web = visitor(&http, base).await;
    let (mut known, mut unknown) = (Vec::new(), Vec::new());
    for i in 0..WARMUP + tries {
        let order = if i % 2 == 0 {
            [KNOWN, UNKNOWN]
        } else {
            [UNKNOWN, KNOWN]
        };
        for email in order {
            let took = ask(&http, base, surface, &web, email).await;
            if i >= WARMUP {
                if email == KNOWN {
                    known.push(took);
                } else {
                    unknown.push(took);
                }
            }
            tokio::time::sleep(pause).await;
        }
    }
    let (known_median, known_p90) = summary(&mut known);
    let (unknown_median, unknown_p90) = summary(&mut unknown);
    let name = match surface {
        Surface::Api => "POST /v1/sessions",
        Surface::WebForm => "POST /signin     ",
    };
    println!(
        "  {name}: known {known_median:.3} ms (p90 {known_p90:.3}), unknown {unknown_median:.3} ms \
         (p90 {unknown_p90:.3}), difference of medians {:+.3} ms",
        known_median - unknown_median
    );
    (known_median, unknown_median)
}

fn run(backend: &str, tries: usize, pause: Duration) {
    let name = format!("turnpost_signin_bench_{}", support::suffix());
    let dir = std::env::temp_dir().join(&name);
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = Config::for_tests(dir.clone());
    let admin = support::admin_url();
    let mut env = vec![
        ("TURNPOST_DATA_DIR", dir.display().to_string()),
        // Every try of one address counts against its budget: raise it out of the way.
        ("TURNPOST_RATE_LIMIT_PER_EMAIL", "1000000".to_owned()),
        ("TURNPOST_RATE_LIMIT_PER_CLIENT", "1000000".to_owned()),
    ];
    if backend == "postgres" {
        let url = support::create_database(&admin, &name);
        config.database_url = Some(url.to_string());
        env.push(("DATABASE_URL", url.to_string()));
    }
    {
        let (pool, _, _) = turnpost_server::app::open_database(&config).unwrap();
        let mut conn = pool.get().unwrap();
        let account = turnpost_server::validate::account_name("known").unwrap();
        let email = turnpost_server::validate::email(KNOWN).unwrap();
        turnpost_server::accounts::create_verified(&mut conn, &account, &email, "bench").unwrap();
    }
    if backend == "postgres" {
        support::checkpoint(&admin);
    }
    let (mut server, port) = support::start_server(&env);
    let base = format!("http://127.0.0.1:{port}");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    println!("{backend}, {tries} tries of each address:");
    runtime.block_on(async {
        measure(&base, Surface::Api, tries, pause).await;
        measure(&base, Surface::WebForm, tries, pause).await;
    });
    server.kill().unwrap();
    server.wait().unwrap();
    if backend == "postgres" {
        support::drop_database(&admin, &name);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn main() {
    let tries: usize = env_number("TURNPOST_BENCH_TRIES", 200);
    let pause = Duration::from_millis(env_number("TURNPOST_BENCH_PAUSE_MS", 5));
    for backend in env_or("TURNPOST_BENCH_BACKENDS", "sqlite,postgres").split(',') {
        match backend.trim() {
            "sqlite" => run("sqlite", tries, pause),
            "postgres" => run("postgres", tries, pause),
            other => panic!("TURNPOST_BENCH_BACKENDS: unknown backend {other}"),
        }
    }
}
