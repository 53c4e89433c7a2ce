//! The IMAP watcher against a real Dovecot: it hands each message of the mailbox to the handler
//! once, moves handled ones to the done folder (or deletes them), leaves the ones the handler
//! cannot take yet, wakes on new mail, and reconnects after the server goes away.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod dovecot;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use dovecot::Dovecot;
use turnpost_server::inbound::{
    Handled, ImapMailbox, ImapWatch, InboundMessage, MAX_MESSAGE_BYTES,
};

fn message(n: usize) -> Vec<u8> {
    format!(
        "From: anna@example.org\r\nTo: games+key@example.org\r\nMessage-ID: <m{n}@example.org>\r\n\
         Subject: move {n}\r\n\r\nF3-E4\r\n"
    )
    .into_bytes()
}

fn watch(dovecot: &Dovecot, done: Option<&str>) -> ImapWatch {
    ImapWatch {
        mailbox: ImapMailbox::parse(&dovecot.url("INBOX"), false).unwrap(),
        poll: Duration::from_millis(200),
        done_folder: done.map(str::to_owned),
    }
}

fn ids(raw: &[u8]) -> String {
    InboundMessage::read(raw).unwrap().id
}

#[test]
fn handled_messages_move_to_the_done_folder_and_others_stay() {
    let dovecot = Dovecot::start();
    for n in 0..3 {
        dovecot.append("INBOX", &message(n));
    }
    let mut seen = Vec::new();
    let handled = watch(&dovecot, Some("Done"))
        .drain_once(&mut |raw| {
            let id = ids(raw);
            let outcome = if id == "m1@example.org" {
                Handled::Later
            } else {
                Handled::Done
            };
            seen.push(id);
            outcome
        })
        .unwrap();
    // Oldest first; the run stops at the message that must wait (the database is away).
    assert_eq!(
        seen,
        ["m0@example.org", "m1@example.org"],
        "{}",
        dovecot.log()
    );
    assert_eq!(handled, 1);
    assert_eq!(dovecot.count("INBOX"), 2);
    assert_eq!(dovecot.count("Done"), 1);
    // Next time the rest goes through.
    let handled = watch(&dovecot, Some("Done"))
        .drain_once(&mut |_| Handled::Done)
        .unwrap();
    assert_eq!(handled, 2);
    assert_eq!(dovecot.count("INBOX"), 0);
    assert_eq!(dovecot.count("Done"), 3);
}

#[test]
fn an_oversized_message_is_taken_out_unread() {
    let dovecot = Dovecot::start();
    // Over the limit by a MiB, and then a genuine reply behind it.
    let mut oversized = message(0);
    oversized.extend(
        std::iter::repeat_n(b"x".repeat(998), (MAX_MESSAGE_BYTES + (1 << 20)) / 1000).flat_map(
            |line| {
                let mut line = line;
                line.extend_from_slice(b"\r\n");
                line
            },
        ),
    );
    assert!(oversized.len() > MAX_MESSAGE_BYTES + (1 << 20) - 1000);
    dovecot.append("INBOX", &oversized);
    dovecot.append("INBOX", &message(1));
    let mut seen = Vec::new();
    let mut largest = 0;
    let handled = watch(&dovecot, Some("Done"))
        .drain_once(&mut |raw| {
            largest = largest.max(raw.len());
            seen.push(
                InboundMessage::read(raw).map_or_else(|e| format!("unreadable: {e}"), |m| m.id),
            );
            Handled::Done
        })
        .unwrap();
    assert_eq!(seen, ["m1@example.org"], "{}", dovecot.log());
    assert_eq!(handled, 1);
    assert!(largest < 1000, "{largest}");
    // Both out of the inbox: the big one as if handled, so it is not looked at again.
    assert_eq!(dovecot.count("INBOX"), 0);
    assert_eq!(dovecot.count("Done"), 2);
    // Dovecot's count of bytes sent to the watcher: the big body was never fetched.
    let log = dovecot.log();
    let sent: Vec<usize> = log
        .split("out=")
        .skip(1)
        .filter_map(|rest| {
            rest.split(|c: char| !c.is_ascii_digit())
                .next()?
                .parse()
                .ok()
        })
        .collect();
    assert!(!sent.is_empty(), "no byte counts in the log: {log}");
    assert!(
        sent.iter().all(|&bytes| bytes < MAX_MESSAGE_BYTES),
        "the big message was read: {sent:?}"
    );
}

#[test]
fn without_a_done_folder_handled_messages_are_deleted() {
    let dovecot = Dovecot::start();
    dovecot.append("INBOX", &message(7));
    let handled = watch(&dovecot, None)
        .drain_once(&mut |_| Handled::Done)
        .unwrap();
    assert_eq!(handled, 1);
    assert_eq!(dovecot.count("INBOX"), 0);
}

#[test]
fn the_watcher_wakes_on_new_mail_and_stops_when_told() {
    let dovecot = Dovecot::start();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let stop = Arc::new(AtomicBool::new(false));
    let watcher = {
        let (seen, stop) = (seen.clone(), stop.clone());
        let mut watch = watch(&dovecot, Some("Done"));
        // A long poll: the new message must come through IDLE, not the poll.
        watch.poll = Duration::from_secs(20);
        std::thread::spawn(move || {
            watch.run(
                &mut |raw| {
                    seen.lock().unwrap().push(ids(raw));
                    Handled::Done
                },
                &stop,
            );
        })
    };
    std::thread::sleep(Duration::from_millis(500));
    let appended = Instant::now();
    dovecot.append("INBOX", &message(1));
    let deadline = Instant::now() + Duration::from_secs(15);
    while seen.lock().unwrap().is_empty() {
        assert!(
            Instant::now() < deadline,
            "no message handled; {}",
            dovecot.log()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        appended.elapsed() < Duration::from_secs(10),
        "IDLE did not wake the watcher"
    );
    assert_eq!(*seen.lock().unwrap(), ["m1@example.org"]);
    stop.store(true, Ordering::SeqCst);
    // IDLE returns within its timeout at the latest; the poll here is 20 s.
    watcher.join().unwrap();
    assert_eq!(dovecot.count("Done"), 1);
}

#[test]
fn a_server_that_is_away_is_retried() {
    // Nothing listens: the watcher backs off and keeps trying until stopped.
    let dovecot = Dovecot::start();
    let url = dovecot.url("INBOX");
    drop(dovecot);
    let watch = ImapWatch {
        mailbox: ImapMailbox::parse(&url, false).unwrap(),
        poll: Duration::from_millis(100),
        done_folder: None,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let runner = {
        let stop = stop.clone();
        std::thread::spawn(move || watch.run(&mut |_| Handled::Done, &stop))
    };
    std::thread::sleep(Duration::from_millis(1500));
    let stopping = Instant::now();
    stop.store(true, Ordering::SeqCst);
    runner.join().unwrap();
    assert!(stopping.elapsed() < Duration::from_secs(3));
}
