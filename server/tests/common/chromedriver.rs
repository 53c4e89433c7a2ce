//! chromedriver on a port it picked and announced. Started again (three tries) when it ends
//! before announcing one: it did so once in a CI run on a loaded machine, with nothing to say
//! why, so its error output is now kept for the message.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers"
)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Tries at most.
const TRIES: u32 = 3;

/// Starts chromedriver on a free port: the process and its port.
pub fn start() -> (Child, u16) {
    let mut last = String::new();
    for attempt in 1..=TRIES {
        let log = unique_temp_path("turnpost-chromedriver");
        let mut driver = Command::new("chromedriver")
            .arg("--port=0")
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("chromedriver (Debian packages chromium and chromium-driver; README, Test)");
        let stdout = driver.stdout.take().unwrap();
        let mut lines = BufReader::new(stdout).lines();
        let port = lines.by_ref().map_while(Result::ok).find_map(|line| {
            let rest = line.split("started successfully on port ").nth(1)?;
            rest.trim_end_matches('.').trim().parse::<u16>().ok()
        });
        if let Some(port) = port {
            // Keep draining its output so it never blocks on a full pipe.
            std::thread::spawn(move || for _ in lines {});
            let _ = std::fs::remove_file(&log);
            return (driver, port);
        }
        let status = driver.wait();
        let errors = std::fs::read_to_string(&log).unwrap_or_default();
        let _ = std::fs::remove_file(&log);
        last = format!("try {attempt}: {status:?}, its errors: {}", errors.trim());
        eprintln!("chromedriver ended before announcing its port ({last})");
        std::thread::sleep(Duration::from_millis(500));
    }
    panic!("chromedriver ended before announcing its port {TRIES} times; the last {last}");
}

/// A path under the temporary directory no other test run uses: `prefix`, the process, the time.
pub fn unique_temp_path(prefix: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!(
        "{prefix}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ))
}
