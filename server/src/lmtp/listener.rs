//! The LMTP listener of `serve`: accepts connections (at most [`MAX_CONNECTIONS`] at once),
//! runs a [`Session`] on each with a timeout per command, and does what it asks against the
//! database on the blocking pool: the recipient checks and the deliveries through
//! [`crate::inbound::deliver`], the path `mail-in` takes.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncWriteExt as _, BufReader, BufWriter};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Semaphore};

use super::data::MessageBuffer;
use super::line::{read_line, LineRead};
use super::reply::Reply;
use super::session::{self, Action, Limits, Received, Session, Verdict};
use crate::db::Pool;
use crate::inbound::{HandlerSettings, MAX_MESSAGE_BYTES};
use crate::mail_context::MailContext;

/// Sessions at once; past it a connection is told to come back (421) and closed.
pub const MAX_CONNECTIONS: usize = 32;

/// How long the peer may take to send one command or one line of a message (RFC 5321, 4.5.3.2
/// asks servers for at least 5 minutes).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(300);

/// The longest command line (RFC 5321 allows 512 with its line end; a little slack).
const MAX_COMMAND_LINE: usize = 1024;

/// The longest line of a message: RFC 5321 allows 1000; MTAs that wrap lines keep them shorter.
const MAX_DATA_LINE: usize = 64 * 1024;

/// Recipients of one message.
const MAX_RECIPIENTS: usize = 100;

/// What every session shares.
pub struct Lmtp {
    /// The database.
    pub pool: Pool,
    /// Keys and links, as the handler needs them.
    pub ctx: MailContext,
    /// The handler's limits.
    pub settings: HandlerSettings,
    /// The name the server greets with.
    pub hostname: String,
}

/// Serves LMTP on `listener` until `stop` turns true; sessions still open end at their next
/// command.
pub async fn run(listener: TcpListener, lmtp: Lmtp, mut stop: watch::Receiver<bool>) {
    let lmtp = Arc::new(lmtp);
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stop.changed() => break,
        };
        let (stream, _peer) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                // Out of file descriptors, a connection reset while queued: the next may do.
                tracing::warn!(%error, "LMTP: accepting a connection failed");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            tokio::spawn(async move {
                let mut stream = stream;
                let reply = Reply::new(421, "4.3.2 too many connections, try again later");
                let _ = tokio::time::timeout(
                    Duration::from_secs(5),
                    stream.write_all(reply.to_wire().as_bytes()),
                )
                .await;
            });
            continue;
        };
        let lmtp = lmtp.clone();
        let stop = stop.clone();
        tokio::spawn(async move {
            if let Err(error) = serve_session(stream, &lmtp, stop).await {
                tracing::debug!(%error, "LMTP session ended by an I/O error");
            }
            drop(slot);
        });
    }
    tracing::info!("LMTP listener stopped");
}

async fn send(
    writer: &mut BufWriter<tokio::net::tcp::OwnedWriteHalf>,
    reply: &Reply,
) -> std::io::Result<()> {
    let write = async {
        writer.write_all(reply.to_wire().as_bytes()).await?;
        writer.flush().await
    };
    tokio::time::timeout(COMMAND_TIMEOUT, write)
        .await
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "writing a reply"))?
}

/// What a read of one line came to.
enum Read {
    Line(LineRead),
    TimedOut,
    Stopping,
}

async fn next_line(
    reader: &mut BufReader<tokio::net::tcp::OwnedReadHalf>,
    line: &mut Vec<u8>,
    max: usize,
    stop: &mut watch::Receiver<bool>,
) -> std::io::Result<Read> {
    if *stop.borrow() {
        return Ok(Read::Stopping);
    }
    tokio::select! {
        read = tokio::time::timeout(COMMAND_TIMEOUT, read_line(reader, line, max)) => match read {
            Ok(read) => Ok(Read::Line(read?)),
            Err(_) => Ok(Read::TimedOut),
        },
        _ = stop.changed() => Ok(Read::Stopping),
    }
}

async fn serve_session(
    stream: TcpStream,
    lmtp: &Arc<Lmtp>,
    mut stop: watch::Receiver<bool>,
) -> std::io::Result<()> {
    let (read, write) = stream.into_split();
    let mut reader = BufReader::new(read);
    let mut writer = BufWriter::new(write);
    let limits = Limits {
        max_message_bytes: MAX_MESSAGE_BYTES,
        max_recipients: MAX_RECIPIENTS,
    };
    let mut session = Session::new(&lmtp.hostname, limits);
    send(&mut writer, &session.greeting()).await?;
    let mut line = Vec::new();
    loop {
        let action = match next_line(&mut reader, &mut line, MAX_COMMAND_LINE, &mut stop).await? {
            Read::Line(LineRead::Line) => session.command(&line),
            Read::Line(LineRead::TooLong) => session.line_too_long(),
            Read::Line(LineRead::Eof) => return Ok(()),
            Read::TimedOut => Action::Close(Reply::new(421, "4.4.2 idle too long, closing")),
            Read::Stopping => {
                Action::Close(Reply::new(421, "4.3.2 shutting down, try again later"))
            }
        };
        match action {
            Action::Reply(reply) => send(&mut writer, &reply).await?,
            Action::Close(reply) => {
                send(&mut writer, &reply).await?;
                return Ok(());
            }
            Action::CheckRecipient(address) => {
                let verdict = check_recipient(lmtp, address.clone()).await;
                send(&mut writer, &session.recipient(address, verdict)).await?;
            }
            Action::ReadData(reply) => {
                send(&mut writer, &reply).await?;
                let mut buffer = MessageBuffer::new(MAX_MESSAGE_BYTES);
                loop {
                    let read = next_line(&mut reader, &mut line, MAX_DATA_LINE, &mut stop).await?;
                    match read {
                        Read::Line(LineRead::Line) => {
                            if buffer.push(&line) {
                                break;
                            }
                        }
                        Read::Line(LineRead::TooLong) => buffer.line_too_long(),
                        // The message is not answered: the MTA keeps it and retries.
                        Read::Line(LineRead::Eof) => return Ok(()),
                        // The session ends with a 421: the MTA keeps the message and retries.
                        Read::TimedOut | Read::Stopping => {
                            let why = if matches!(read, Read::Stopping) {
                                "4.3.2 shutting down, try again later"
                            } else {
                                "4.4.2 timed out in DATA, closing"
                            };
                            return send(&mut writer, &Reply::new(421, why)).await;
                        }
                    }
                }
                match session.message(buffer.finish()) {
                    Received::Refused(replies) => {
                        for reply in &replies {
                            send(&mut writer, reply).await?;
                        }
                    }
                    Received::Deliver { raw, recipients } => {
                        let raw: Arc<[u8]> = raw.into();
                        for recipient in recipients {
                            let reply = deliver(lmtp, raw.clone(), recipient).await;
                            send(&mut writer, &reply).await?;
                        }
                    }
                }
            }
        }
    }
}

async fn check_recipient(lmtp: &Arc<Lmtp>, address: String) -> Verdict {
    let lmtp = lmtp.clone();
    let checked = tokio::task::spawn_blocking(move || {
        let mut conn = lmtp.pool.get()?;
        crate::inbound::recipient_known(&mut conn, &lmtp.ctx, &address)
    })
    .await;
    match checked {
        Ok(Ok(true)) => Verdict::Ours,
        Ok(Ok(false)) => Verdict::NotOurs,
        Ok(Err(error)) => {
            tracing::warn!(%error, "LMTP: a recipient could not be checked; the MTA will retry");
            Verdict::Trouble
        }
        Err(error) => {
            tracing::error!(%error, "LMTP: the recipient check ended abnormally");
            Verdict::Trouble
        }
    }
}

async fn deliver(lmtp: &Arc<Lmtp>, raw: Arc<[u8]>, recipient: String) -> Reply {
    let lmtp = lmtp.clone();
    let delivered = tokio::task::spawn_blocking(move || {
        let mut conn = lmtp.pool.get()?;
        crate::inbound::deliver(&mut conn, &lmtp.ctx, &lmtp.settings, &raw, Some(&recipient))
    })
    .await;
    match delivered {
        Ok(Ok(outcome)) => {
            // The recipient holds a reply key: it is not logged.
            tracing::info!(
                outcome = crate::inbound::outcome_label(&outcome),
                "LMTP delivery handled"
            );
            session::delivered()
        }
        Ok(Err(error)) => {
            tracing::warn!(%error, "LMTP delivery not handled; the MTA will retry");
            session::trouble()
        }
        Err(error) => {
            tracing::error!(%error, "LMTP delivery ended abnormally; the MTA will retry");
            session::trouble()
        }
    }
}
