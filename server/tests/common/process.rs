//! The real `turnpost-server` binary as a child process, for tests that need two processes or
//! a SIGKILL.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers"
)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use super::common::TestDb;

/// A `turnpost-server` process.
pub struct ServerProcess {
    child: Child,
    /// Base URL.
    pub base: String,
}

impl ServerProcess {
    /// Starts the binary on `db` with `env` added, and waits until it listens. It binds port 0
    /// itself and says where in its start-up line, so no other test can take the port between.
    pub fn start(db: &TestDb, env: &[(&str, &str)]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_turnpost-server"))
            .env("DATABASE_URL", &db.url)
            .env("TURNPOST_DATA_DIR", &db.dir)
            .env("TURNPOST_LISTEN", "127.0.0.1:0")
            .env("TURNPOST_DB_POOL_SIZE", "8")
            .env("RUST_LOG", "warn,turnpost_server::app=info")
            .env("NO_COLOR", "1")
            .env_remove("SMTP_URL")
            .env_remove("TURNPOST_PUBLIC_URL")
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stderr = child.stderr.take().unwrap();
        let (found, address) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut found = Some(found);
            // Read to the end, so the server never blocks on a full pipe.
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some((_, rest)) = line.split_once("listening on http://") {
                    if let Some(found) = found.take() {
                        let _ = found.send(rest.split(';').next().unwrap_or(rest).to_string());
                    }
                }
            }
        });
        // Listening means migrated: the server binds only after the database is ready.
        let Ok(address) = address.recv_timeout(Duration::from_secs(30)) else {
            let _ = child.kill();
            panic!("turnpost-server did not come up within 30 s");
        };
        Self {
            child,
            base: format!("http://{address}"),
        }
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

/// The lines `child` writes on its stderr (taken: spawn it with `Stdio::piped()`), as they come,
/// read by a thread of their own so that the child never blocks on a full pipe.
pub fn stderr_lines(child: &mut Child) -> mpsc::Receiver<String> {
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}
