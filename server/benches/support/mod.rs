//! What the benchmarks share: fresh PostgreSQL databases, the server binary on a free port,
//! percentiles, and the CPU time of a server's threads by name.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "benchmark helpers: a failed set-up should stop the run loudly"
)]

pub mod streams;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use diesel::{Connection, RunQueryDsl};
use turnpost_shared::GameKind;

/// The boards whose turn-card pictures the picture benchmarks draw: every game and variant size,
/// with the options that make it.
pub const CARD_BOARDS: [(GameKind, &[(&str, &str)]); 9] = [
    (GameKind::Kefren, &[]),
    (GameKind::Kechi, &[]),
    (GameKind::Kechi, &[("lines", "7")]),
    (GameKind::SanQi, &[]),
    (GameKind::SanQi, &[("side", "10")]),
    (GameKind::ChineseCheckers, &[("players", "2")]),
    (GameKind::ChineseCheckers, &[("players", "3")]),
    (GameKind::ChineseCheckers, &[("players", "4")]),
    (GameKind::ChineseCheckers, &[("players", "6")]),
];

/// The environment variable `name`, or `default`.
pub fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

/// The environment variable `name` read as a number, or `default`.
pub fn env_number<T: std::str::FromStr>(name: &str, default: T) -> T
where
    T::Err: std::fmt::Debug,
{
    std::env::var(name).map_or(default, |value| {
        value
            .parse()
            .unwrap_or_else(|e| panic!("{name}={value}: {e:?}"))
    })
}

/// Eight random lowercase letters and digits, for database names.
pub fn suffix() -> String {
    turnpost_server::secrets::random_string(8, turnpost_server::secrets::LOWER_ALNUM)
}

/// Creates database `name`; answers its URL.
pub fn create_database(admin: &str, name: &str) -> url::Url {
    let mut conn = diesel::PgConnection::establish(admin).unwrap();
    diesel::sql_query(format!("CREATE DATABASE {name}"))
        .execute(&mut conn)
        .unwrap();
    let mut url = url::Url::parse(admin).unwrap();
    url.set_path(name);
    url
}

/// Drops database `name`, whoever is connected.
pub fn drop_database(admin: &str, name: &str) {
    if let Ok(mut conn) = diesel::PgConnection::establish(admin) {
        let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .execute(&mut conn);
    }
}

/// `url` with `sslmode=disable` unless it names an `sslmode`: turnpost and pgbench both talk to
/// the database as in `docker-compose.yml`, whose PostgreSQL image has no TLS. (Debian's
/// PostgreSQL turns TLS on, and libpq then encrypts loopback traffic; that costs every round
/// trip, so name `sslmode=prefer` in the URL to measure both with it.)
pub fn without_tls_unless_asked(url: &str) -> String {
    let mut parsed = url::Url::parse(url).unwrap();
    if !parsed.query_pairs().any(|(key, _)| key == "sslmode") {
        parsed.query_pairs_mut().append_pair("sslmode", "disable");
    }
    parsed.to_string()
}

/// The admin URL of the benchmarks: `TURNPOST_TEST_DATABASE_URL` without TLS unless asked.
pub fn admin_url() -> String {
    without_tls_unless_asked(&env_or(
        "TURNPOST_TEST_DATABASE_URL",
        "postgres://postgres@127.0.0.1:5432/postgres",
    ))
}

/// Writes out every dirty page now, so neither measurement pays for the other's (or the
/// set-up's) checkpoint.
pub fn checkpoint(admin: &str) {
    if let Ok(mut conn) = diesel::PgConnection::establish(admin) {
        let _ = diesel::sql_query("CHECKPOINT").execute(&mut conn);
    }
}

/// The `p` quantile of `sorted` (zero when empty).
pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

/// Milliseconds.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Creates the verified players `player0`, `player1`, … (`n` of them); answers their accounts
/// and the first one's API token.
pub fn players(
    conn: &mut turnpost_server::db::DbConnection,
    n: usize,
) -> (Vec<turnpost_server::db::accounts::Account>, String) {
    let mut accounts = Vec::with_capacity(n);
    let mut token = String::new();
    for i in 0..n {
        let name = turnpost_server::validate::account_name(&format!("player{i}")).unwrap();
        let email = turnpost_server::validate::email(&format!("player{i}@example.org")).unwrap();
        let (secret, _, account) =
            turnpost_server::accounts::create_verified(conn, &name, &email, "bench").unwrap();
        if i == 0 {
            token = secret;
        }
        accounts.push(account);
    }
    (accounts, token)
}

/// Starts the real server on the SQLite installation in `dir`, reads each of `paths` (with its
/// bearer token, when given) `requests` times as [`reads`] does, stops the server, removes
/// `dir`, and prints each path's CPU a request, median latency and size.
pub fn report_reads(dir: &Path, paths: &[(String, Option<&str>)], requests: usize) {
    let (mut server, port) = start_server(&[("TURNPOST_DATA_DIR", dir.display().to_string())]);
    let base = format!("http://127.0.0.1:{port}");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let measured: Vec<Reads> = runtime.block_on(async {
        let http = reqwest::Client::new();
        let mut measured = Vec::with_capacity(paths.len());
        for (path, token) in paths {
            measured.push(reads(&http, &base, server.id(), path, *token, requests).await);
        }
        measured
    });
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(dir);
    for ((path, _), read) in paths.iter().zip(measured) {
        println!(
            "GET {path}: {:.2} ms CPU a request, median {:.2} ms, {} bytes",
            ms(read.cpu_per_request),
            ms(read.median),
            read.bytes
        );
    }
}

/// What reading one path cost the server.
pub struct Reads {
    /// The server's CPU time (all its threads) per request.
    pub cpu_per_request: Duration,
    /// The median latency.
    pub median: Duration,
    /// The answer's size.
    pub bytes: usize,
}

/// `requests` reads of `path` (with `token` as bearer, when given), one after another, after
/// one that checks the read works, with server `pid`'s CPU time around them.
pub async fn reads(
    http: &reqwest::Client,
    base: &str,
    pid: u32,
    path: &str,
    token: Option<&str>,
    requests: usize,
) -> Reads {
    let get = || {
        let request = http.get(format!("{base}{path}"));
        match token {
            Some(token) => request.bearer_auth(token),
            None => request,
        }
    };
    let first = get().send().await.unwrap();
    assert!(first.status().is_success(), "{path}: {}", first.status());
    let bytes = first.bytes().await.unwrap().len();
    let cpu_before = threads_cpu(pid, &|_| true);
    let mut latencies = Vec::with_capacity(requests);
    for _ in 0..requests {
        let started = Instant::now();
        let answer = get().send().await.unwrap();
        assert!(answer.status().is_success());
        answer.bytes().await.unwrap();
        latencies.push(started.elapsed());
    }
    let cpu = threads_cpu(pid, &|_| true).saturating_sub(cpu_before);
    latencies.sort();
    Reads {
        cpu_per_request: cpu / u32::try_from(requests.max(1)).unwrap(),
        median: percentile(&latencies, 0.5),
        bytes,
    }
}

/// Starts `turnpost-server` on a free port of 127.0.0.1 with `env`, and waits until it
/// listens; answers the process and its port.
pub fn start_server(env: &[(&str, String)]) -> (Child, u16) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut command = Command::new(env!("CARGO_BIN_EXE_turnpost-server"));
    command
        .env("TURNPOST_LISTEN", format!("127.0.0.1:{port}"))
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // `TURNPOST_BENCH_SERVER_LOG=FILE`: the server's warnings and errors, appended to FILE.
    if let Ok(path) = std::env::var("TURNPOST_BENCH_SERVER_LOG") {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        command.stderr(file);
    }
    for (name, value) in env {
        command.env(name, value);
    }
    let child = command.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "the server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    (child, port)
}

/// CPU time of process `pid`'s threads whose name satisfies `wanted`, read from
/// `/proc/PID/task/TID/schedstat` (nanoseconds on the CPU; Linux with schedstats), else from
/// `/proc/PID/task/TID/stat` (user + system time in clock ticks of 10 ms). Zero where there
/// is no `/proc`.
pub fn threads_cpu(pid: u32, wanted: &dyn Fn(&str) -> bool) -> Duration {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Duration::ZERO;
    };
    tasks
        .filter_map(Result::ok)
        .filter(|task| {
            std::fs::read_to_string(task.path().join("comm"))
                .is_ok_and(|name| wanted(name.trim_end()))
        })
        .map(|task| thread_cpu(&task.path()))
        .sum()
}

fn thread_cpu(task: &Path) -> Duration {
    let from_schedstat = std::fs::read_to_string(task.join("schedstat"))
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse::<u64>().ok())
        .map(Duration::from_nanos);
    from_schedstat.unwrap_or_else(|| stat_cpu(&task.join("stat")))
}

/// The user + system time a `/proc` `stat` file gives (a process's or a thread's), in clock
/// ticks of 10 ms; zero when it cannot be read.
fn stat_cpu(stat: &Path) -> Duration {
    std::fs::read_to_string(stat)
        .ok()
        .and_then(|text| {
            // The name may hold spaces: the fields after it follow the last ')'.
            let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
            // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
            let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
            Some(Duration::from_millis((ticks(11)? + ticks(12)?) * 10))
        })
        .unwrap_or_default()
}

/// CPU time of process `pid` (user + system, its exited threads included), from
/// `/proc/PID/stat`; zero where there is no `/proc`.
pub fn process_cpu(pid: u32) -> Duration {
    stat_cpu(Path::new(&format!("/proc/{pid}/stat")))
}

/// CPU time of every process named `name` (`/proc/PID/comm`), e.g. PostgreSQL's backends:
/// those that ended before the call are not counted, so read it around a stretch in which the
/// processes stay (a connection pool's).
pub fn named_processes_cpu(name: &str) -> Duration {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Duration::ZERO;
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .is_ok_and(|comm| comm.trim_end() == name)
        })
        .map(process_cpu)
        .sum()
}
