//! Live streams held open against a running server for the benchmarks: many NDJSON streams
//! (`GET /v1/stream`), each read to its end by a task of its own, recording when each move
//! event (game, ply) reached it; and the server's resident memory, to tell a stream's cost.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// When each move event reached a stream: ((game, ply after the move), arrival).
pub type Arrivals = Arc<Mutex<Vec<((i64, u64), Instant)>>>;

/// Streams held open, and what they heard.
pub struct OpenStreams {
    /// How many the server accepted (200) and still holds.
    pub opened: usize,
    /// How many it refused, by status.
    pub refused: Vec<u16>,
    /// The move events heard (empty for streams opened with `record` false).
    pub arrivals: Arrivals,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

impl OpenStreams {
    /// Takes `more`'s streams in (opened with the same `arrivals`).
    pub fn absorb(&mut self, more: OpenStreams) {
        self.opened += more.opened;
        self.refused.extend(more.refused);
        self.tasks.extend(more.tasks);
    }

    /// Closes every stream (the connections drop with their tasks).
    pub fn close(self) {
        for task in self.tasks {
            task.abort();
        }
    }
}

/// Opens one `GET /v1/stream` per token of `tokens` (a token may repeat) on `base`, `batch` at
/// a time, each waiting for its answer's head before the next batch starts; `record`: note
/// each move event's arrival in `arrivals`.
pub async fn open(
    base: &str,
    tokens: &[String],
    batch: usize,
    record: bool,
    arrivals: &Arrivals,
) -> OpenStreams {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    let arrivals = arrivals.clone();
    let mut tasks = Vec::with_capacity(tokens.len());
    let mut opened = 0;
    let mut refused = Vec::new();
    for chunk in tokens.chunks(batch.max(1)) {
        let mut heads = Vec::with_capacity(chunk.len());
        for token in chunk {
            let (ready, head) = tokio::sync::oneshot::channel();
            let request = http
                .get(format!("{base}/v1/stream"))
                .bearer_auth(token)
                .header("Accept", "application/x-ndjson");
            let arrivals = arrivals.clone();
            tasks.push(tokio::spawn(async move {
                let mut response = match request.send().await {
                    Ok(response) => response,
                    Err(_) => {
                        let _ = ready.send(0);
                        return;
                    }
                };
                let _ = ready.send(response.status().as_u16());
                if !response.status().is_success() {
                    return;
                }
                let mut pending: Vec<u8> = Vec::new();
                while let Ok(Some(chunk)) = response.chunk().await {
                    if !record {
                        continue;
                    }
                    let now = Instant::now();
                    pending.extend_from_slice(&chunk);
                    while let Some(end) = pending.iter().position(|b| *b == b'\n') {
                        if let Some(key) = move_key(pending.get(..end).unwrap_or_default()) {
                            arrivals.lock().unwrap().push((key, now));
                        }
                        pending.drain(..=end);
                    }
                }
            }));
            heads.push(head);
        }
        for head in heads {
            match head.await.unwrap_or(0) {
                200 => opened += 1,
                status => refused.push(status),
            }
        }
    }
    OpenStreams {
        opened,
        refused,
        arrivals,
        tasks,
    }
}

/// The (game, ply) of an NDJSON line that is a move event, read by scanning for its fields
/// rather than parsing the whole document: the readers share the machine with the server, and
/// what they spend is not the server's cost.
fn move_key(line: &[u8]) -> Option<(i64, u64)> {
    find(line, b"\"type\":\"move\"")?;
    let number_after = |key: &[u8]| -> Option<u64> {
        let at = find(line, key)? + key.len();
        let digits = line.get(at..)?;
        let len = digits.iter().take_while(|b| b.is_ascii_digit()).count();
        std::str::from_utf8(digits.get(..len)?).ok()?.parse().ok()
    };
    let game = i64::try_from(number_after(b"\"game\":")?).ok()?;
    Some((game, number_after(b"\"ply\":")?))
}

/// Where `needle` first occurs in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The resident memory of process `pid` in bytes (`VmRSS` of `/proc/PID/status`; zero
/// without `/proc`).
pub fn resident_bytes(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
            let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kb * 1024)
        })
        .unwrap_or(0)
}

/// For each move event heard, the time from the move's request being sent (`sent`, by
/// (game, ply after it)) to its arrival on a stream, sorted; events without a sent time
/// (moves of the server's own) are left out.
pub fn delays(
    arrivals: &Arrivals,
    sent: &std::collections::HashMap<(i64, u64), Instant>,
) -> Vec<Duration> {
    let mut delays: Vec<Duration> = arrivals
        .lock()
        .unwrap()
        .iter()
        .filter_map(|(key, at)| Some(at.saturating_duration_since(*sent.get(key)?)))
        .collect();
    delays.sort();
    delays
}
