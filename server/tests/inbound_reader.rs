//! Reading replies: messages shaped like those of Gmail, Outlook, Apple Mail and Thunderbird
//! (text, HTML only, quoted-printable, base64, ISO-8859-1 and windows-1252) become the lines the
//! player wrote; automatic mail is recognised; arbitrary bytes never panic the reader.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

use proptest::prelude::*;
use turnpost_server::inbound::{
    written_lines, Automatic, InboundMessage, MailCommand, ReadError, ReplyAddressTemplate,
    MAX_MESSAGE_BYTES,
};

const KEY: &str = "k3y0123456789abcdefghijk";

fn fixture(name: &str) -> InboundMessage {
    let path = format!(
        "{}/tests/fixtures/inbound/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    InboundMessage::read(&std::fs::read(path).unwrap()).unwrap()
}

fn commands(message: &InboundMessage) -> Vec<MailCommand> {
    written_lines(&message.text())
        .iter()
        .map(|line| MailCommand::parse(line))
        .collect()
}

#[test]
fn gmail_quoted_printable_with_html_alternative() {
    let message = fixture("gmail.eml");
    assert_eq!(message.id, "CAGmail123@mail.gmail.com");
    assert_eq!(message.from.as_deref(), Some("anna@example.org"));
    assert_eq!(message.automatic, None);
    assert_eq!(
        message.in_reply_to,
        [
            "card-4-8@example.org",
            "game-4@example.org",
            "card-4-8@example.org"
        ]
    );
    let template = ReplyAddressTemplate::parse("games+%{key}@example.org").unwrap();
    let keys: Vec<String> = message
        .recipients
        .iter()
        .filter_map(|address| template.key_in(address))
        .collect();
    assert!(
        keys.iter().all(|k| k == KEY) && !keys.is_empty(),
        "{keys:?}"
    );
    assert_eq!(commands(&message), [MailCommand::Move("F3:E4:E7".into())]);
}

#[test]
fn outlook_windows_1252_with_original_message_block() {
    let message = fixture("outlook.eml");
    assert_eq!(message.from.as_deref(), Some("bob@example.com"));
    assert_eq!(written_lines(&message.text()), ["draw offer", "Grüße, Bob"]);
    assert_eq!(commands(&message)[0], MailCommand::DrawOffer);
}

#[test]
fn apple_mail_quote_header_inside_the_quote() {
    let message = fixture("apple_mail.eml");
    assert_eq!(message.in_reply_to, ["card-7-3@example.org"]);
    assert_eq!(commands(&message), [MailCommand::Move("R@d4".into())]);
}

#[test]
fn thunderbird_base64_with_signature() {
    let message = fixture("thunderbird.eml");
    assert_eq!(
        commands(&message),
        [MailCommand::Move("A5-G11".into()), MailCommand::Moves]
    );
}

#[test]
fn html_only_latin1_without_the_quoted_original() {
    let message = fixture("html_only_latin1.eml");
    let lines = written_lines(&message.text());
    assert_eq!(
        lines.first().map(String::as_str),
        Some("Resign"),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("Merci, équipe")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("F3-E4")), "{lines:?}");
}

#[test]
fn automatic_mail_is_recognised() {
    assert_eq!(
        fixture("auto_reply.eml").automatic,
        Some(Automatic::AutoSubmitted)
    );
    assert_eq!(fixture("bounce.eml").automatic, Some(Automatic::Bounce));
    assert_eq!(fixture("bulk.eml").automatic, Some(Automatic::Precedence));
    for name in [
        "gmail.eml",
        "outlook.eml",
        "apple_mail.eml",
        "thunderbird.eml",
    ] {
        assert_eq!(fixture(name).automatic, None, "{name}");
    }
    let no = b"From: a@example.org\r\nAuto-Submitted: no\r\nX-Autoreply: yes\r\n\r\nshow\r\n";
    assert_eq!(
        InboundMessage::read(no).unwrap().automatic,
        Some(Automatic::AutoReplyHeader)
    );
    let plain = b"From: a@example.org\r\nAuto-Submitted: No\r\n\r\nshow\r\n";
    assert_eq!(InboundMessage::read(plain).unwrap().automatic, None);
}

#[test]
fn a_message_without_message_id_is_known_by_its_hash() {
    let message = fixture("no_message_id.eml");
    assert!(message.id.starts_with("sha256:"), "{}", message.id);
    assert_eq!(message.id.len(), "sha256:".len() + 64);
    assert_eq!(fixture("no_message_id.eml").id, message.id);
}

#[test]
fn oversized_and_headerless_input_is_refused() {
    let huge = vec![b'a'; MAX_MESSAGE_BYTES + 1];
    assert_eq!(InboundMessage::read(&huge), Err(ReadError::TooLarge));
    assert_eq!(InboundMessage::read(b""), Err(ReadError::NotAMessage));
}

/// An HTML-only message whose body is `html`, under the size limit.
fn html_message(html: &str) -> Vec<u8> {
    format!(
        "From: anna@example.org\r\nTo: games+{KEY}@example.org\r\nMessage-ID: <h@x>\r\n\
         Subject: Re: Kefren\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{html}\r\n"
    )
    .into_bytes()
}

/// The text of `raw`, read on another thread: `None` if it takes longer than `limit`.
fn text_within(raw: Vec<u8>, limit: std::time::Duration) -> Option<Vec<String>> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let message = InboundMessage::read(&raw).unwrap();
        let _ = send.send(written_lines(&message.text()));
    });
    receive.recv_timeout(limit).ok()
}

/// A megabyte of blockquote tags (unbalanced closing ones, then deeply nested ones) is read in
/// linear time: the HTML step once took 40 s of CPU on 80 000 `</blockquote>` (quadratic).
/// Timing is not asserted tightly: the bound (10 s, in a debug build on a loaded machine) is
/// about a hundred times what a linear reading takes, and a small fraction of the quadratic
/// one's; the lines read are checked exactly.
#[test]
fn a_megabyte_of_blockquote_tags_is_read_in_linear_time() {
    let limit = std::time::Duration::from_secs(10);
    let closing = format!("F3-E4<br>{}resign<br>", "</blockquote>".repeat(78_000));
    assert!(closing.len() < MAX_MESSAGE_BYTES - 1024);
    assert_eq!(
        text_within(html_message(&closing), limit).expect("read in time"),
        ["F3-E4", "resign"]
    );
    let nested = format!(
        "draw offer<br>{}quoted{}E2-E3<br>",
        "<blockquote>".repeat(39_000),
        "</Blockquote >".repeat(39_000)
    );
    assert!(nested.len() < MAX_MESSAGE_BYTES - 1024);
    assert_eq!(
        text_within(html_message(&nested), limit).expect("read in time"),
        ["draw offer", "E2-E3"]
    );
    let unclosed = format!("resign<br>{}", "<blockquote".repeat(80_000));
    assert_eq!(
        text_within(html_message(&unclosed), limit).expect("read in time"),
        ["resign"]
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        if let Ok(message) = InboundMessage::read(&bytes) {
            for line in written_lines(&message.text()) {
                let _ = MailCommand::parse(&line);
            }
        }
    }

    #[test]
    fn arbitrary_addresses_never_panic_the_reply_keys(address in "\\PC{0,80}", tail in "[a-z0-9]{0,40}") {
        let keys = turnpost_server::inbound::ReplyKeys::new(
            turnpost_server::inbound::ReplyAddressTemplate::parse("games+%{key}@example.org").unwrap(),
            b"secret".as_slice().into(),
        );
        for candidate in [address.clone(), format!("games+{tail}@example.org"), format!("games+{address}@example.org")] {
            if let Some(token) = keys.token_in(&candidate) {
                // A random token is read but never verifies.
                prop_assert_eq!(keys.check(&token, 1, 0), turnpost_server::inbound::KeyCheck::Wrong);
            }
        }
    }

    #[test]
    fn arbitrary_headers_and_bodies_never_panic(
        headers in proptest::collection::vec("[A-Za-z-]{1,20}: [ -~]{0,60}", 0..8),
        body in "(.|\r\n){0,400}",
    ) {
        let raw = format!("{}\r\n\r\n{body}", headers.join("\r\n"));
        if let Ok(message) = InboundMessage::read(raw.as_bytes()) {
            let _ = written_lines(&message.text());
        }
    }
}

#[test]
fn a_message_has_one_sender_or_none() {
    let from = |header: &str| {
        let raw = format!("{header}\r\nTo: games@example.org\r\nSubject: s\r\n\r\nE2-E3\r\n");
        InboundMessage::read(raw.as_bytes()).unwrap().from
    };
    assert_eq!(
        from("From: \"anna@example.org\" <eve@evil.test>").as_deref(),
        Some("eve@evil.test")
    );
    assert_eq!(
        from("From: =?utf-8?q?anna=40example.org?= <eve@evil.test>").as_deref(),
        Some("eve@evil.test")
    );
    assert_eq!(
        from("From: Anna <anna@example.org>").as_deref(),
        Some("anna@example.org")
    );
    // Several senders: nobody to check.
    assert_eq!(from("From: anna@example.org, eve@evil.test"), None);
    assert_eq!(from("From: team: anna@example.org, eve@evil.test;"), None);
    assert_eq!(from("From: eve@evil.test\r\nFrom: anna@example.org"), None);
    assert_eq!(from("From: =?utf-8?q?anna=40example.org?="), None);
}
