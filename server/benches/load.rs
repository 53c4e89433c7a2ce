//! Load benchmark: the real `turnpost-server` binary on PostgreSQL, driven over HTTP, sending
//! its turn cards to a real SMTP server on loopback (the scripted test server, in this process).
//!
//! Closed loop (default): `TURNPOST_BENCH_CLIENTS` concurrent clients (default 32) each keep one
//! game going, submitting the next legal move as soon as the previous one is acknowledged.
//! Reports moves per second and p50/p99 latency of `POST /v1/games/{id}/moves`, the delay from
//! each move's acknowledgement to its turn card reaching the SMTP server (p50/p99, how many
//! arrived, how many twice), the mail side's cost (CPU time of its threads per mail, cards per
//! second it delivered), then runs `pgbench -c <clients> -T <secs>` on its own database for
//! comparison.
//!
//! Open loop (`TURNPOST_BENCH_RATE=40`): a steady rate of moves per second spread over
//! `TURNPOST_BENCH_GAMES` games (default 24), whatever the server's answers take; reports the
//! same figures, without pgbench. `TURNPOST_BENCH_FIND_RATE=1` searches for the sustainable
//! rate instead: open-loop runs (a fresh database each) from `TURNPOST_BENCH_FIND_FROM`
//! (default 200) moves/s, doubling while a run passes (up to `TURNPOST_BENCH_FIND_MAX`, default
//! 6400), then halving the interval between the last pass and the first failure
//! `TURNPOST_BENCH_FIND_STEPS` times (default 3). A run passes when the server acknowledged at
//! least 95% of the moves asked, no card came twice, and the p99 of the delay of all its turn
//! cards (one not arrived within the drain counting as later than any) is at most
//! `TURNPOST_BENCH_CARD_P99_MS` (default 5000).
//!
//! The mail side's CPU time is the time on the CPU of the server's mail threads, read from
//! `/proc/PID/task/*/schedstat` before and after each run: composing (`mail-composer-N` and
//! the catch-up `mail-catchup-c`) and delivery, which draws each card's picture
//! (`mail-session-N`, `mail-catchup-s`); per mail queued (composing) and per mail delivered
//! (delivery, and both together).
//!
//! Needs a PostgreSQL role that may create databases: `TURNPOST_TEST_DATABASE_URL` (default
//! `postgres://postgres@127.0.0.1:5432/postgres`); `PGBENCH` names the pgbench binary (default
//! `/usr/lib/postgresql/15/bin/pgbench`); both connect with `sslmode=disable` unless the URL
//! names an `sslmode` (as in `docker-compose.yml`, whose PostgreSQL has no TLS);
//! `TURNPOST_BENCH_SECS` the duration (default 30; pgbench runs as long);
//! `TURNPOST_BENCH_WARMUP_SECS` (closed loop; default 0) plays that long first without counting;
//! `TURNPOST_BENCH_POOL` the server's pool size (default clients + 4);
//! `TURNPOST_BENCH_TURN_MAIL=off` gives every player turn mail `off` (no turn cards);
//! `TURNPOST_BENCH_RELAY_DELAY_MS` makes the SMTP server wait that long before each answer (a
//! relay far away; default 0); `TURNPOST_BENCH_DRAIN_SECS` how long to wait after the load for
//! the last turn cards (default 30). `TURNPOST_OUTBOX_SESSIONS`, `TURNPOST_MAIL_COMPOSERS` and
//! `TURNPOST_MAIL_CATCH_UP_MS` pass through to the server.
//! `TURNPOST_BENCH_STREAMS=N` (default 0) holds N live streams (`GET /v1/stream`, NDJSON) open
//! on the first process during the load, spread over the players' accounts, and reports when
//! each move's event reached them (from the move's request being sent: commit → byte on the
//! stream, at most), and the server's resident memory before and after opening them;
//! `TURNPOST_BENCH_IDLE_STREAMS=1` makes them idle instead (an account in no game: they hear
//! nothing, and cost only what an open stream costs); `TURNPOST_BENCH_STREAMS_PER_PLAYER=K`
//! gives each player K of them (a "your games" page and a script, say) and the rest to the
//! idle account, as on a server whose open streams are mostly of people not playing right
//! then (the default spreads all N over the players: each move heard on about N / players × 2).
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
mod support;

use std::collections::HashMap;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use diesel::RunQueryDsl;
use serde_json::{json, Value};
use support::{
    checkpoint, create_database, drop_database, env_number, env_or, ms, percentile, suffix,
};
use turnpost_shared::{AnyGame, Options};

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
    /// When each move's request was sent, by (game id, ply after it): its stream event's key.
    sent: Acks,
    /// Moves sent before this are the warm-up: played, not counted.
    count_from: Instant,
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
        self.sent
            .lock()
            .unwrap()
            .insert((playing.id, ply + 1), started);
        let (status, after) = self
            .call(
                &format!("/v1/games/{}/moves", playing.id),
                &self.tokens[seat - 1],
                json!({"move": mv, "ply": ply}),
            )
            .await;
        let acknowledged = Instant::now();
        assert_eq!(status, 201, "{after}");
        if started >= self.count_from {
            playing.latencies.push(acknowledged - started);
        }
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

/// The turn cards that reached the SMTP server.
struct Cards {
    /// Delay from acknowledgement to arrival of each card (first arrival), sorted.
    delays: Vec<Duration>,
    /// Cards that arrived more than once.
    doubled: usize,
    /// When the last card arrived.
    last: Option<Instant>,
    /// Cards that arrived after `since`.
    after: usize,
}

/// The turn cards of the run at the SMTP server.
fn cards(relay: &scripted_smtp::ScriptedSmtp, acks: &Acks, since: Instant) -> Cards {
    let acks = acks.lock().unwrap();
    let mut first: HashMap<(i64, u64), Instant> = HashMap::new();
    let mut doubled = 0;
    for mail in relay.accepted() {
        let Some(key) = card_key(&mail.data) else {
            continue;
        };
        if !acks.contains_key(&key) {
            continue;
        }
        if first.insert(key, mail.at).is_some() {
            doubled += 1;
        }
    }
    let mut delays: Vec<Duration> = first
        .iter()
        .map(|(key, at)| at.saturating_duration_since(acks[key]))
        .collect();
    delays.sort();
    Cards {
        delays,
        doubled,
        last: first.values().max().copied(),
        after: first.values().filter(|at| **at > since).count(),
    }
}

/// The `p` quantile of the delays of all `expected` cards, those not arrived counting as
/// later than any: `None` when it falls among those.
fn quantile_of_all(delays: &[Duration], expected: usize, p: f64) -> Option<Duration> {
    if expected == 0 {
        return Some(Duration::ZERO);
    }
    let i = ((expected as f64 - 1.0) * p).round() as usize;
    delays.get(i).copied()
}

/// CPU time of the mail threads of the server processes `pids`: (composing, delivering, the
/// part of both on the normal-priority catch-up threads).
fn mail_cpu(pids: &[u32]) -> (Duration, Duration, Duration) {
    let composing = |name: &str| name.starts_with("mail-composer") || name == "mail-catchup-c";
    let delivering = |name: &str| name.starts_with("mail-session") || name == "mail-catchup-s";
    let catching_up = |name: &str| name.starts_with("mail-catchup");
    let zero = Duration::ZERO;
    pids.iter().fold((zero, zero, zero), |(c, d, u), pid| {
        (
            c + support::threads_cpu(*pid, &composing),
            d + support::threads_cpu(*pid, &delivering),
            u + support::threads_cpu(*pid, &catching_up),
        )
    })
}

/// CPU time so far of the server processes, PostgreSQL's processes and this benchmark (its
/// clients, stream readers and SMTP server): who used the machine during the load.
struct LoadCpu {
    servers: Duration,
    postgres: Duration,
    bench: Duration,
}

impl LoadCpu {
    fn read(pids: &[u32]) -> Self {
        Self {
            servers: pids.iter().map(|pid| support::process_cpu(*pid)).sum(),
            postgres: support::named_processes_cpu("postgres"),
            bench: support::process_cpu(std::process::id()),
        }
    }

    /// Prints each one's use since `start`, in cores busy over `span`.
    fn report_since(&self, start: &Self, span: Duration) {
        let cores = |now: Duration, then: Duration| {
            now.saturating_sub(then).as_secs_f64() / span.as_secs_f64().max(f64::EPSILON)
        };
        println!(
            "CPU during the load (cores busy, of {}): server {:.2}, PostgreSQL {:.2}, this benchmark (clients, stream readers, SMTP server) {:.2}",
            std::thread::available_parallelism().map_or(0, std::num::NonZero::get),
            cores(self.servers, start.servers),
            cores(self.postgres, start.postgres),
            cores(self.bench, start.bench),
        );
    }
}

/// What every run shares.
struct Setup {
    admin: String,
    clients: usize,
    games: usize,
    secs: u64,
    drain_secs: u64,
    warmup_secs: u64,
    relay_delay: Duration,
    processes: usize,
    turn_mail: bool,
    streams: usize,
    idle_streams: bool,
    streams_per_player: usize,
}

/// What one run measured.
struct Outcome {
    moves_per_sec: f64,
    moves: usize,
    expected: usize,
    card_p99_of_all: Option<Duration>,
    doubled: usize,
}

/// One run on a fresh database: closed loop (`rate` None) or open loop; prints its figures.
fn run(setup: &Setup, rate: Option<f64>) -> Outcome {
    let admin = &setup.admin;
    let clients = match rate {
        Some(_) => setup.games,
        None => setup.clients,
    };
    let (secs, processes) = (setup.secs, setup.processes);
    let pool_size = env_or(
        "TURNPOST_BENCH_POOL",
        &(clients.div_ceil(processes) + 4).to_string(),
    );
    let name = format!("turnpost_bench_{}", suffix());
    let url = create_database(admin, &name);
    let dir = std::env::temp_dir().join(&name);
    std::fs::create_dir_all(&dir).unwrap();
    let relay = scripted_smtp::ScriptedSmtp::start(scripted_smtp::Script {
        delay: setup.relay_delay,
        ..scripted_smtp::Script::default()
    });
    let mut servers = Vec::new();
    let mut ports = Vec::new();
    for _ in 0..processes {
        // One at a time: the first migrates the database, the others find it migrated.
        let (server, port) = support::start_server(&[
            ("DATABASE_URL", url.to_string()),
            ("TURNPOST_DATA_DIR", dir.display().to_string()),
            ("TURNPOST_DB_POOL_SIZE", pool_size.clone()),
            ("SMTP_URL", relay.url()),
            (
                "TURNPOST_STREAMS_PER_ACCOUNT",
                (setup.streams + 8).to_string(),
            ),
            (
                "TURNPOST_STREAMS_PER_PROCESS",
                (setup.streams + 100).max(20_000).to_string(),
            ),
        ]);
        servers.push(server);
        ports.push(port);
    }
    let pids: Vec<u32> = servers.iter().map(std::process::Child::id).collect();

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
    // The idle streams' account: in no game.
    let (idle_token, _, _) = turnpost_server::accounts::create_verified(
        &mut conn,
        &turnpost_server::validate::account_name("idle").unwrap(),
        &turnpost_server::validate::email("idle@example.org").unwrap(),
        "bench",
    )
    .unwrap();
    if !setup.turn_mail {
        // Players who switched turn mail off: the moves alone, without turn cards.
        diesel::sql_query(
            "INSERT INTO notification_settings (account_id, turn_mail, updated_at) \
             SELECT id, 'off', now() FROM accounts",
        )
        .execute(&mut **conn)
        .unwrap();
    }
    drop(conn);
    checkpoint(admin);

    let cpu_before = mail_cpu(&pids);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let acks: Acks = Arc::new(Mutex::new(HashMap::new()));
    let sent: Acks = Arc::new(Mutex::new(HashMap::new()));
    let mut streams = None;
    let (latencies, finished, started, elapsed) = runtime.block_on(async {
        if setup.streams > 0 {
            let players_streams = match setup.streams_per_player {
                _ if setup.idle_streams => 0,
                0 => setup.streams,
                each => (each * players.len()).min(setup.streams),
            };
            let tokens: Vec<String> = (0..setup.streams)
                .map(|i| {
                    if i < players_streams {
                        players[i % players.len()].1.clone()
                    } else {
                        idle_token.clone()
                    }
                })
                .collect();
            // Opened in two steps, the memory read after each once the server's start-up
            // threads for them have gone idle (tokio keeps a blocking thread 10 s): the cost
            // of a stream is the slope between the two, free of the server's fixed costs.
            let base = format!("http://127.0.0.1:{}", ports[0]);
            let settle = || tokio::time::sleep(Duration::from_secs(12));
            let before = support::streams::resident_bytes(pids[0]);
            let opening = Instant::now();
            let first = (setup.streams / 10).max(1);
            let heard = support::streams::Arrivals::default();
            let record = !setup.idle_streams;
            let mut open =
                support::streams::open(&base, &tokens[..first], 25, record, &heard).await;
            settle().await;
            let middle = support::streams::resident_bytes(pids[0]);
            let rest =
                support::streams::open(&base, &tokens[first..], 25, record, &heard).await;
            settle().await;
            let after = support::streams::resident_bytes(pids[0]);
            let took = opening.elapsed();
            let slope_count = rest.opened.max(1);
            open.absorb(rest);
            println!(
                "streams: {} open, {players_streams} of them players' ({} refused{}) in {:.1} s; server resident memory {:.1} MB before, {:.1} MB with {first}, {:.1} MB with all: {:.1} KB per stream (slope over the last {slope_count})",
                open.opened,
                open.refused.len(),
                open.refused.first().map_or_else(String::new, |s| format!(", e.g. {s}")),
                took.as_secs_f64(),
                before as f64 / 1e6,
                middle as f64 / 1e6,
                after as f64 / 1e6,
                after.saturating_sub(middle) as f64 / 1024.0 / slope_count as f64,
            );
            streams = Some(open);
        }
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(clients * 2)
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap();
        let mut tasks = Vec::new();
        // Closed loop: the first `warmup` seconds are played and not counted (the server's
        // connections opened, its caches filled, as in a run whose streams were opened first).
        let count_from = Instant::now()
            + match rate {
                None => Duration::from_secs(setup.warmup_secs),
                Some(_) => Duration::ZERO,
            };
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
                sent: sent.clone(),
                count_from,
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
            None => {
                tokio::time::sleep_until(count_from.into()).await;
                Instant::now()
            }
            Some(_) => {
                tokio::time::sleep_until(paced_start).await;
                Instant::now()
            }
        };
        let cpu_at_start = LoadCpu::read(&pids);
        if rate.is_none() {
            tokio::time::sleep(Duration::from_secs(secs)).await;
            stop.store(true, Ordering::Relaxed);
        } else {
            tokio::time::sleep_until(paced_end).await;
        }
        LoadCpu::read(&pids).report_since(&cpu_at_start, started.elapsed());
        let mut all = Vec::new();
        let mut finished = 0;
        for task in tasks {
            let (lat, fin) = task.await.unwrap();
            all.extend(lat);
            finished += fin;
        }
        (all, finished, started, started.elapsed())
    });
    let load_ended = Instant::now();
    if let Some(open) = streams.take() {
        // Late events have had the load's last round trip to arrive.
        std::thread::sleep(Duration::from_millis(500));
        let delays = support::streams::delays(&open.arrivals, &sent.lock().unwrap());
        if !setup.idle_streams {
            println!(
                "stream events (move request sent -> event on a stream): {} heard on {} streams; p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
                delays.len(),
                open.opened,
                ms(percentile(&delays, 0.50)),
                ms(percentile(&delays, 0.99)),
                ms(delays.last().copied().unwrap_or_default()),
            );
        }
        let _guard = runtime.enter();
        open.close();
    }
    // The turn cards of the run: those that reached the SMTP server during the load, then
    // those that follow within the drain time (until nothing waits to be composed or sent).
    let expected = acks.lock().unwrap().len();
    let mut conn = pool.get().unwrap();
    let mut count = |sql: &str| {
        diesel::sql_query(sql)
            .get_result::<Count>(&mut **conn)
            .unwrap()
            .n
    };
    // Composed events stay in the log for the streams: those waiting are the uncomposed.
    let uncomposed_at_end = count("SELECT count(*) AS n FROM game_events WHERE NOT mail_composed");
    let drain_deadline = load_ended + Duration::from_secs(setup.drain_secs);
    while Instant::now() < drain_deadline
        && count(
            "SELECT (SELECT count(*) FROM game_events WHERE NOT mail_composed) \
             + (SELECT count(*) FROM mail_outbox WHERE status = 'pending') AS n",
        ) > 0
    {
        std::thread::sleep(Duration::from_millis(200));
    }
    let cpu_after = mail_cpu(&pids);
    let sent = count("SELECT count(*) AS n FROM mail_outbox WHERE status = 'sent'");
    let queued = count("SELECT count(*) AS n FROM mail_outbox");
    let dead = count("SELECT count(*) AS n FROM mail_outbox WHERE status = 'dead'");
    let uncomposed = count("SELECT count(*) AS n FROM game_events WHERE NOT mail_composed");
    drop(conn);
    let arrived = cards(&relay, &acks, load_ended);
    for mut server in servers {
        let _ = server.kill();
        let _ = server.wait();
    }
    drop(pool);
    drop_database(admin, &name);
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
    let delays = &arrived.delays;
    let card_p99_of_all = quantile_of_all(delays, expected, 0.99);
    if setup.turn_mail {
        println!(
            "turn cards (move acknowledged -> card at the SMTP server{}): {} of {expected} arrived ({} by the end of the load, the rest within {} s), {} twice; delay p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms; p99 of all {expected}: {}",
            if setup.relay_delay.is_zero() {
                String::new()
            } else {
                format!(", relay answering each command after {} ms", setup.relay_delay.as_millis())
            },
            delays.len(),
            delays.len() - arrived.after,
            setup.drain_secs,
            arrived.doubled,
            ms(percentile(delays, 0.50)),
            ms(percentile(delays, 0.99)),
            ms(delays.last().copied().unwrap_or_default()),
            card_p99_of_all.map_or_else(
                || format!("over {} s (not all arrived)", setup.drain_secs),
                |p99| format!("{:.0} ms", ms(p99))
            ),
        );
    }
    println!(
        "mail: {queued} queued, {sent} delivered, {dead} dead-lettered (all kinds, with pictures); {uncomposed_at_end} game events not yet composed at the end of the load, {uncomposed} after the drain"
    );
    let composing = cpu_after.0.saturating_sub(cpu_before.0);
    let delivering = cpu_after.1.saturating_sub(cpu_before.1);
    let catching_up = cpu_after.2.saturating_sub(cpu_before.2);
    let per = |cpu: Duration, n: i64| ms(cpu) / n.max(1) as f64;
    println!(
        "mail CPU (its threads' time on the CPU): composing {:.1} s = {:.3} ms per mail queued; delivering (picture, SMTP) {:.1} s = {:.3} ms per mail delivered; together {:.3} ms per mail delivered; {:.1} s of it on the normal-priority catch-up threads",
        composing.as_secs_f64(),
        per(composing, queued),
        delivering.as_secs_f64(),
        per(delivering, sent),
        per(composing + delivering, sent),
        catching_up.as_secs_f64(),
    );
    if let Some(last) = arrived.last {
        let span = last.saturating_duration_since(started).as_secs_f64();
        let drained = last.saturating_duration_since(load_ended).as_secs_f64();
        println!(
            "mail side sustained: {:.0} cards/s over the run ({} cards from the load's start to the last card, {span:.1} s){}",
            delays.len() as f64 / span.max(f64::EPSILON),
            delays.len(),
            if arrived.after > 0 {
                format!(
                    "; {:.0} cards/s after the load ({} cards in {drained:.1} s)",
                    arrived.after as f64 / drained.max(f64::EPSILON),
                    arrived.after
                )
            } else {
                String::new()
            }
        );
    }
    Outcome {
        moves_per_sec,
        moves: sorted.len(),
        expected,
        card_p99_of_all,
        doubled: arrived.doubled,
    }
}

/// Whether an open-loop run at `rate` for `secs` kept up: the moves were acknowledged, every
/// card came once, and the p99 of all cards stayed within `bound`.
fn sustained(outcome: &Outcome, rate: f64, secs: u64, bound: Duration) -> bool {
    let asked = rate * secs as f64;
    outcome.moves as f64 >= 0.95 * asked
        && outcome.doubled == 0
        && outcome.card_p99_of_all.is_some_and(|p99| p99 <= bound)
}

/// The search for the highest open-loop rate whose cards' p99 stays within the bound.
fn find_rate(setup: &Setup) {
    let bound = Duration::from_millis(env_number("TURNPOST_BENCH_CARD_P99_MS", 5_000));
    let mut rate: f64 = env_number("TURNPOST_BENCH_FIND_FROM", 200.0);
    let max: f64 = env_number("TURNPOST_BENCH_FIND_MAX", 6_400.0);
    let steps: u32 = env_number("TURNPOST_BENCH_FIND_STEPS", 3);
    let trial = |rate: f64| {
        println!("--- open loop at {rate:.0} moves/s");
        let outcome = run(setup, Some(rate));
        let ok = sustained(&outcome, rate, setup.secs, bound);
        println!(
            "=> {} ({:.0} moves/s acknowledged, {} cards)",
            if ok { "sustained" } else { "not sustained" },
            outcome.moves_per_sec,
            outcome.expected
        );
        ok
    };
    let (mut low, mut high) = (0.0_f64, None::<f64>);
    loop {
        if trial(rate) {
            low = rate;
            if rate >= max {
                break;
            }
            rate = (rate * 2.0).min(max);
        } else {
            high = Some(rate);
            break;
        }
    }
    if let Some(mut fails) = high {
        for _ in 0..steps {
            let middle = ((low + fails) / 2.0).round();
            if middle <= low || middle >= fails {
                break;
            }
            if trial(middle) {
                low = middle;
            } else {
                fails = middle;
            }
        }
        high = Some(fails);
    }
    println!(
        "sustainable open-loop rate (card p99 <= {:.0} ms over {} s runs): {low:.0} moves/s{}",
        ms(bound),
        setup.secs,
        high.map_or_else(
            || " (the search's maximum)".to_owned(),
            |high| format!(" (not at {high:.0} moves/s)")
        )
    );
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else is read from the command line.
    let admin = support::admin_url();
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
    let setup = Setup {
        admin,
        clients: env_number("TURNPOST_BENCH_CLIENTS", 32),
        games: env_number("TURNPOST_BENCH_GAMES", 24),
        secs: env_number("TURNPOST_BENCH_SECS", 30),
        drain_secs: env_number("TURNPOST_BENCH_DRAIN_SECS", 30),
        warmup_secs: env_number("TURNPOST_BENCH_WARMUP_SECS", 0),
        relay_delay: Duration::from_millis(env_number("TURNPOST_BENCH_RELAY_DELAY_MS", 0)),
        processes: env_number("TURNPOST_BENCH_PROCESSES", 1),
        turn_mail: env_or("TURNPOST_BENCH_TURN_MAIL", "immediate") != "off",
        streams: env_number("TURNPOST_BENCH_STREAMS", 0),
        idle_streams: env_or("TURNPOST_BENCH_IDLE_STREAMS", "0") == "1",
        streams_per_player: env_number("TURNPOST_BENCH_STREAMS_PER_PLAYER", 0),
    };
    assert!(
        setup.processes >= 1,
        "TURNPOST_BENCH_PROCESSES must be at least 1"
    );
    if env_or("TURNPOST_BENCH_FIND_RATE", "0") == "1" {
        find_rate(&setup);
        return;
    }
    let outcome = run(&setup, rate);
    if rate.is_some() {
        return;
    }
    let (clients, secs) = (setup.clients, setup.secs);
    match pgbench(&setup.admin, clients, secs) {
        Some(result) => println!(
            "pgbench -c {clients} -j 2 -T {secs}: {:.0} TPS, latency average {:.1} ms{}; turnpost moves/s = {:.0}% of pgbench TPS",
            result.tps,
            result.mean_ms,
            result
                .percentiles_ms
                .map(|(p50, p99)| format!(", p50 {p50:.1} ms, p99 {p99:.1} ms"))
                .unwrap_or_default(),
            outcome.moves_per_sec / result.tps * 100.0
        ),
        None => println!("pgbench did not run (set PGBENCH to its path)"),
    }
}
