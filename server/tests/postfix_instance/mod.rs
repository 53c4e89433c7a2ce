//! A throwaway Postfix for tests (Debian's `postfix`): a non-default instance whose
//! configuration, queue, data and log are under one temporary directory (`postfix -c DIR
//! start`), its SMTP server on a loopback port, the recipes of `examples/postfix/` added to its
//! `main.cf`/`master.cf`. Stopped when dropped; a watchdog process aborts it if the test
//! process dies without dropping it (killed by a timeout), so no Postfix outlives the tests.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers"
)]

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The services of a Postfix that receives on SMTP and delivers over LMTP, SMTP or a pipe
/// (Debian's `master.cf` without chroot, pickup, TLS and the local delivery agents).
const MASTER_CF: &str = "\
127.0.0.1:SMTP_PORT inet n - n - - smtpd
cleanup unix n - n - 0 cleanup
qmgr unix n - n 300 1 qmgr
rewrite unix - - n - - trivial-rewrite
bounce unix - - n - 0 bounce
defer unix - - n - 0 bounce
trace unix - - n - 0 bounce
verify unix - - n - 1 verify
flush unix n - n 1000? 0 flush
proxymap unix - - n - - proxymap
smtp unix - - n - - smtp
relay unix - - n - - smtp
showq unix n - n - - showq
error unix - - n - - error
retry unix - - n - - error
discard unix - - n - - discard
lmtp unix - - n - - lmtp
anvil unix - - n - 1 anvil
scache unix - - n - 1 scache
postlog unix-dgram n - n - 1 postlogd
";

/// The recipe `name` of `examples/postfix/`, as the docs show it.
pub fn recipe(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/postfix")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A running Postfix instance.
pub struct Postfix {
    /// Its SMTP port on 127.0.0.1.
    pub port: u16,
    dir: PathBuf,
    watchdog: Child,
}

impl Postfix {
    /// Starts one with `main_cf` and `master_cf` added to its own configuration. Postfix reads
    /// its port from `master.cf`, so a free port is chosen and tried, and another if it was
    /// taken meanwhile.
    pub fn start(main_cf: &str, master_cf: &str) -> Postfix {
        assert!(
            Path::new("/usr/sbin/postfix").exists(),
            "postfix is not installed: apt-get install postfix (see README, Test)"
        );
        for attempt in 0..5 {
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port();
            match Postfix::start_on(port, main_cf, master_cf) {
                Ok(postfix) => return postfix,
                Err(log) if attempt == 4 => panic!("postfix did not start:\n{log}"),
                Err(_) => {}
            }
        }
        unreachable!()
    }

    fn start_on(port: u16, main_cf: &str, master_cf: &str) -> Result<Postfix, String> {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "turnpost-postfix-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["conf", "queue", "data"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        // Postfix's daemons run as `postfix`: its data directory (locks, caches) is theirs.
        let status = Command::new("chown")
            .arg("postfix")
            .arg(dir.join("data"))
            .status()
            .unwrap();
        assert!(status.success());
        let d = dir.display();
        // Deferred mail, and a destination or transport that failed (the LMTP server down:
        // `transport_retry_time`, 60 s by default), are tried again within a second or two:
        // the tests wait for it.
        let main = format!(
            "compatibility_level = 3.6\n\
             queue_directory = {d}/queue\n\
             data_directory = {d}/data\n\
             maillog_file = {d}/maillog\n\
             maillog_file_prefixes = {d}\n\
             mail_owner = postfix\n\
             setgid_group = postdrop\n\
             myhostname = mx.postfix.test\n\
             mydestination =\n\
             inet_interfaces = loopback-only\n\
             inet_protocols = ipv4\n\
             mynetworks = 127.0.0.0/8\n\
             smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination\n\
             queue_run_delay = 1s\n\
             minimal_backoff_time = 1s\n\
             maximal_backoff_time = 2s\n\
             transport_retry_time = 1s\n\
             bounce_queue_lifetime = 0\n\
             alias_maps =\n\
             alias_database =\n\
             default_transport = discard\n\
             {main_cf}\n"
        );
        std::fs::write(dir.join("conf/main.cf"), main).unwrap();
        let master = MASTER_CF.replace("SMTP_PORT", &port.to_string());
        std::fs::write(dir.join("conf/master.cf"), format!("{master}{master_cf}\n")).unwrap();
        let output = Command::new("postfix")
            .arg("-c")
            .arg(dir.join("conf"))
            .arg("start")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        // Aborts this instance once the test process is gone, however it ended.
        let watchdog = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "while kill -0 {} 2>/dev/null; do sleep 1; done; postfix -c {d}/conf abort; rm -rf {d}",
                std::process::id()
            ))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let postfix = Postfix {
            port,
            dir,
            watchdog,
        };
        if !output.status.success() {
            return Err(format!("{output:?}\n{}", postfix.log()));
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline {
                return Err(postfix.log());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(postfix)
    }

    /// Sends `raw` from `from` to `to` through its SMTP server; the answer's error, if any.
    pub fn send(&self, from: &str, to: &str, raw: &[u8]) {
        use lettre::Transport as _;
        let mailer = lettre::SmtpTransport::builder_dangerous("127.0.0.1")
            .port(self.port)
            .build();
        let envelope =
            lettre::address::Envelope::new(Some(from.parse().unwrap()), vec![to.parse().unwrap()])
                .unwrap();
        mailer
            .send_raw(&envelope, raw)
            .unwrap_or_else(|e| panic!("postfix refused the message: {e}\n{}", self.log()));
    }

    /// Asks Postfix to try its deferred mail now (`postfix flush`), as an operator does after
    /// bringing a delivery target back: its own retry can wait for a queue scan that, seen
    /// twice in loaded runs, did not come within a minute despite the short backoff.
    pub fn flush(&self) {
        let _ = Command::new("postfix")
            .arg("-c")
            .arg(self.dir.join("conf"))
            .arg("flush")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }

    /// Its log (`maillog_file`).
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("maillog")).unwrap_or_default()
    }

    /// Waits (30 s at most) for a log line holding every one of `words`; answers it.
    pub fn wait_log(&self, words: &[&str]) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let log = self.log();
            if let Some(line) = log.lines().find(|l| words.iter().all(|w| l.contains(w))) {
                return line.to_owned();
            }
            assert!(
                Instant::now() < deadline,
                "no log line with {words:?} within 30 s:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Messages in its queue (deferred or active).
    pub fn queued(&self) -> usize {
        let mut count = 0;
        for sub in ["deferred", "active", "incoming"] {
            count += files(&self.dir.join("queue").join(sub));
        }
        count
    }

    fn master_pid(&self) -> Option<u32> {
        std::fs::read_to_string(self.dir.join("queue/pid/master.pid"))
            .ok()?
            .trim()
            .parse()
            .ok()
    }
}

fn files(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .map(|entry| {
            if entry.path().is_dir() {
                files(&entry.path())
            } else {
                1
            }
        })
        .sum()
}

impl Drop for Postfix {
    fn drop(&mut self) {
        let master = self.master_pid();
        let _ = Command::new("postfix")
            .arg("-c")
            .arg(self.dir.join("conf"))
            .arg("stop")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        // `stop` asks; wait until the master (and with it its children) is gone.
        if let Some(pid) = master {
            let proc = PathBuf::from(format!("/proc/{pid}"));
            let deadline = Instant::now() + Duration::from_secs(10);
            while alive(&proc) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
            if alive(&proc) {
                let _ = Command::new("postfix")
                    .arg("-c")
                    .arg(self.dir.join("conf"))
                    .arg("abort")
                    .status();
            }
        }
        let _ = self.watchdog.kill();
        let _ = self.watchdog.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Whether the process of `/proc/PID` still runs (a zombie has ended).
fn alive(proc: &Path) -> bool {
    std::fs::read_to_string(proc.join("stat"))
        .is_ok_and(|stat| !stat.split(") ").nth(1).is_some_and(|s| s.starts_with('Z')))
}
