//! Snapshots of every message kind (subject, both parts, headers that matter), and of one full
//! MIME message with its date, ids and boundaries redacted. Composers are pure functions of
//! their inputs, so the snapshots are the same on every machine (the PNG bytes, which depend
//! on the fonts installed, are left out; only the picture's size is shown).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

use chrono::{DateTime, Utc};
use turnpost_server::games::{GameResult, ResultReason};
use turnpost_server::mail::{ComposedMail, StoredParts};
use turnpost_server::notify::compose::{self, GameFacts, PlayedMove, Player, Recipient, Site};
use turnpost_shared::{AnyGame, GameKind, Options, Seat};

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

fn site() -> Site {
    Site {
        public_url: "https://turnpost.example".into(),
        domain: "turnpost.example".into(),
    }
}

fn recipient(name: &str) -> Recipient {
    Recipient {
        name: name.into(),
        email: format!("{name}@example.org"),
        time_zone: chrono_tz::Europe::Paris,
        unsubscribe_url: Some(format!(
            "https://turnpost.example/v1/unsubscribe?token={name}-signed"
        )),
        reply_to: None,
        play_url: Some(format!(
            "https://turnpost.example/games/42/play/1.1.{name}-signed"
        )),
    }
}

/// A Kefren game between anna (seat 1) and bert (seat 2) after `plies` moves, each the first
/// legal move; the moves since `for_seat` last moved are reported.
fn kefren(plies: usize, for_seat: Option<u8>) -> GameFacts {
    game_of(GameKind::Kefren, plies, for_seat)
}

/// A two-seat game of `kind`, as [`kefren`] makes one.
fn game_of(kind: GameKind, plies: usize, for_seat: Option<u8>) -> GameFacts {
    let mut position = AnyGame::new(kind, &Options::default()).unwrap();
    let mut played = Vec::new();
    for ply in 0..plies {
        let seat = position.status().to_move().unwrap().number();
        let first = position.legal_moves()[0].clone();
        let (next, canonical) = position.play(&first).unwrap();
        played.push(PlayedMove {
            ply: u32::try_from(ply).unwrap(),
            seat,
            notation: canonical,
            automatic: false,
            prepared: false,
        });
        position = next;
    }
    let start = match for_seat {
        Some(seat) => played
            .iter()
            .rposition(|m| m.seat == seat)
            .map_or(0, |i| i + 1),
        None => played.len().saturating_sub(1),
    };
    let players = ["anna", "bert"]
        .iter()
        .enumerate()
        .map(|(i, name)| Player {
            seat: u8::try_from(i + 1).unwrap(),
            seat_name: position.seat_name(Seat::from_index(i)),
            name: (*name).to_owned(),
            rating: None,
        })
        .collect();
    GameFacts {
        id: 42,
        options: String::new(),
        players,
        ply: u32::try_from(plies).unwrap(),
        last_moves: played[start..].to_vec(),
        result: None,
        result_reason: None,
        deadline: Some(at("2026-11-24T18:00:00Z")),
        messages: Vec::new(),
        position,
    }
}

/// The mail as a reviewable text: metadata, then both parts.
fn shown(mail: &ComposedMail) -> String {
    let image = mail.image.as_ref().map_or_else(
        || "none".to_owned(),
        |i| format!("{} ({}x{} pixels)", i.content_id, i.width, i.height),
    );
    if let Some(image) = &mail.image {
        let png = turnpost_server::mail::picture::svg_png(&image.drawing.svg().unwrap()).unwrap();
        assert!(png.bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert_eq!((png.width, png.height), (image.width, image.height));
        let html = mail.html.as_deref().unwrap();
        assert!(
            html.contains(&format!("src=\"cid:{}\"", image.content_id)),
            "{html}"
        );
    }
    format!(
        "subject: {}\nthread: {}\nunsubscribe: {}\nimage: {image}\n\n--- text ---\n{}\n--- html ---\n{}",
        mail.subject,
        mail.thread.as_deref().unwrap_or("none"),
        mail.unsubscribe_url.as_deref().unwrap_or("none"),
        mail.text,
        mail.html.as_deref().unwrap_or("none"),
    )
}

#[test]
fn your_turn() {
    let game = kefren(3, Some(2));
    let mail = compose::your_turn(&site(), &recipient("bert"), &game);
    // The command in the card plays a real legal move at the current ply.
    let command = mail
        .text
        .lines()
        .find_map(|l| l.trim().strip_prefix("turnpost move 42 --ply 3 "))
        .unwrap();
    assert!(game.position.canonical_move(command).is_ok(), "{command}");
    insta::assert_snapshot!(shown(&mail));
}

/// A move the server played from its player's conditional moves is told as such in both
/// parts: to the opponent by the owner's name, to the owner as theirs (issue 47).
#[test]
fn a_prepared_answer_is_told_in_the_turn_card_and_game_over() {
    let mut game = kefren(3, Some(2));
    let answer = game.last_moves.last_mut().unwrap();
    answer.prepared = true;
    let answer = answer.notation.clone();
    let said = format!("anna's prepared answer {answer} was played.");
    let card = compose::your_turn(&site(), &recipient("bert"), &game);
    let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words(&card.text).contains(&said), "{}", card.text);
    assert!(
        words(&card.text).contains(&format!("{answer} (prepared answer)")),
        "{}",
        card.text
    );
    let html = card.html.as_deref().unwrap();
    assert!(
        words(html).contains(&format!("anna&#39;s prepared answer {answer}"))
            || words(html).contains(&format!("anna's prepared answer {answer}")),
        "{html}"
    );
    game.result = Some(GameResult::won([1]));
    game.result_reason = Some(ResultReason::Rules);
    let over = compose::game_over(&site(), &recipient("anna"), &game);
    assert!(
        words(&over.text).contains(&format!("Your prepared answer {answer} was played.")),
        "{}",
        over.text
    );
    let over = compose::game_over(&site(), &recipient("bert"), &game);
    assert!(words(&over.text).contains(&said), "{}", over.text);
    // A move played by its player says nothing of the kind.
    let plain = compose::your_turn(&site(), &recipient("bert"), &kefren(3, Some(2)));
    assert!(!plain.text.contains("prepared"), "{}", plain.text);
}

#[test]
fn challenge() {
    let game = kefren(0, None);
    let mail = compose::challenge(
        &site(),
        &recipient("bert"),
        &game,
        "anna",
        at("2026-11-29T03:00:00Z"),
        None,
    );
    insta::assert_snapshot!(shown(&mail));
}

#[test]
fn challenge_accepted() {
    let game = kefren(0, None);
    let mail = compose::challenge_accepted(&site(), &recipient("anna"), &game, "bert");
    insta::assert_snapshot!(shown(&mail));
}

#[test]
fn challenge_declined() {
    let game = kefren(0, None);
    let mail = compose::challenge_declined(&site(), &recipient("anna"), &game, "bert");
    insta::assert_snapshot!(shown(&mail));
}

#[test]
fn game_started_for_the_first_mover() {
    let game = kefren(0, None);
    let mail = compose::game_started(&site(), &recipient("anna"), &game);
    assert!(mail.text.contains("turnpost move 42 --ply 0 "));
    insta::assert_snapshot!(shown(&mail));
}

#[test]
fn game_started_for_the_others() {
    let game = kefren(0, None);
    let mail = compose::game_started(&site(), &recipient("bert"), &game);
    assert!(!mail.text.contains("turnpost move"));
    insta::assert_snapshot!(shown(&mail));
}

#[test]
fn reminder() {
    let game = kefren(2, Some(1));
    let mail = compose::reminder(
        &site(),
        &recipient("anna"),
        &game,
        at("2026-11-24T16:00:00Z"),
    );
    assert!(mail.text.contains("2 hours left"));
    insta::assert_snapshot!(shown(&mail));
}

#[test]
fn draw_offered() {
    let game = kefren(4, Some(2));
    let mail = compose::draw_offered(&site(), &recipient("bert"), &game, "anna");
    insta::assert_snapshot!(shown(&mail));
}

#[test]
fn game_over_by_resignation() {
    let mut game = kefren(5, None);
    game.result = Some(GameResult::won([1]));
    game.result_reason = Some(ResultReason::Resignation);
    game.deadline = None;
    let winner = compose::game_over(&site(), &recipient("anna"), &game);
    let loser = compose::game_over(&site(), &recipient("bert"), &game);
    assert!(winner.text.contains("You won by resignation."));
    assert!(loser.text.contains("anna won by resignation."));
    insta::assert_snapshot!(shown(&loser));
}

#[test]
fn game_over_drawn() {
    let mut game = kefren(6, None);
    game.result = Some(GameResult::draw());
    game.result_reason = Some(ResultReason::Agreement);
    game.deadline = None;
    let mail = compose::game_over(&site(), &recipient("anna"), &game);
    insta::assert_snapshot!(shown(&mail));
}

#[test]
fn may_claim_on_time() {
    let game = kefren(3, Some(1));
    let mail = compose::may_claim_on_time(
        &site(),
        &recipient("anna"),
        &game,
        "bert",
        "turnpost claim 42",
    );
    insta::assert_snapshot!(shown(&mail));
}

#[test]
fn ended_on_time() {
    let mut game = kefren(3, None);
    game.result = Some(GameResult::won([1]));
    game.result_reason = Some(ResultReason::Timeout);
    let mail = compose::ended_on_time(&site(), &recipient("bert"), &game, "bert");
    assert!(mail.text.contains("Your time ran out"));
    insta::assert_snapshot!(shown(&mail));
}

#[test]
fn digest_most_urgent_first() {
    let mut later = kefren(1, Some(2));
    later.id = 7;
    later.deadline = Some(at("2026-11-26T09:00:00Z"));
    let mut sooner = kefren(3, Some(2));
    sooner.id = 9;
    sooner.deadline = Some(at("2026-11-24T18:00:00Z"));
    let mut no_clock = kefren(1, Some(2));
    no_clock.id = 3;
    no_clock.deadline = None;
    let mail = compose::digest(&site(), &recipient("bert"), &[later, no_clock, sooner]);
    let order: Vec<usize> = ["#9", "#7", "#3"]
        .iter()
        .map(|id| mail.text.find(&format!("Kefren {id}\n")).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    assert!(mail.thread.is_none());
    insta::assert_snapshot!(shown(&mail));
}

#[test]
fn every_game_mail_shares_the_thread_and_subject() {
    let game = kefren(2, Some(1));
    let mails = [
        compose::challenge(
            &site(),
            &recipient("anna"),
            &game,
            "bert",
            at("2026-11-29T03:00:00Z"),
            None,
        ),
        compose::your_turn(&site(), &recipient("anna"), &game),
        compose::draw_offered(&site(), &recipient("anna"), &game, "bert"),
        compose::game_over(&site(), &recipient("anna"), &game),
    ];
    for mail in &mails {
        assert_eq!(mail.subject, "Kefren #42: anna vs bert");
        assert_eq!(mail.thread.as_deref(), Some("<game-42@turnpost.example>"));
    }
}

#[test]
fn html_escapes_names_and_moves() {
    let mut game = kefren(1, Some(2));
    game.players[0].name = "<script>alert(1)</script>".into();
    game.last_moves[0].notation = "a<b>&\"".into();
    let mut to = recipient("bert");
    to.name = "bert & <i>co</i>".into();
    let mails = [
        compose::your_turn(&site(), &to, &game),
        compose::challenge(
            &site(),
            &to,
            &game,
            "<b>x</b>",
            at("2026-11-29T03:00:00Z"),
            None,
        ),
        compose::draw_offered(&site(), &to, &game, "<b>x</b>"),
        compose::digest(&site(), &to, std::slice::from_ref(&game)),
    ];
    for mail in &mails {
        let html = mail.html.as_deref().unwrap();
        for raw in ["<script>", "<b>", "<i>", "a<b>"] {
            assert!(!html.contains(raw), "{raw} unescaped in\n{html}");
        }
        assert!(html.contains("&lt;script&gt;") || html.contains("&lt;b&gt;"));
    }
}

/// The full message of a turn card as the transport builds it, with everything that changes
/// between runs redacted: Date, boundaries, and the PNG's base64 lines.
#[test]
fn turn_card_mime_structure() {
    use turnpost_server::db::outbox::OutboxMail;
    let game = kefren(3, Some(2));
    let mail = compose::your_turn(&site(), &recipient("bert"), &game);
    let created = at("2026-11-22T10:00:00Z").naive_utc();
    assert!(mail.image.is_some());
    let row = OutboxMail {
        id: 1,
        message_id: "<m1@turnpost.example>".into(),
        recipient: "bert@example.org".into(),
        subject: mail.subject.clone(),
        body_text: mail.text.clone(),
        in_reply_to: mail.thread.clone(),
        status: turnpost_server::db::outbox::OutboxStatus::Pending,
        attempts: 0,
        next_attempt_at: created,
        lease_until: None,
        last_error: None,
        created_at: created,
        sent_at: None,
        parts: Some(StoredParts::of(&mail).unwrap().to_json().unwrap()),
        claimed_by: None,
        lane: 1,
    };
    let from = "turnpost <turnpost@turnpost.example>".parse().unwrap();
    let message = turnpost_server::mail::transport::build_message(&from, &row).unwrap();
    let raw = String::from_utf8(message.formatted()).unwrap();
    insta::assert_snapshot!(skeleton(&raw));
}

/// Headers of the message and of every part, with bodies left out (the PNG's size depends on
/// the fonts), and boundaries and the date redacted.
fn skeleton(raw: &str) -> String {
    let mut boundaries: Vec<String> = Vec::new();
    for part in raw.split("boundary=\"").skip(1) {
        if let Some(end) = part.find('"') {
            boundaries.push(part[..end].to_owned());
        }
    }
    let mut text = raw.replace("\r\n", "\n");
    for (i, boundary) in boundaries.iter().enumerate() {
        text = text.replace(boundary.as_str(), &format!("BOUNDARY-{}", i + 1));
    }
    let mut out = String::new();
    let mut in_headers = true;
    let mut body_lines = 0;
    for line in text.lines() {
        if line.starts_with("--BOUNDARY-") {
            if body_lines > 0 {
                out.push_str("[body]\n");
            }
            body_lines = 0;
            out.push_str(line);
            out.push('\n');
            in_headers = true;
        } else if in_headers {
            if line.is_empty() {
                in_headers = false;
                out.push('\n');
            } else if line.starts_with("Date: ") {
                out.push_str("Date: [date]\n");
            } else {
                out.push_str(line);
                out.push('\n');
            }
        } else if !line.is_empty() {
            body_lines += 1;
        }
    }
    out
}

#[test]
fn sign_in_code() {
    let mail = turnpost_server::notify::compose::sign_in_code(
        "anna@example.org",
        "anna",
        "K7QX2MRD",
        "https://turnpost.example/signin/link/0123456789abcdefghijklmnopqrstuv",
        15,
        "https://turnpost.example",
    );
    assert_eq!(mail.to, "anna@example.org");
    insta::assert_snapshot!(shown(&mail.mail));
}

#[test]
fn left_game_that_goes_on() {
    let options = Options::from_pairs(["players=3"]).unwrap();
    let start = AnyGame::new(GameKind::ChineseCheckers, &options).unwrap();
    let (position, line) = start
        .leave(
            Seat::new(3).unwrap(),
            turnpost_shared::play::Departure::Resign,
        )
        .unwrap();
    let players = ["anna", "bert", "cleo"]
        .iter()
        .enumerate()
        .map(|(i, name)| Player {
            seat: u8::try_from(i + 1).unwrap(),
            seat_name: position.seat_name(Seat::from_index(i)),
            name: (*name).to_owned(),
            rating: None,
        })
        .collect();
    let game = GameFacts {
        id: 42,
        options: "players=3".into(),
        players,
        ply: 1,
        last_moves: vec![PlayedMove {
            ply: 0,
            seat: 3,
            notation: line,
            automatic: false,
            prepared: false,
        }],
        result: None,
        result_reason: None,
        deadline: Some(at("2026-11-24T18:00:00Z")),
        messages: Vec::new(),
        position,
    };
    let mail = compose::left_game(
        &site(),
        &recipient("bert"),
        &game,
        "cleo",
        turnpost_shared::play::Departure::Resign,
        "anna",
    );
    assert!(mail
        .text
        .contains("cleo left game #42; it goes on, anna to move."));
    insta::assert_snapshot!(shown(&mail));
}

/// A turn card to a seat with a reply address says a reply plays, and the message carries the
/// address as `Reply-To`.
#[test]
fn turn_card_with_a_reply_address() {
    use turnpost_server::db::outbox::OutboxMail;
    let game = kefren(3, Some(2));
    let mut to = recipient("bert");
    to.reply_to = Some("games+abcdefghijklmnopqrstuvwxyzg42s2p3@turnpost.example".into());
    let mail = compose::your_turn(&site(), &to, &game);
    assert_eq!(mail.reply_to, to.reply_to);
    let first = game.position.legal_moves()[0].clone();
    assert!(
        mail.text.contains(&format!(
            "Or simply reply to this mail with your move on the first line (for example {first})"
        )),
        "{}",
        mail.text
    );
    // One space between words: no run of spaces inside a sentence of the plain text.
    assert!(
        mail.text.contains(&format!(
            "(for example {first}); a reply may also say resign, draw offer, show, moves or help."
        )),
        "{}",
        mail.text
    );
    let without = compose::your_turn(&site(), &recipient("bert"), &game);
    assert!(!without.text.contains("reply to this mail"));
    let created = at("2026-11-22T10:00:00Z").naive_utc();
    let row = OutboxMail {
        id: 1,
        message_id: "<m1@turnpost.example>".into(),
        recipient: "bert@example.org".into(),
        subject: mail.subject.clone(),
        body_text: mail.text.clone(),
        in_reply_to: mail.thread.clone(),
        status: turnpost_server::db::outbox::OutboxStatus::Pending,
        attempts: 0,
        next_attempt_at: created,
        lease_until: None,
        last_error: None,
        created_at: created,
        sent_at: None,
        parts: Some(StoredParts::of(&mail).unwrap().to_json().unwrap()),
        claimed_by: None,
        lane: 1,
    };
    let from = "turnpost <turnpost@turnpost.example>".parse().unwrap();
    let message = turnpost_server::mail::transport::build_message(&from, &row).unwrap();
    let raw = String::from_utf8(message.formatted()).unwrap();
    assert!(
        raw.contains("Reply-To: games+abcdefghijklmnopqrstuvwxyzg42s2p3@turnpost.example\r\n"),
        "{raw}"
    );
}

/// The answer to a reply whose move did not read: the line with a caret under the fault, the
/// reason, the lines not run, the board and examples of legal moves.
#[test]
fn mail_answer_to_a_refused_move() {
    let game = kefren(3, Some(2));
    let mut to = recipient("bert");
    to.reply_to = Some("games+abcdefghijklmnopqrstuvwxyzg42s2p3@turnpost.example".into());
    let error = game.position.canonical_move("F18-Q99").unwrap_err();
    let example = game.position.legal_moves()[0].clone();
    let answer = compose::MailAnswer {
        refusal: Some(compose::Refusal {
            line: "F18-Q99".into(),
            reason: error.for_player("F18-Q99", Some(&example)),
            caret: Some(4),
        }),
        skipped: 1,
        ..compose::MailAnswer::default()
    };
    let mail = compose::mail_answer(&site(), &to, &game, &answer);
    assert_eq!(mail.thread.as_deref(), Some("<game-42@turnpost.example>"));
    assert_eq!(mail.reply_to, to.reply_to);
    insta::assert_snapshot!(shown(&mail));
}

/// `moves`, `help` and a finished game: the full list, the help text, and "game over" instead
/// of whose move it is.
#[test]
fn mail_answers_list_moves_give_help_and_say_game_over() {
    let game = kefren(2, Some(1));
    let asked = compose::MailAnswer {
        moves: true,
        help: true,
        ..compose::MailAnswer::default()
    };
    let mail = compose::mail_answer(&site(), &recipient("anna"), &game, &asked);
    let legal = game.position.legal_moves();
    assert!(
        mail.text.contains(&format!(
            "Legal moves ({}):\n{}",
            legal.len(),
            legal.join(" ")
        )),
        "{}",
        mail.text
    );
    assert!(mail.text.contains("one command per line"));
    let mut over = kefren(2, Some(1));
    over.result = Some(GameResult::won([2]));
    over.result_reason = Some(ResultReason::Resignation);
    let done = compose::MailAnswer {
        done: vec!["resigned".into()],
        ..compose::MailAnswer::default()
    };
    let mail = compose::mail_answer(&site(), &recipient("anna"), &over, &done);
    assert!(
        mail.text.contains("Done in Kefren #42: resigned."),
        "{}",
        mail.text
    );
    assert!(mail.text.contains("The game is over."), "{}", mail.text);
    assert!(!mail.text.contains("To move:"), "{}", mail.text);
}

/// A Kechi turn card: its examples (turns of several stone moves joined by commas) one per
/// line, after a sentence saying how such a turn is written; in HTML no move is broken.
#[test]
fn kechi_turn_card_lists_examples_one_per_line() {
    let game = game_of(GameKind::Kechi, 1, Some(2));
    let mail = compose::your_turn(&site(), &recipient("bert"), &game);
    assert!(mail
        .text
        .contains("A Kechi turn moves one or more of your stones"));
    insta::assert_snapshot!(shown(&mail));
}

/// No mail shows Markdown: the challenge's reply hint says its words plainly.
#[test]
fn challenge_with_a_reply_address_shows_no_markdown() {
    let game = kefren(0, None);
    let mut to = recipient("bert");
    to.reply_to = Some("games+abcdefghijklmnopqrstuvwxyzg42s2p3@turnpost.example".into());
    let mail = compose::challenge(
        &site(),
        &to,
        &game,
        "anna",
        at("2026-11-29T03:00:00Z"),
        None,
    );
    assert!(
        mail.text
            .contains("Or reply to this mail with accept or decline on the first line."),
        "{}",
        mail.text
    );
    assert!(!mail.text.contains('`'), "{}", mail.text);
    assert!(!mail.html.as_deref().unwrap().contains('`'));
}

/// Counts in answers are said in words that agree: "1 legal move", "the line after it".
#[test]
fn mail_answers_count_in_words() {
    let game = kefren(3, Some(2));
    let mut to = recipient("bert");
    to.reply_to = Some("games+abcdefghijklmnopqrstuvwxyzg42s2p3@turnpost.example".into());
    let answer = compose::MailAnswer {
        refusal: Some(compose::Refusal {
            line: "resign please".into(),
            reason: "Expected a command.".into(),
            caret: None,
        }),
        skipped: 2,
        ..compose::MailAnswer::default()
    };
    let mail = compose::mail_answer(&site(), &to, &game, &answer);
    assert!(
        mail.text.contains("The 2 lines after it were not run."),
        "{}",
        mail.text
    );
    assert!(!mail.text.contains("(s)"), "{}", mail.text);
    let done = compose::MailAnswer {
        done: vec!["played F3-E4 (written f3-e4)".into()],
        ..compose::MailAnswer::default()
    };
    let mail = compose::mail_answer(&site(), &to, &game, &done);
    assert!(!mail.text.contains("(s)"), "{}", mail.text);
}
