//! A throwaway Dovecot IMAP server for tests (Debian's `dovecot-imapd`): its own config, user,
//! maildir and log under one temporary directory, on a loopback port; stopped when dropped.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers"
)]

use std::net::TcpStream;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// A running Dovecot with the user `games` (password `secret`).
pub struct Dovecot {
    pub port: u16,
    dir: PathBuf,
}

impl Dovecot {
    /// Starts one. Dovecot reads its port from its configuration, so a port is chosen and
    /// tried; if another process took it meanwhile Dovecot fails to bind, and another is tried.
    pub fn start() -> Dovecot {
        assert!(
            Command::new("dovecot").arg("--version").output().is_ok(),
            "dovecot is not installed: apt-get install dovecot-imapd (see README, Test)"
        );
        for _attempt in 0..10 {
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port();
            if let Some(dovecot) = Dovecot::start_on(port) {
                return dovecot;
            }
        }
        panic!("dovecot did not start on any of ten ports");
    }

    fn start_on(port: u16) -> Option<Dovecot> {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "turnpost-dovecot-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["mail", "run", "state"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        // Dovecot's processes run as unprivileged users: they must reach and own their parts.
        let chmod = |path: &std::path::Path| {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
        };
        chmod(&dir);
        let status = Command::new("chown")
            .args(["nobody:nogroup"])
            .arg(dir.join("mail"))
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::write(dir.join("passwd"), "games:{PLAIN}secret\n").unwrap();
        let d = dir.display();
        let config = format!(
            "base_dir = {d}/run\nstate_dir = {d}/state\nlog_path = {d}/dovecot.log\n\
             protocols = imap\nlisten = 127.0.0.1\nssl = no\ndisable_plaintext_auth = no\n\
             auth_mechanisms = plain login\nmail_location = maildir:{d}/mail/%u\n\
             default_login_user = dovenull\ndefault_internal_user = dovecot\n\
             default_internal_group = dovecot\n\
             passdb {{\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%u {d}/passwd\n}}\n\
             userdb {{\n  driver = static\n  args = uid=nobody gid=nogroup home={d}/mail/%u\n}}\n\
             service imap-login {{\n  inet_listener imap {{\n    address = 127.0.0.1\n    port = {port}\n  }}\n\
               inet_listener imaps {{\n    port = 0\n  }}\n}}\n"
        );
        std::fs::write(dir.join("dovecot.conf"), config).unwrap();
        let started = Command::new("dovecot")
            .arg("-c")
            .arg(dir.join("dovecot.conf"))
            .status()
            .unwrap();
        let dovecot = Dovecot { port, dir };
        if !started.success() {
            return None;
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(dovecot)
    }

    /// `imap://games:secret@127.0.0.1:PORT/MAILBOX`.
    pub fn url(&self, mailbox: &str) -> String {
        format!("imap://games:secret@127.0.0.1:{}/{mailbox}", self.port)
    }

    fn session(&self) -> imap::Session<imap::Connection> {
        let client = imap::ClientBuilder::new("127.0.0.1", self.port)
            .mode(imap::ConnectionMode::Plaintext)
            .connect()
            .unwrap();
        client.login("games", "secret").map_err(|(e, _)| e).unwrap()
    }

    /// Puts a message into a mailbox, as a delivery would.
    pub fn append(&self, mailbox: &str, message: &[u8]) {
        let mut session = self.session();
        let _ = session.create(mailbox);
        session.append(mailbox, message).finish().unwrap();
        session.logout().unwrap();
    }

    /// How many messages a mailbox holds (none if it does not exist).
    pub fn count(&self, mailbox: &str) -> u32 {
        let mut session = self.session();
        let count = session.examine(mailbox).map(|m| m.exists).unwrap_or(0);
        session.logout().unwrap();
        count
    }

    /// Dovecot's log, for failure messages.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("dovecot.log")).unwrap_or_default()
    }
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        let _ = Command::new("doveadm")
            .arg("-c")
            .arg(self.dir.join("dovecot.conf"))
            .arg("stop")
            .status();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
