//! The real `turnpost-server` binary as a child process, for tests that need two processes or
//! a SIGKILL.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers"
)]

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::common::{self, TestDb};

/// A `turnpost-server` process.
pub struct ServerProcess {
    child: Child,
    /// Base URL.
    pub base: String,
}

impl ServerProcess {
    /// Starts the binary on `db` with `env` added, and waits until it listens.
    pub fn start(db: &TestDb, env: &[(&str, &str)]) -> Self {
        let port = common::free_port();
        let child = Command::new(env!("CARGO_BIN_EXE_turnpost-server"))
            .env("DATABASE_URL", &db.url)
            .env("TURNPOST_DATA_DIR", &db.dir)
            .env("TURNPOST_LISTEN", format!("127.0.0.1:{port}"))
            .env("TURNPOST_DB_POOL_SIZE", "8")
            .env("RUST_LOG", "warn")
            .env_remove("SMTP_URL")
            .env_remove("TURNPOST_PUBLIC_URL")
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let base = format!("http://127.0.0.1:{port}");
        // Listening means migrated: the server binds only after the database is ready.
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "turnpost-server did not come up on {base}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Self { child, base }
    }

    /// SIGKILL: no shutdown handler runs.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
