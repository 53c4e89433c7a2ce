//! Helpers for end-to-end tests: the real `turnpost-server` and `turnpost` binaries, started as
//! processes on free local ports with throw-away data directories.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The path of a workspace binary, built first if it is missing (`cargo test -p turnpost-tests`
/// alone does not build other packages' binaries).
pub fn binary(package: &str, name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    // target/<profile>/deps/<test> → target/<profile>/<name>
    let dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let path = dir.join(name);
    if !path.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        let status = Command::new(cargo)
            .args(["build", "-p", package, "--bin", name])
            .status()
            .unwrap();
        assert!(status.success(), "building {name} failed");
    }
    path
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A running `turnpost-server` process; killed when dropped.
pub struct ServerProcess {
    pub child: Child,
    pub address: String,
    pub data_dir: PathBuf,
}

impl ServerProcess {
    /// Starts the server on a free port with a fresh data directory (embedded defaults) and
    /// waits until `/v1/health` answers.
    pub fn start(extra_env: &[(&str, &str)]) -> ServerProcess {
        let port = free_port();
        let address = format!("127.0.0.1:{port}");
        let data_dir =
            std::env::temp_dir().join(format!("turnpost-e2e-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&data_dir).unwrap();
        let mut command = Command::new(binary("turnpost-server", "turnpost-server"));
        command
            .env("TURNPOST_LISTEN", &address)
            .env("TURNPOST_DATA_DIR", &data_dir)
            .env_remove("DATABASE_URL")
            .env_remove("SMTP_URL")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        for (key, value) in extra_env {
            command.env(key, value);
        }
        let child = command.spawn().unwrap();
        let mut server = ServerProcess {
            child,
            address,
            data_dir,
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
        let status = response
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or(0);
        let body = response
            .split_once("\r\n\r\n")
            .map(|(_, body)| body.to_string())
            .unwrap_or_default();
        Ok((status, body))
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
    }
}
