//! The process's own resources for `/metrics`, under the names every Prometheus client library
//! uses (`process_cpu_seconds_total`, `process_resident_memory_bytes`, `process_open_fds`,
//! `process_max_fds`, `process_start_time_seconds`), so the usual dashboards and alerts fit.
//!
//! Read from `/proc/self` when scraped (Linux only; elsewhere, or when `/proc` is not mounted,
//! the series are left out rather than reported as zero).

use std::fmt::Write as _;

/// What `/proc/self` says of this process.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Process {
    cpu_seconds: f64,
    resident_bytes: u64,
    open_fds: u64,
    max_fds: Option<u64>,
    start_time_seconds: f64,
}

/// The exposition lines of the process series (empty when they cannot be read).
#[must_use]
pub fn exposition() -> String {
    read().map(|process| text(&process)).unwrap_or_default()
}

fn text(process: &Process) -> String {
    let mut text = String::new();
    let mut series = |name: &str, kind: &str, help: &str, value: String| {
        let _ = write!(
            text,
            "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}\n"
        );
    };
    series(
        "process_cpu_seconds_total",
        "counter",
        "Total user and system CPU time spent in seconds.",
        process.cpu_seconds.to_string(),
    );
    series(
        "process_resident_memory_bytes",
        "gauge",
        "Resident memory size in bytes.",
        process.resident_bytes.to_string(),
    );
    series(
        "process_open_fds",
        "gauge",
        "Number of open file descriptors.",
        process.open_fds.to_string(),
    );
    if let Some(max) = process.max_fds {
        series(
            "process_max_fds",
            "gauge",
            "Maximum number of open file descriptors.",
            max.to_string(),
        );
    }
    series(
        "process_start_time_seconds",
        "gauge",
        "Start time of the process since unix epoch in seconds.",
        process.start_time_seconds.to_string(),
    );
    text
}

#[cfg(target_os = "linux")]
fn read() -> Option<Process> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let boot = std::fs::read_to_string("/proc/stat").ok()?;
    let limits = std::fs::read_to_string("/proc/self/limits").ok();
    let open_fds = std::fs::read_dir("/proc/self/fd").ok()?.count();
    let ticks = rustix::param::clock_ticks_per_second();
    parse(
        &stat,
        &status,
        &boot,
        limits.as_deref(),
        u64::try_from(open_fds).ok()?,
        ticks,
    )
}

#[cfg(not(target_os = "linux"))]
fn read() -> Option<Process> {
    None
}

/// The process from the texts of `/proc/self/stat`, `/proc/self/status`, `/proc/stat` and
/// `/proc/self/limits`, with `ticks` clock ticks per second.
#[cfg_attr(
    not(target_os = "linux"),
    allow(dead_code, reason = "read on Linux only")
)]
#[expect(clippy::cast_precision_loss, reason = "seconds for a gauge")]
fn parse(
    stat: &str,
    status: &str,
    boot: &str,
    limits: Option<&str>,
    open_fds: u64,
    ticks: u64,
) -> Option<Process> {
    // The command name (field 2) is in parentheses and may hold spaces: count after its end.
    let after_name = stat.get(stat.rfind(')')? + 1..)?;
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // Field n of stat(5) is fields[n - 3] here: state is field 3.
    let field = |n: usize| fields.get(n - 3)?.parse::<u64>().ok();
    let ticks = ticks.max(1) as f64;
    let cpu_seconds = (field(14)? + field(15)?) as f64 / ticks;
    let started_after_boot = field(22)? as f64 / ticks;
    let boot_time = boot
        .lines()
        .find_map(|line| line.strip_prefix("btime "))?
        .trim()
        .parse::<u64>()
        .ok()? as f64;
    let resident_kib = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse::<u64>()
        .ok()?;
    let max_fds = limits.and_then(|limits| {
        limits
            .lines()
            .find_map(|line| line.strip_prefix("Max open files"))?
            .split_whitespace()
            .next()?
            .parse::<u64>()
            .ok()
    });
    Some(Process {
        cpu_seconds,
        resident_bytes: resident_kib * 1024,
        open_fds,
        max_fds,
        start_time_seconds: boot_time + started_after_boot,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::parse;

    #[test]
    fn proc_texts_are_read() {
        let stat = "4242 (turnpost server) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 50 0 0 20 0 \
                    12 0 100000 1000000 300 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1";
        let status = "Name:\tturnpost-server\nVmRSS:\t   20480 kB\n";
        let boot = "cpu  1 2 3\nbtime 1700000000\n";
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max open files            1024                 524288               files\n";
        let process = parse(stat, status, boot, Some(limits), 9, 100).unwrap();
        assert!((process.cpu_seconds - 3.0).abs() < 1e-9, "{process:?}");
        assert_eq!(process.resident_bytes, 20 * 1024 * 1024);
        assert_eq!(process.open_fds, 9);
        assert_eq!(process.max_fds, Some(1024));
        assert!(
            (process.start_time_seconds - 1_700_001_000.0).abs() < 1e-6,
            "{process:?}"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_is_read() {
        let text = super::exposition();
        for name in [
            "process_cpu_seconds_total ",
            "process_resident_memory_bytes ",
            "process_open_fds ",
            "process_start_time_seconds ",
        ] {
            assert!(text.contains(name), "{name}: {text}");
        }
    }
}
