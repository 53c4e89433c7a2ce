//! Load benchmark: the real `turnpost-server` binary on PostgreSQL, driven over HTTP, sending
//! its turn cards to a real SMTP server on loopback (the scripted test server, in this process).
//!
//! Closed loop (default): `TURNPOST_BENCH_CLIENTS` concurrent clients (default 32) each keep one
//! game going, submitting the next legal move as soon as the previous one is acknowledged.
//! Reports moves per second and p50/p99 latency of `POST /v1/games/{id}/moves`, the delay from
//! each move's acknowledgement to its turn card reaching the SMTP server (p50/p99 and how many
//! arrived), then runs `pgbench -c <clients> -T <secs>` on its own database for comparison.
//!
//! Open loop (`TURNPOST_BENCH_RATE=40`): a steady rate of moves per second spread over
//! `TURNPOST_BENCH_GAMES` games (default 24), whatever the server's answers take; reports the
//! same figures, without pgbench.
//!
//! Needs a PostgreSQL role that may create databases: `TURNPOST_TEST_DATABASE_URL` (default
//! `postgres://postgres@127.0.0.1:5432/postgres`); `PGBENCH` names the pgbench binary (default
//! `/usr/lib/postgresql/15/bin/pgbench`); both connect with `sslmode=disable` unless the URL
//! names an `sslmode` (as in `docker-compose.yml`, whose PostgreSQL has no TLS);
//! `TURNPOST_BENCH_SECS` the duration (default 30);
//! `TURNPOST_BENCH_POOL` the server's pool size (default clients + 4);
//! `TURNPOST_BENCH_TURN_MAIL=off` gives every player turn mail `off` (no turn cards);
//! `TURNPOST_BENCH_RELAY_DELAY_MS` makes the SMTP server wait that long before each answer (a
//! relay far away; default 0); `TURNPOST_BENCH_DRAIN_SECS` how long to wait after the load for
//! the last turn cards (default 30). `TURNPOST_OUTBOX_SESSIONS` passes through to the server.
//! `TURNPOST_BENCH_PROCESSES=N` (default 1) starts N server processes on the one database, as
//! behind a reverse proxy, and spreads the clients over them (client c talks to process c mod
//! N); each process gets a pool of `TURNPOST_BENCH_POOL` (default clients / N + 4).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark binary: a failed set-up should stop it loudly"
)]

#[path = "../tests/common/scripted_smtp.rs"]
mod scripted_smtp;

use std::collections::HashMap;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use diesel::{Connection, RunQueryDsl};
use serde_json::{json, Value};
use turnpost_shared::{AnyGame, Options};

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

fn suffix() -> String {
    turnpost_server::secrets::random_string(8, turnpost_server::secrets::LOWER_ALNUM)
}

fn create_database(admin: &str, name: &str) -> url::Url {
    let mut conn = diesel::PgConnection::establish(admin).unwrap();
    diesel::sql_query(format!("CREATE DATABASE {name}"))
        .execute(&mut conn)
        .unwrap();
    let mut url = url::Url::parse(admin).unwrap();
    url.set_path(name);
    url
}

fn drop_database(admin: &str, name: &str) {
    if let Ok(mut conn) = diesel::PgConnection::establish(admin) {
        let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .execute(&mut conn);
    }
}

/// `url` with `sslmode=disable` unless it names an `sslmode`: turnpost and pgbench both talk to
/// the database as in `docker-compose.yml`, whose PostgreSQL image has no TLS. (Debian's
/// PostgreSQL turns TLS on, and libpq then encrypts loopback traffic; that costs every round
/// trip, so name `sslmode=prefer` in the URL to measure both with it.)
fn without_tls_unless_asked(url: &str) -> String {
    let mut parsed = url::Url::parse(url).unwrap();
    if !parsed.query_pairs().any(|(key, _)| key == "sslmode") {
        parsed.query_pairs_mut().append_pair("sslmode", "disable");
    }
    parsed.to_string()
}

/// Writes out every dirty page now, so neither measurement pays for the other's (or the set-up's)
/// checkpoint.
fn checkpoint(admin: &str) {
    if let Ok(mut conn) = diesel::PgConnection::establish(admin) {
        let _ = diesel::sql_query("CHECKPOINT").execute(&mut conn);
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

#[derive(diesel::QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

/// When each move was acknowledged, by the turn card it should cause: (game id, ply to play).
type Acks = Arc<Mutex<HashMap<(i64, u64), Instant>>>;

struct Client {
    http: reqwest::Client,
    base: String,
    tokens: [String; 2],
    names: [String; 2],
    acks: Acks,
}

/// One client's game as it goes.
struct Playing {
    id: i64,
    view: Value,
    rng: u64,
    latencies: Vec<Duration>,
    finished: usize,
}

impl Client {
    async fn call(&self, path: &str, token: &str, body: Value) -> (u16, Value) {
        let resp = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = resp.status().as_u16();
        (status, resp.json().await.unwrap_or(Value::Null))
    }

    async fn new_game(&self) -> (i64, Value) {
        let (status, view) = self
            .call(
                "/v1/games",
                &self.tokens[0],
                json!({"kind": "kefren", "seats": self.names}),
            )
            .await;
        assert_eq!(status, 201, "{view}");
        let id = view["id"].as_i64().unwrap();
        let (status, view) = self
            .call(
                &format!("/v1/games/{id}/accept"),
                &self.tokens[1],
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{view}");
        (id, view)
    }

    async fn start(&self, seed: u64) -> Playing {
        let (id, view) = self.new_game().await;
        Playing {
            id,
            view,
            rng: seed.wrapping_mul(6_364_136_223_846_793_005) | 1,
            latencies: Vec::new(),
            finished: 0,
        }
    }

    /// Plays one random legal move (starting a new game first if this one is over), and
    /// records when it was acknowledged under the turn card it causes.
    async fn play_one(&self, playing: &mut Playing) {
        if playing.view["status"] != "active" {
            playing.finished += 1;
            (playing.id, playing.view) = self.new_game().await;
        }
        let options = Options::new();
        let game =
            AnyGame::from_position_text(&options, playing.view["position"].as_str().unwrap())
                .unwrap();
        let legal = game.legal_moves();
        playing.rng = playing
            .rng
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let mv = &legal[((playing.rng >> 33) as usize) % legal.len()];
        let seat = playing.view["to_move"].as_u64().unwrap() as usize;
        let ply = playing.view["ply"].as_u64().unwrap();
        let started = Instant::now();
        let (status, after) = self
            .call(
                &format!("/v1/games/{}/moves", playing.id),
                &self.tokens[seat - 1],
                json!({"move": mv, "ply": ply}),
            )
            .await;
        let acknowledged = Instant::now();
        assert_eq!(status, 201, "{after}");
        playing.latencies.push(acknowledged - started);
        if after["status"] == "active" {
            self.acks
                .lock()
                .unwrap()
                .insert((playing.id, ply + 1), acknowledged);
        }
        playing.view = after;
    }

    /// Closed loop: the next move as soon as the last is acknowledged, until `stop`; returns
    /// the latencies of acknowledged moves and the games finished.
    async fn run(self, seed: u64, stop: Arc<AtomicBool>) -> (Vec<Duration>, usize) {
        let mut playing = self.start(seed).await;
        while !stop.load(Ordering::Relaxed) {
            self.play_one(&mut playing).await;
        }
        (playing.latencies, playing.finished)
    }

    /// Open loop: one move at `first`, then one every `every` until `end`, whatever the
    /// answers take (a move whose time has passed is played at once).
    async fn run_paced(
        self,
        seed: u64,
        first: tokio::time::Instant,
        every: Duration,
        end: tokio::time::Instant,
    ) -> (Vec<Duration>, usize) {
        let mut playing = self.start(seed).await;
        let mut next = first;
        while next < end {
            tokio::time::sleep_until(next).await;
            self.play_one(&mut playing).await;
            next += every;
        }
        (playing.latencies, playing.finished)
    }
}

/// The (game id, ply) of a turn card: from its `turnpost move ID --ply N …` line.
fn card_key(data: &str) -> Option<(i64, u64)> {
    // Quoted-printable soft line breaks could split the line.
    let text = data.replace("=\r\n", "");
    let rest = text.split("turnpost move ").nth(1)?;
    let mut words = rest.split_whitespace();
    let id = words.next()?.parse().ok()?;
    if words.next()? != "--ply" {
        return None;
    }
    let ply = words.next()?.parse().ok()?;
    Some((id, ply))
}

/// Delays from acknowledgement to arrival at the SMTP server of the turn cards that arrived.
fn card_delays(relay: &scripted_smtp::ScriptedSmtp, acks: &Acks) -> Vec<Duration> {
    let acks = acks.lock().unwrap();
    let mut delays: Vec<Duration> = relay
        .accepted()
        .iter()
        .filter_map(|mail| {
            let acked = acks.get(&card_key(&mail.data)?)?;
            Some(mail.at.saturating_duration_since(*acked))
        })
        .collect();
    delays.sort();
    delays
}

/// What `pgbench` measured.
struct PgbenchResult {
    tps: f64,
    mean_ms: f64,
    /// p50 and p99 from its per-transaction log (`-l`), if it wrote one.
    percentiles_ms: Option<(f64, f64)>,
}

/// p50 and p99 (ms) of the per-transaction logs `pgbench -l` wrote into `dir` (third column:
/// latency in microseconds).
fn log_percentiles(dir: &std::path::Path) -> Option<(f64, f64)> {
    let mut latencies: Vec<u64> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("pgbench_log"))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .flat_map(|text| {
            text.lines()
                .filter_map(|l| l.split_whitespace().nth(2)?.parse::<u64>().ok())
                .collect::<Vec<_>>()
        })
        .collect();
    if latencies.is_empty() {
        return None;
    }
    latencies.sort_unstable();
    let at =
        |p: f64| latencies[((latencies.len() - 1) as f64 * p).round() as usize] as f64 / 1000.0;
    Some((at(0.50), at(0.99)))
}

/// `pgbench -c clients -T secs` on a fresh database.
fn pgbench(admin: &str, clients: usize, secs: u64) -> Option<PgbenchResult> {
    let binary = env_or("PGBENCH", "/usr/lib/postgresql/15/bin/pgbench");
    let name = format!("turnpost_pgbench_{}", suffix());
    let url = create_database(admin, &name);
    let conninfo = url.to_string();
    let init = Command::new(&binary)
        .args(["-i", "-q", &conninfo])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let logs = std::env::temp_dir().join(&name);
    let _ = std::fs::create_dir_all(&logs);
    checkpoint(admin);
    let result = match init {
        Ok(s) if s.success() => {
            let out = Command::new(&binary)
                .current_dir(&logs)
                .args([
                    "-l",
                    "-c",
                    &clients.to_string(),
                    "-j",
                    "2",
                    "-T",
                    &secs.to_string(),
                    &conninfo,
                ])
                .output()
                .ok();
            out.and_then(|o| {
                let text = String::from_utf8_lossy(&o.stdout).into_owned();
                let number = |prefix: &str| {
                    text.lines()
                        .find(|l| l.starts_with(prefix))
                        .and_then(|l| l.trim_start_matches(prefix).split_whitespace().next())
                        .and_then(|n| n.parse::<f64>().ok())
                };
                Some(PgbenchResult {
                    tps: number("tps = ")?,
                    mean_ms: number("latency average = ").unwrap_or(f64::NAN),
                    percentiles_ms: log_percentiles(&logs),
                })
            })
        }
        _ => None,
    };
    drop_database(admin, &name);
    let _ = std::fs::remove_dir_all(&logs);
    result
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is read from the command line.
    let admin = without_tls_unless_asked(&env_or(
        "TURNPOST_TEST_DATABASE_URL",
        "postgres://postgres@127.0.0.1:5432/postgres",
    ));
    let sslmode = url::Url::parse(&admin)
        .unwrap()
        .query_pairs()
        .find(|(key, _)| key == "sslmode")
        .map(|(_, value)| value.into_owned())
        .unwrap_or_default();
    println!("database connections (turnpost and pgbench): sslmode={sslmode}");
    let rate: Option<f64> = std::env::var("TURNPOST_BENCH_RATE")
        .ok()
        .map(|r| r.parse().unwrap());
    let clients: usize = match rate {
        Some(_) => env_or("TURNPOST_BENCH_GAMES", "24").parse().unwrap(),
        None => env_or("TURNPOST_BENCH_CLIENTS", "32").parse().unwrap(),
    };
    let secs: u64 = env_or("TURNPOST_BENCH_SECS", "30").parse().unwrap();
    let drain_secs: u64 = env_or("TURNPOST_BENCH_DRAIN_SECS", "30").parse().unwrap();
    let relay_delay = Duration::from_millis(
        env_or("TURNPOST_BENCH_RELAY_DELAY_MS", "0")
            .parse()
            .unwrap(),
    );
    let processes: usize = env_or("TURNPOST_BENCH_PROCESSES", "1").parse().unwrap();
    assert!(
        processes >= 1,
        "TURNPOST_BENCH_PROCESSES must be at least 1"
    );
    let pool_size = env_or(
        "TURNPOST_BENCH_POOL",
        &(clients.div_ceil(processes) + 4).to_string(),
    );
    let name = format!("turnpost_bench_{}", suffix());
    let url = create_database(&admin, &name);
    let dir = std::env::temp_dir().join(&name);
    std::fs::create_dir_all(&dir).unwrap();
    let relay = scripted_smtp::ScriptedSmtp::start(scripted_smtp::Script {
        delay: relay_delay,
        ..scripted_smtp::Script::default()
    });
    let mut servers = Vec::new();
    let mut ports = Vec::new();
    for _ in 0..processes {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        servers.push(
            Command::new(env!("CARGO_BIN_EXE_turnpost-server"))
                .env("DATABASE_URL", url.as_str())
                .env("TURNPOST_DATA_DIR", &dir)
                .env("TURNPOST_LISTEN", format!("127.0.0.1:{port}"))
                .env("TURNPOST_DB_POOL_SIZE", &pool_size)
                .env("SMTP_URL", relay.url())
                .env("RUST_LOG", "warn")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap(),
        );
        // One at a time: the first migrates the database, the others find it migrated.
        let deadline = Instant::now() + Duration::from_secs(60);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "the server did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        ports.push(port);
    }

    // Two accounts per client, made directly in the database.
    let target = turnpost_server::config::DatabaseTarget::Postgres(url.to_string());
    let pool = turnpost_server::db::connect(&target, 2).unwrap();
    let mut conn = pool.get().unwrap();
    let mut players = Vec::new();
    for i in 0..clients * 2 {
        let name = format!("bench{i}");
        let account = turnpost_server::validate::account_name(&name).unwrap();
        let email = turnpost_server::validate::email(&format!("{name}@example.org")).unwrap();
        let (token, _, _) =
            turnpost_server::accounts::create_verified(&mut conn, &account, &email, "bench")
                .unwrap();
        players.push((name, token));
    }
    let turn_mail = env_or("TURNPOST_BENCH_TURN_MAIL", "immediate") != "off";
    if !turn_mail {
        // Players who switched turn mail off: the moves alone, without turn cards.
        diesel::sql_query(
            "INSERT INTO notification_settings (account_id, turn_mail, updated_at) \
             SELECT id, 'off', now() FROM accounts",
        )
        .execute(&mut **conn)
        .unwrap();
    }
    drop(conn);
    checkpoint(&admin);

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let acks: Acks = Arc::new(Mutex::new(HashMap::new()));
    let (latencies, finished, elapsed) = runtime.block_on(async {
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(clients * 2)
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap();
        let mut tasks = Vec::new();
        // Open loop: game c moves at first + c × (1 / rate), then every clients / rate.
        let paced_start = tokio::time::Instant::now() + Duration::from_secs(2);
        let paced_end = paced_start + Duration::from_secs(secs);
        for c in 0..clients {
            let client = Client {
                http: http.clone(),
                base: format!("http://127.0.0.1:{}", ports[c % processes]),
                tokens: [players[2 * c].1.clone(), players[2 * c + 1].1.clone()],
                names: [players[2 * c].0.clone(), players[2 * c + 1].0.clone()],
                acks: acks.clone(),
            };
            let seed = c as u64 + 1;
            tasks.push(match rate {
                None => tokio::spawn(client.run(seed, stop.clone())),
                Some(rate) => {
                    let every = Duration::from_secs_f64(clients as f64 / rate);
                    let first = paced_start + Duration::from_secs_f64(c as f64 / rate);
                    tokio::spawn(client.run_paced(seed, first, every, paced_end))
                }
            });
        }
        let started = match rate {
            None => Instant::now(),
            Some(_) => {
                tokio::time::sleep_until(paced_start).await;
                Instant::now()
            }
        };
        if rate.is_none() {
            tokio::time::sleep(Duration::from_secs(secs)).await;
            stop.store(true, Ordering::Relaxed);
        }
        let mut all = Vec::new();
        let mut finished = 0;
        for task in tasks {
            let (lat, fin) = task.await.unwrap();
            all.extend(lat);
            finished += fin;
        }
        (all, finished, started.elapsed())
    });
    // The turn cards of the run: those that reached the SMTP server during the load, then
    // those that follow within the drain time.
    let expected = acks.lock().unwrap().len();
    let at_end_of_load = card_delays(&relay, &acks).len();
    let drain_deadline = Instant::now() + Duration::from_secs(drain_secs);
    while card_delays(&relay, &acks).len() < expected && Instant::now() < drain_deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    let delays = card_delays(&relay, &acks);
    let mut conn = pool.get().unwrap();
    let mut count = |sql: &str| {
        diesel::sql_query(sql)
            .get_result::<Count>(&mut **conn)
            .unwrap()
            .n
    };
    let sent = count("SELECT count(*) AS n FROM mail_outbox WHERE status = 'sent'");
    let queued = count("SELECT count(*) AS n FROM mail_outbox");
    let dead = count("SELECT count(*) AS n FROM mail_outbox WHERE status = 'dead'");
    let uncomposed = count("SELECT count(*) AS n FROM game_events");
    drop(conn);
    for mut server in servers {
        let _ = server.kill();
        let _ = server.wait();
    }
    drop(pool);
    drop_database(&admin, &name);
    let _ = std::fs::remove_dir_all(&dir);

    let mut sorted = latencies.clone();
    sorted.sort();
    let moves_per_sec = sorted.len() as f64 / elapsed.as_secs_f64();
    let mode = match rate {
        None => format!("{clients} clients (closed loop)"),
        Some(rate) => format!("open loop at {rate} moves/s over {clients} games"),
    };
    let mode = format!("{mode}, {processes} server process(es) with a pool of {pool_size} each");
    println!(
        "turnpost: {mode}, {:.1} s: {} moves acknowledged, {moves_per_sec:.1} moves/s, mean {:.1} ms, p50 {:.1} ms, p99 {:.1} ms, {finished} games finished",
        elapsed.as_secs_f64(),
        sorted.len(),
        sorted.iter().sum::<Duration>().as_secs_f64() * 1000.0 / sorted.len().max(1) as f64,
        ms(percentile(&sorted, 0.50)),
        ms(percentile(&sorted, 0.99)),
    );
    if turn_mail {
        println!(
            "turn cards (move acknowledged -> card at the SMTP server{}): {} of {expected} arrived ({at_end_of_load} by the end of the load, the rest within {drain_secs} s), delay p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms",
            if relay_delay.is_zero() {
                String::new()
            } else {
                format!(", relay answering each command after {} ms", relay_delay.as_millis())
            },
            delays.len(),
            ms(percentile(&delays, 0.50)),
            ms(percentile(&delays, 0.99)),
            ms(delays.last().copied().unwrap_or_default()),
        );
    }
    println!(
        "mail: {queued} queued, {sent} delivered, {dead} dead-lettered (all kinds, with pictures); {uncomposed} game events not yet composed"
    );
    if rate.is_some() {
        return;
    }
    match pgbench(&admin, clients, secs) {
        Some(result) => println!(
            "pgbench -c {clients} -j 2 -T {secs}: {:.0} TPS, latency average {:.1} ms{}; turnpost moves/s = {:.0}% of pgbench TPS",
            result.tps,
            result.mean_ms,
            result
                .percentiles_ms
                .map(|(p50, p99)| format!(", p50 {p50:.1} ms, p99 {p99:.1} ms"))
                .unwrap_or_default(),
            moves_per_sec / result.tps * 100.0
        ),
        None => println!("pgbench did not run (set PGBENCH to its path)"),
    }
}
