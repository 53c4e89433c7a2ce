//! A hand-written SMTP server on a loopback port 0 that answers as its [`Script`] says: a
//! refusing greeting, a 5xx to EHLO (or to a second one), AUTH, MAIL or RCPT, no SMTPUTF8, a
//! delay before every answer (a relay far away), or a DATA held for a while. It offers
//! PIPELINING and CHUNKING (`BDAT`, unless the script says not) and, as RFC 2920 asks and
//! Postfix does, sends the answers to a pipelined group together: an answer waits while more
//! of the client's input is already here (unless the script says to send each at once). It
//! records every message it accepts, with the time it arrived, so tests and the load
//! benchmark count deliveries at the server, and which commands came pipelined.
//! Self-contained (std only): the benchmark includes it too.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers"
)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How the server answers. Each answer is the full reply text without the final CRLF
/// (multi-line replies joined with `\r\n`).
#[derive(Clone)]
pub struct Script {
    /// The greeting, e.g. `220 ready` or `554 go away`.
    pub greeting: String,
    /// Whether EHLO offers SMTPUTF8.
    pub smtputf8: bool,
    /// Answer to EHLO when it is refused (None: `250` with the extensions).
    pub ehlo_refusal: Option<String>,
    /// Answer to every EHLO or HELO after a connection's first, as a relay that refuses to be
    /// greeted twice does (Python's `smtpd`: `503 Duplicate HELO/EHLO`); None: answered as the
    /// first.
    pub repeated_ehlo_refusal: Option<String>,
    /// Answer to AUTH.
    pub auth: String,
    /// Answer to MAIL FROM.
    pub mail: String,
    /// Answer to RCPT TO: for addresses containing the key, the value; otherwise `250 ok`.
    pub rcpt: Vec<(String, String)>,
    /// Answer to the end of a message.
    pub end_of_data: String,
    /// Waited before every answer (including the greeting).
    pub delay: Duration,
    /// The first DATA or BDAT command on any connection is answered only after this long (a
    /// transfer in flight, for crash tests); later ones at once.
    pub hold_first_data: Option<Duration>,
    /// Whether EHLO offers CHUNKING (`BDAT`).
    pub chunking: bool,
    /// Whether answers to pipelined commands wait to go together (true), or each is written
    /// as soon as it is decided, as a relay that ignores RFC 2920's advice does.
    pub batch_answers: bool,
}

impl Default for Script {
    fn default() -> Self {
        Self {
            greeting: "220 scripted.test ESMTP".into(),
            smtputf8: false,
            ehlo_refusal: None,
            repeated_ehlo_refusal: None,
            auth: "235 2.7.0 accepted".into(),
            mail: "250 2.1.0 ok".into(),
            rcpt: Vec::new(),
            end_of_data: "250 2.0.0 queued".into(),
            delay: Duration::ZERO,
            hold_first_data: None,
            chunking: true,
            batch_answers: true,
        }
    }
}

/// One accepted message.
#[derive(Clone, Debug)]
pub struct Accepted {
    /// The MAIL FROM command as sent.
    pub mail_from: String,
    /// Envelope recipients.
    pub to: Vec<String>,
    /// The message, dot-unstuffed (or as chunked), CRLF line ends.
    pub data: String,
    /// When the end of data was answered.
    pub at: Instant,
}

impl Accepted {
    /// The first header called `name` (any case), unfolded only as far as its first line.
    pub fn header(&self, name: &str) -> Option<String> {
        self.data
            .lines()
            .take_while(|line| !line.trim_end().is_empty())
            .find_map(|line| {
                let (key, value) = line.split_once(':')?;
                key.eq_ignore_ascii_case(name)
                    .then(|| value.trim().to_owned())
            })
    }
}

struct Shared {
    script: Mutex<Script>,
    accepted: Mutex<Vec<Accepted>>,
    connections: AtomicUsize,
    data_commands: AtomicUsize,
    commands: Mutex<Vec<String>>,
    /// Command lines that arrived while an earlier command was still unanswered.
    pipelined: Mutex<Vec<String>>,
    /// Mail transactions between MAIL FROM and the end of data right now, and the most seen.
    open_transactions: AtomicUsize,
    most_open_transactions: AtomicUsize,
}

/// The running server; it serves until the process ends.
#[derive(Clone)]
pub struct ScriptedSmtp {
    /// Its port.
    pub port: u16,
    shared: Arc<Shared>,
}

impl ScriptedSmtp {
    /// Starts on a free loopback port (bound to port 0, never released).
    pub fn start(script: Script) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let shared = Arc::new(Shared {
            script: Mutex::new(script),
            accepted: Mutex::new(Vec::new()),
            connections: AtomicUsize::new(0),
            data_commands: AtomicUsize::new(0),
            commands: Mutex::new(Vec::new()),
            pipelined: Mutex::new(Vec::new()),
            open_transactions: AtomicUsize::new(0),
            most_open_transactions: AtomicUsize::new(0),
        });
        let serving = shared.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                serving.connections.fetch_add(1, Ordering::SeqCst);
                let shared = serving.clone();
                std::thread::spawn(move || {
                    let _ = converse(stream, &shared);
                });
            }
        });
        Self { port, shared }
    }

    /// `SMTP_URL` for this server (plain, loopback).
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Changes how it answers from now on.
    pub fn set(&self, change: impl FnOnce(&mut Script)) {
        change(&mut self.shared.script.lock().unwrap());
    }

    /// Every message accepted so far.
    pub fn accepted(&self) -> Vec<Accepted> {
        self.shared.accepted.lock().unwrap().clone()
    }

    /// Messages accepted for `to`.
    pub fn accepted_for(&self, to: &str) -> Vec<Accepted> {
        self.accepted()
            .into_iter()
            .filter(|m| m.to.iter().any(|t| t.eq_ignore_ascii_case(to)))
            .collect()
    }

    /// Connections accepted so far.
    pub fn connections(&self) -> usize {
        self.shared.connections.load(Ordering::SeqCst)
    }

    /// DATA and BDAT commands received so far (transfers begun).
    pub fn data_commands(&self) -> usize {
        self.shared.data_commands.load(Ordering::SeqCst)
    }

    /// The most mail transactions (MAIL FROM to end of data) that were open at one time.
    pub fn most_concurrent_transactions(&self) -> usize {
        self.shared.most_open_transactions.load(Ordering::SeqCst)
    }

    /// Every command line received so far (AUTH lines included as sent).
    pub fn commands(&self) -> Vec<String> {
        self.shared.commands.lock().unwrap().clone()
    }

    /// The command lines (of [`Self::commands`]) that came in the same read as the command
    /// before them: sent pipelined, without waiting for its answer.
    pub fn pipelined_commands(&self) -> Vec<String> {
        self.shared.pipelined.lock().unwrap().clone()
    }
}

/// The answers of one connection: written to the client when no more of its input waits (or
/// at once, when the script does not batch them).
struct Answers {
    writer: TcpStream,
    waiting: Vec<u8>,
}

impl Answers {
    fn add(&mut self, shared: &Shared, text: &str) -> std::io::Result<()> {
        let (delay, batch) = {
            let script = shared.script.lock().unwrap();
            (script.delay, script.batch_answers)
        };
        if !delay.is_zero() {
            std::thread::sleep(delay);
        }
        self.waiting.extend_from_slice(text.as_bytes());
        self.waiting.extend_from_slice(b"\r\n");
        if batch {
            Ok(())
        } else {
            self.send()
        }
    }

    fn send(&mut self) -> std::io::Result<()> {
        if self.waiting.is_empty() {
            return Ok(());
        }
        self.writer.write_all(&self.waiting)?;
        self.waiting.clear();
        self.writer.flush()
    }
}

/// Counts one connection's open mail transaction in [`Shared`], ending it when dropped.
struct Transaction<'a> {
    shared: &'a Shared,
    open: bool,
}

impl Transaction<'_> {
    fn begin(&mut self) {
        if !self.open {
            self.open = true;
            let now = self.shared.open_transactions.fetch_add(1, Ordering::SeqCst) + 1;
            self.shared
                .most_open_transactions
                .fetch_max(now, Ordering::SeqCst);
        }
    }

    fn end(&mut self) {
        if self.open {
            self.open = false;
            self.shared.open_transactions.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

impl Drop for Transaction<'_> {
    fn drop(&mut self) {
        self.end();
    }
}

fn converse(stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    let mut answers = Answers {
        writer: stream.try_clone()?,
        waiting: Vec::new(),
    };
    let mut reader = BufReader::new(stream);
    let script = || shared.script.lock().unwrap().clone();
    let mut transaction = Transaction {
        shared,
        open: false,
    };
    answers.add(shared, &script().greeting)?;
    let mut from = String::new();
    let mut to = Vec::new();
    let mut chunks = String::new();
    let mut line = String::new();
    let mut greeted = false;
    loop {
        // Answers go out when the client waits for them: nothing more of its input is here.
        let pipelined = !reader.buffer().is_empty();
        if !pipelined {
            answers.send()?;
        }
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let command = line.trim_end().to_owned();
        shared.commands.lock().unwrap().push(command.clone());
        if pipelined {
            shared.pipelined.lock().unwrap().push(command.clone());
        }
        let verb = command
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        let now = script();
        match verb.as_str() {
            "EHLO" | "HELO" => match (&now.ehlo_refusal, &now.repeated_ehlo_refusal) {
                (Some(refusal), _) => answers.add(shared, refusal)?,
                (None, Some(refusal)) if greeted => answers.add(shared, refusal)?,
                (None, _) => {
                    greeted = true;
                    let mut lines = vec!["250-scripted.test", "250-8BITMIME", "250-AUTH PLAIN"];
                    if now.smtputf8 {
                        lines.push("250-SMTPUTF8");
                    }
                    if now.chunking {
                        lines.push("250-CHUNKING");
                    }
                    lines.push("250 PIPELINING");
                    answers.add(shared, &lines.join("\r\n"))?;
                }
            },
            "AUTH" => answers.add(shared, &now.auth)?,
            "MAIL" => {
                from.clone_from(&command);
                to.clear();
                chunks.clear();
                if now.mail.starts_with('2') {
                    transaction.begin();
                } else {
                    from.clear();
                }
                answers.add(shared, &now.mail)?;
            }
            "RCPT" => {
                let address = command
                    .split_once('<')
                    .and_then(|(_, rest)| rest.split_once('>'))
                    .map(|(address, _)| address.to_owned())
                    .unwrap_or_default();
                let answer = now
                    .rcpt
                    .iter()
                    .find(|(key, _)| address.contains(key.as_str()))
                    .map_or_else(|| "250 2.1.5 ok".to_owned(), |(_, answer)| answer.clone());
                if answer.starts_with('2') && !from.is_empty() {
                    to.push(address);
                }
                answers.add(shared, &answer)?;
            }
            "DATA" => {
                hold_if_first(shared, &now);
                if from.is_empty() || to.is_empty() {
                    answers.add(shared, "554 5.5.1 no valid recipients")?;
                    continue;
                }
                answers.add(shared, "354 end with <CRLF>.<CRLF>")?;
                // The client waits for 354 before it sends the content.
                answers.send()?;
                let mut data = String::new();
                loop {
                    line.clear();
                    if reader.read_line(&mut line)? == 0 {
                        return Ok(());
                    }
                    if line == ".\r\n" || line == ".\n" {
                        break;
                    }
                    data.push_str(line.strip_prefix('.').unwrap_or(&line));
                }
                transaction.end();
                let answer = end_of_data(shared, &from, &mut to, data);
                answers.add(shared, &answer)?;
            }
            "BDAT" if now.chunking => {
                let mut words = command.split_whitespace().skip(1);
                let size = words.next().and_then(|size| size.parse::<u64>().ok());
                let last = words
                    .next()
                    .is_some_and(|word| word.eq_ignore_ascii_case("LAST"));
                let Some(size) = size else {
                    answers.add(shared, "501 5.5.4 BDAT needs a size")?;
                    continue;
                };
                // The chunk is read whatever the answer (RFC 3030 §2).
                let mut chunk = Vec::new();
                (&mut reader).take(size).read_to_end(&mut chunk)?;
                if u64::try_from(chunk.len()).unwrap() < size {
                    return Ok(());
                }
                if chunks.is_empty() {
                    hold_if_first(shared, &now);
                }
                if from.is_empty() || to.is_empty() {
                    answers.add(shared, "554 5.5.1 no valid recipients")?;
                    continue;
                }
                chunks.push_str(&String::from_utf8_lossy(&chunk));
                if !last {
                    answers.add(shared, "250 2.0.0 chunk received")?;
                    continue;
                }
                transaction.end();
                let answer = end_of_data(shared, &from, &mut to, std::mem::take(&mut chunks));
                answers.add(shared, &answer)?;
            }
            "RSET" => {
                to.clear();
                chunks.clear();
                transaction.end();
                answers.add(shared, "250 2.0.0 ok")?;
            }
            "NOOP" => answers.add(shared, "250 2.0.0 ok")?,
            "QUIT" => {
                answers.add(shared, "221 2.0.0 bye")?;
                answers.send()?;
                return Ok(());
            }
            _ => answers.add(shared, "502 5.5.2 not implemented")?,
        }
    }
}

/// Counts a transfer begun, holding the first one of the server as the script says.
fn hold_if_first(shared: &Shared, now: &Script) {
    let first = shared.data_commands.fetch_add(1, Ordering::SeqCst) == 0;
    if let (true, Some(hold)) = (first, now.hold_first_data) {
        std::thread::sleep(hold);
    }
}

/// The answer to a message's end, recording it when the script accepts it.
fn end_of_data(shared: &Shared, from: &str, to: &mut Vec<String>, data: String) -> String {
    let answer = shared.script.lock().unwrap().end_of_data.clone();
    if answer.starts_with('2') {
        shared.accepted.lock().unwrap().push(Accepted {
            mail_from: from.to_owned(),
            to: std::mem::take(to),
            data,
            at: Instant::now(),
        });
    }
    answer
}
