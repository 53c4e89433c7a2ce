//! An SMTP server inside the test process (mailin-embedded on a free loopback port): the
//! server under test sends its mail here through a real SMTP conversation.

use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use mailin_embedded::{response, Handler, Response, Server};

/// The subject of a sign-in mail, before the code.
const CODE_SUBJECT: &str = "Your turnpost code: ";

/// One message as received.
#[derive(Clone, Debug)]
pub struct Mail {
    /// The envelope recipients (`RCPT TO`).
    pub to: Vec<String>,
    /// The message text, headers and body.
    pub data: String,
}

impl Mail {
    /// The value of the first header called `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.data
            .lines()
            .take_while(|line| !line.trim_end().is_empty())
            .find_map(|line| {
                let (key, value) = line.split_once(':')?;
                key.eq_ignore_ascii_case(name).then(|| value.trim())
            })
    }

    /// The code of a sign-in mail ("Your turnpost code: K7QX2MRD").
    pub fn code(&self) -> Option<&str> {
        self.header("Subject")?
            .strip_prefix(CODE_SUBJECT.trim_end())
            .map(str::trim)
    }
}

/// Collects each message of one SMTP connection into the shared inbox.
#[derive(Clone)]
struct Collector {
    inbox: Arc<Mutex<Vec<Mail>>>,
    to: Vec<String>,
    data: Vec<u8>,
}

impl Handler for Collector {
    fn data_start(&mut self, _domain: &str, _from: &str, _8bit: bool, to: &[String]) -> Response {
        self.to = to.to_vec();
        self.data.clear();
        response::OK
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.data.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        let mail = Mail {
            to: std::mem::take(&mut self.to),
            data: String::from_utf8_lossy(&std::mem::take(&mut self.data)).into_owned(),
        };
        self.inbox
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(mail);
        response::OK
    }
}

/// An SMTP server that accepts every message and keeps it for the test to read. It serves
/// until the test process ends.
pub struct SmtpSink {
    port: u16,
    inbox: Arc<Mutex<Vec<Mail>>>,
}

impl SmtpSink {
    /// Starts on a free loopback port.
    pub fn start() -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let inbox = Arc::new(Mutex::new(Vec::new()));
        let mut server = Server::new(Collector {
            inbox: inbox.clone(),
            to: Vec::new(),
            data: Vec::new(),
        });
        server
            .with_name("sink.test")
            .with_num_threads(8)
            .with_tcp_listener(listener);
        // Serves until the process ends; a failure shows as mail that never arrives.
        std::thread::spawn(move || {
            let _ = server.serve();
        });
        SmtpSink { port, inbox }
    }

    /// The server's `SMTP_URL`: plain SMTP, which the server allows to a loopback host.
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// The messages received so far for `email` (envelope recipient), oldest first.
    pub fn messages_to(&self, email: &str) -> Vec<Mail> {
        self.inbox
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .iter()
            .filter(|mail| mail.to.iter().any(|to| to.eq_ignore_ascii_case(email)))
            .cloned()
            .collect()
    }

    /// The code of the sign-in mail to `email` that follows the `known` earlier ones (waits up
    /// to 30 s for it). Checks that it went to `email` alone, says so in its `To:` header, and
    /// has the sign-in subject.
    pub fn code_for(&self, email: &str, known: usize) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let codes: Vec<Mail> = self
                .messages_to(email)
                .into_iter()
                .filter(|mail| mail.code().is_some())
                .collect();
            if let Some(mail) = codes.get(known) {
                assert_eq!(mail.to, [email], "envelope recipients");
                assert_eq!(mail.header("To"), Some(email), "{}", mail.data);
                let code = mail.code().unwrap();
                assert_eq!(
                    mail.header("Subject"),
                    Some(format!("{CODE_SUBJECT}{code}").as_str())
                );
                assert!(
                    code.len() >= 6 && code.chars().all(|c| c.is_ascii_alphanumeric()),
                    "code `{code}`"
                );
                return code.to_string();
            }
            assert!(
                Instant::now() < deadline,
                "no sign-in mail #{} for {email} within 30 s",
                known + 1
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
