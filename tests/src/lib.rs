//! Helpers for end-to-end tests: the real `turnpost-server` and `turnpost` binaries, started as
//! processes on free local ports with throw-away data directories, and an SMTP server in the
//! test process that receives the server's mail.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod module_graph;
mod smtp_sink;
mod sqlite_file;

pub use module_graph::{Cycle, ModuleGraph, ModulePath};
pub use smtp_sink::{Mail, SmtpSink};

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The path of a workspace binary, brought up to date first (`cargo test -p turnpost-tests`
/// does not build other packages' binaries, and a stale one would test old code). They are
/// built as `cargo test --workspace --no-run` builds them, with the same features: after
/// `cargo nextest run --workspace` (or `cargo test --workspace`) cargo finds them fresh at
/// once, where a `cargo build -p turnpost-server` would rebuild the server with other
/// features, for minutes, in the middle of the run. Once per test process.
pub fn binary(package: &str, name: &str) -> PathBuf {
    static BUILT: Mutex<bool> = Mutex::new(false);
    let exe = std::env::current_exe().unwrap();
    // target/<profile>/deps/<test> → target/<profile>/<name>
    let dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let mut built = BUILT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if !*built {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        let mut command = Command::new(cargo);
        command.args(["test", "--workspace", "--no-run", "--quiet"]);
        // What cargo sets for a test process is not the caller's environment: a build script
        // that watches one of these (ring's watches CARGO_MANIFEST_DIR) would find it changed
        // and rebuild, with everything above it.
        for (key, _) in std::env::vars_os() {
            let key = key.to_string_lossy();
            if key.starts_with("CARGO_PKG_")
                || key.starts_with("CARGO_BIN_EXE_")
                || matches!(
                    key.as_ref(),
                    "CARGO_MANIFEST_DIR"
                        | "CARGO_MANIFEST_PATH"
                        | "CARGO_CRATE_NAME"
                        | "CARGO_PRIMARY_PACKAGE"
                        | "CARGO_TARGET_TMPDIR"
                        | "CARGO_BIN_NAME"
                )
            {
                command.env_remove(key.as_ref());
            }
        }
        let status = command.status().unwrap();
        assert!(status.success(), "building {name} of {package} failed");
        *built = true;
    }
    dir.join(name)
}

/// Reads the server's stderr until its start-up line says where it listens (`127.0.0.1:PORT`),
/// then keeps passing its log on to the test's stderr.
fn listening_address(child: &mut Child) -> String {
    let stderr = child.stderr.take().unwrap();
    let (found, address) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut found = Some(found);
        for line in std::io::BufRead::lines(std::io::BufReader::new(stderr)).map_while(Result::ok) {
            if let Some((_, rest)) = line.split_once("listening on http://") {
                if let Some(found) = found.take() {
                    let _ = found.send(rest.split(';').next().unwrap_or(rest).to_string());
                }
            }
            eprintln!("{line}");
        }
    });
    match address.recv_timeout(Duration::from_secs(60)) {
        Ok(address) => address,
        Err(_) => {
            let _ = child.kill();
            panic!("turnpost-server did not say where it listens within 60 s");
        }
    }
}

/// A loopback port held bound but never listening while the value lives: connections to it
/// are refused, and no other test (or server binding port 0) can be given it meanwhile, as
/// could happen to a port bound and released.
pub struct ClosedPort {
    _socket: socket2::Socket,
    /// The port.
    pub port: u16,
}

impl ClosedPort {
    /// Binds a fresh loopback port without listening on it.
    pub fn new() -> ClosedPort {
        let socket =
            socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
        let address: std::net::SocketAddr = ([127, 0, 0, 1], 0).into();
        socket.bind(&address.into()).unwrap();
        let port = socket.local_addr().unwrap().as_socket().unwrap().port();
        ClosedPort {
            _socket: socket,
            port,
        }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Default for ClosedPort {
    fn default() -> ClosedPort {
        ClosedPort::new()
    }
}

/// A running `turnpost-server` process; killed when dropped (and its PostgreSQL database
/// dropped, if it has one).
pub struct ServerProcess {
    pub child: Child,
    pub address: String,
    pub data_dir: PathBuf,
    /// Where the server sends its mail (`SMTP_URL`).
    pub smtp: SmtpSink,
    postgres: Option<(String, String)>,
}

/// Where a test server keeps its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// The embedded default: an SQLite file in the data directory.
    Sqlite,
    /// A fresh database on `TURNPOST_TEST_DATABASE_URL`
    /// (default `postgres://postgres@127.0.0.1:5432/postgres`).
    Postgres,
}

fn postgres_admin_url() -> String {
    std::env::var("TURNPOST_TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_string())
}

fn psql(url: &str, sql: &str) {
    let out = Command::new("psql")
        .args([url, "-v", "ON_ERROR_STOP=1", "-qAtc", sql])
        .output()
        .unwrap_or_else(|e| panic!("psql is needed for the PostgreSQL end-to-end tests: {e}"));
    assert!(
        out.status.success(),
        "PostgreSQL at {url} refused `{sql}`: {}\nSet TURNPOST_TEST_DATABASE_URL to a server where this role may CREATE DATABASE.",
        String::from_utf8_lossy(&out.stderr)
    );
}

impl ServerProcess {
    /// Starts the server on a free port with a fresh data directory (embedded defaults) and
    /// its own SMTP sink, and waits until `/v1/health` answers.
    pub fn start(extra_env: &[(&str, &str)]) -> ServerProcess {
        ServerProcess::start_on(Backend::Sqlite, extra_env)
    }

    /// Starts the server on `backend` (a fresh PostgreSQL database per server). The server
    /// binds port 0 itself and its start-up line says where it listens, so no other test can
    /// take the port in between.
    pub fn start_on(backend: Backend, extra_env: &[(&str, &str)]) -> ServerProcess {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let unique = format!(
            "{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
        );
        let data_dir = std::env::temp_dir().join(format!("turnpost-e2e-{unique}"));
        std::fs::create_dir_all(&data_dir).unwrap();
        let smtp = SmtpSink::start();
        let mut command = Command::new(binary("turnpost-server", "turnpost-server"));
        let log = std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".to_string());
        command
            .env("TURNPOST_LISTEN", "127.0.0.1:0")
            .env("TURNPOST_DATA_DIR", &data_dir)
            .env_remove("DATABASE_URL")
            .env("SMTP_URL", smtp.url())
            .env_remove("TURNPOST_SMTP_ALLOW_PLAIN")
            // A mail the sink could not take at once (a busy machine) is tried again soon, not
            // after the production default of 30 s; tests may still override it.
            .env("TURNPOST_OUTBOX_RETRY_BASE_MS", "250")
            .env("TURNPOST_OUTBOX_RETRY_MAX_MS", "2000")
            // The start-up line (info, from the app module) names the address.
            .env("RUST_LOG", format!("{log},turnpost_server::app=info"))
            .env("NO_COLOR", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let postgres = (backend == Backend::Postgres).then(|| {
            let admin = postgres_admin_url();
            let name = format!("turnpost_e2e_{unique}");
            psql(&admin, &format!("CREATE DATABASE {name}"));
            let base = admin
                .rsplit_once('/')
                .map_or(admin.as_str(), |(base, _)| base);
            command.env("DATABASE_URL", format!("{base}/{name}"));
            (admin.clone(), name)
        });
        for (key, value) in extra_env {
            command.env(key, value);
        }
        let mut child = command.spawn().unwrap();
        let address = listening_address(&mut child);
        let mut server = ServerProcess {
            child,
            address,
            data_dir,
            smtp,
            postgres,
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if let Ok((200, _)) = server.get("/v1/health") {
                return server;
            }
            if let Some(status) = server.child.try_wait().unwrap() {
                panic!("turnpost-server exited during start-up: {status}");
            }
            assert!(
                Instant::now() < deadline,
                "turnpost-server did not answer within 60 s"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A plain HTTP/1.1 GET; returns the status code and the body.
    pub fn get(&self, path: &str) -> std::io::Result<(u16, String)> {
        let mut stream = TcpStream::connect(&self.address)?;
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.address
        )?;
        let mut response = String::new();
        stream.read_to_string(&mut response)?;
        Ok(status_and_body(&response))
    }

    /// Runs `sql` directly on the server's database (the SQLite file, or its PostgreSQL
    /// database): for states a test cannot wait for, like a deadline in the past.
    pub fn execute_sql(&self, sql: &str) {
        match &self.postgres {
            Some((admin, name)) => {
                let base = admin
                    .rsplit_once('/')
                    .map_or(admin.as_str(), |(base, _)| base);
                psql(&format!("{base}/{name}"), sql);
            }
            None => sqlite_file::execute(&self.data_dir.join("turnpost.db"), sql),
        }
    }

    /// Runs `turnpost-server mail-in` on the server's database with `raw` on stdin (as an
    /// MTA delivering a reply would); answers its output.
    pub fn mail_in(&self, raw: &[u8]) -> std::process::Output {
        let mut command = Command::new(binary("turnpost-server", "turnpost-server"));
        command
            .arg("mail-in")
            .env("TURNPOST_DATA_DIR", &self.data_dir)
            .env_remove("DATABASE_URL")
            .env("SMTP_URL", self.smtp.url())
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some((admin, name)) = &self.postgres {
            let base = admin
                .rsplit_once('/')
                .map_or(admin.as_str(), |(base, _)| base);
            command.env("DATABASE_URL", format!("{base}/{name}"));
        }
        let mut child = command.spawn().unwrap();
        child.stdin.take().unwrap().write_all(raw).unwrap();
        child.wait_with_output().unwrap()
    }

    /// Which database the server uses.
    pub fn backend(&self) -> Backend {
        if self.postgres.is_some() {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }

    /// Sends SIGTERM and waits for the process to end; returns whether it exited successfully.
    pub fn terminate(&mut self) -> bool {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success());
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.success();
            }
            assert!(
                Instant::now() < deadline,
                "turnpost-server ignored SIGTERM for 30 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.data_dir);
        if let Some((admin, name)) = &self.postgres {
            psql(
                admin,
                &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
            );
        }
    }
}

/// The `turnpost` CLI with its own configuration directory (one player's machine).
pub struct Cli {
    pub config: PathBuf,
}

impl Cli {
    /// A player whose profiles live in `config`.
    pub fn new(config: PathBuf) -> Cli {
        Cli { config }
    }

    /// The command, with only this player's configuration in its environment.
    pub fn command(&self, args: &[&str]) -> Command {
        self.program(&binary("turnpost-client", "turnpost"), args)
    }

    /// Any program (a script using `turnpost`) with this player's environment.
    pub fn program(&self, program: &std::path::Path, args: &[&str]) -> Command {
        let mut command = Command::new(program);
        command
            .env("TURNPOST_CONFIG_DIR", &self.config)
            .env_remove("TURNPOST_SERVER")
            .env_remove("TURNPOST_TOKEN")
            .env_remove("TURNPOST_PROFILE")
            .env_remove("NO_COLOR")
            // One time zone for every run: deadlines print alike, and `signup` (which sends the
            // machine's zone) sets UTC.
            .env("TZ", "UTC")
            .args(args);
        command
    }

    /// Runs a command to its end.
    pub fn run(&self, args: &[&str]) -> std::process::Output {
        self.command(args).output().unwrap()
    }

    /// Runs a command that must succeed with `--json`, and returns its document.
    pub fn json(&self, args: &[&str]) -> serde_json::Value {
        let mut all = args.to_vec();
        all.push("--json");
        let out = self.run(&all);
        assert!(
            out.status.success(),
            "turnpost {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// Runs a command that asks for the mailed code on stdin, answering with the code of the
    /// sign-in mail the server's SMTP sink received for `email` after the `known` earlier ones.
    pub fn run_with_code(
        &self,
        server: &ServerProcess,
        email: &str,
        known: usize,
        args: &[&str],
    ) -> std::process::Output {
        let mut child = self
            .command(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let code = server.smtp.code_for(email, known);
        // If the command already ended (it failed), its output says why.
        let _ = writeln!(child.stdin.take().unwrap(), "{code}");
        child.wait_with_output().unwrap()
    }

    /// Signs up `name` on `server` through the mailed code.
    pub fn sign_up(&self, server: &ServerProcess, name: &str) {
        let email = format!("{name}@example.org");
        let url = format!("http://{}", server.address);
        let out = self.run_with_code(
            server,
            &email,
            0,
            &[
                "signup", "--server", &url, "--name", name, "--email", &email,
            ],
        );
        assert!(
            out.status.success(),
            "signup {name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The status code (0 when it does not read) and the body of a raw HTTP/1.1 response read to
/// its end (`Connection: close`).
pub fn status_and_body(response: &str) -> (u16, String) {
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_string())
        .unwrap_or_default();
    (status, body)
}
