//! Clocks, timeouts, vacations and mail preferences through the real `turnpost` CLI against the
//! real server: `notifications` (show, change, refusals), `vacation` (take, show, exhaustion),
//! `claim` (refused before the deadline, accepted after it, from the mailed command), and how
//! `show`, `games` and `next` present clocks and deadlines.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use serde_json::Value;
use turnpost_tests::{Backend, Cli, ServerProcess};

struct Table {
    server: ServerProcess,
    anna: Cli,
    bob: Cli,
}

fn table(backend: Backend) -> Table {
    // Sweeps and mail delivery every 200 ms, so a passed deadline is noticed within the test.
    let server = ServerProcess::start_on(
        backend,
        &[
            ("TURNPOST_SWEEP_INTERVAL_MS", "200"),
            ("TURNPOST_OUTBOX_POLL_MS", "200"),
        ],
    );
    let anna = Cli::new(server.data_dir.join("anna"));
    let bob = Cli::new(server.data_dir.join("bob"));
    anna.sign_up(&server, "anna");
    bob.sign_up(&server, "bob");
    Table { server, anna, bob }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a command that must succeed and returns its stdout.
fn ok(cli: &Cli, args: &[&str]) -> String {
    let out = cli.run(args);
    assert!(
        out.status.success(),
        "turnpost {args:?} failed ({:?}): {}",
        out.status.code(),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Runs a command that must fail with `code`; returns its stderr.
fn fails(cli: &Cli, args: &[&str], code: i32) -> String {
    let out = cli.run(args);
    assert_eq!(
        out.status.code(),
        Some(code),
        "turnpost {args:?}: stdout {} stderr {}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    text(&out.stderr)
}

/// anna challenges bob with `extra` options; bob accepts. Returns the game id.
fn start_game(table: &Table, extra: &[&str]) -> String {
    let mut args = vec!["new", "kefren", "--with", "bob"];
    args.extend_from_slice(extra);
    let game = table.anna.json(&args);
    let id = game["game"]["id"].as_i64().unwrap().to_string();
    let accepted = table.bob.json(&["accept", &id]);
    assert_eq!(accepted["game"]["status"], "active");
    id
}

fn notifications_round_trip(backend: Backend) {
    let table = table(backend);
    let anna = &table.anna;
    let game = start_game(&table, &[]);

    let shown = ok(anna, &["notifications"]);
    assert!(shown.contains("time zone:          UTC"), "{shown}");
    assert!(shown.contains("turn mail:          immediate"), "{shown}");
    assert!(shown.contains("reminders:          on"), "{shown}");
    assert!(shown.contains("muted games:        none"), "{shown}");
    assert!(shown.contains("switched off:       nothing"), "{shown}");

    // Turn mail and reminders are two switches: turning one off leaves the other on, and
    // the listing says plainly what is off.
    let off = ok(anna, &["notifications", "--turn-mail", "off"]);
    assert!(
        off.contains("turn mail:          off (no turn mail)"),
        "{off}"
    );
    assert!(off.contains("reminders:          on"), "{off}");
    assert!(off.contains("switched off:       turn mail\n"), "{off}");
    let json = anna.json(&["notifications"]);
    assert_eq!(json["notifications"]["categories"]["reminders"], true);
    let swapped = ok(
        anna,
        &[
            "notifications",
            "--turn-mail",
            "immediate",
            "--off",
            "reminders",
        ],
    );
    assert!(
        swapped.contains("turn mail:          immediate"),
        "{swapped}"
    );
    assert!(swapped.contains("reminders:          off"), "{swapped}");
    assert!(
        swapped.contains("switched off:       reminders\n"),
        "{swapped}"
    );
    ok(anna, &["notifications", "--on", "reminders"]);

    let changed = ok(
        anna,
        &[
            "notifications",
            "--turn-mail",
            "digest",
            "--digest-hour",
            "7",
            "--time-zone",
            "Europe/Berlin",
            "--off",
            "reminders,draw_offers",
            "--on",
            "game_over",
            "--mute",
            &game,
        ],
    );
    assert!(
        changed.starts_with("Notification settings saved."),
        "{changed}"
    );
    assert!(
        changed.contains("digest (one mail a day at 07:00 Europe/Berlin)"),
        "{changed}"
    );
    assert!(changed.contains("reminders:          off"), "{changed}");
    assert!(changed.contains("draw_offers:        off"), "{changed}");
    assert!(changed.contains("game_over:          on"), "{changed}");
    assert!(
        changed.contains("switched off:       draw_offers, reminders\n"),
        "{changed}"
    );
    assert!(
        changed.contains(&format!("muted games:        #{game}")),
        "{changed}"
    );

    // The settings are kept: a later read shows them, with the API's field names in JSON.
    let json = anna.json(&["notifications"]);
    assert_eq!(json["version"], 1);
    let settings = &json["notifications"];
    assert_eq!(settings["time_zone"], "Europe/Berlin");
    assert_eq!(settings["turn_mail"], "digest");
    assert_eq!(settings["digest_hour"], 7);
    assert_eq!(settings["categories"]["reminders"], false);
    assert_eq!(settings["categories"]["draw_offers"], false);
    assert_eq!(settings["categories"]["challenges"], true);
    assert_eq!(
        settings["muted_games"],
        Value::from(vec![game.parse::<i64>().unwrap()])
    );

    // An unknown time zone is refused by the server (exit 1), saying what it expected, and
    // nothing changes.
    let err = fails(anna, &["notifications", "--time-zone", "Mars/Olympus"], 1);
    assert!(
        err.contains("`Mars/Olympus` is not an IANA time zone name such as `Europe/Berlin`"),
        "{err}"
    );
    // Muting a game there is not is refused too (404, saying so).
    let err = fails(anna, &["notifications", "--mute", "999"], 1);
    assert!(err.contains("there is no game 999 to mute"), "{err}");
    // Contradictions and impossible hours are usage errors (exit 2), caught before sending.
    let err = fails(
        anna,
        &["notifications", "--on", "reminders", "--off", "reminders"],
        2,
    );
    assert!(err.contains("--on and --off both name reminders"), "{err}");
    fails(anna, &["notifications", "--digest-hour", "24"], 2);
    fails(anna, &["notifications", "--off", "everything"], 2);
    assert_eq!(
        anna.json(&["notifications"])["notifications"]["time_zone"],
        "Europe/Berlin"
    );

    let back = anna.json(&[
        "notifications",
        "--unmute",
        &game,
        "--on",
        "reminders",
        "--turn-mail",
        "immediate",
    ]);
    assert_eq!(
        back["notifications"]["muted_games"],
        Value::Array(Vec::new())
    );
    assert_eq!(back["notifications"]["categories"]["reminders"], true);
    assert_eq!(back["notifications"]["turn_mail"], "immediate");
    // Bob's settings are his own.
    assert_eq!(
        table.bob.json(&["notifications"])["notifications"]["time_zone"],
        "UTC"
    );
}

#[test]
fn notifications_show_change_and_refuse_on_sqlite() {
    notifications_round_trip(Backend::Sqlite);
}

#[test]
fn notifications_show_change_and_refuse_on_postgres() {
    notifications_round_trip(Backend::Postgres);
}

fn vacation_take_show_and_exhaust(backend: Backend) {
    let table = table(backend);
    let anna = &table.anna;
    let game = start_game(&table, &[]);
    let deadline = |cli: &Cli| {
        cli.json(&["show", &game])["game"]["deadline"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let before = deadline(anna);

    let shown = ok(anna, &["vacation"]);
    assert!(shown.contains(": 0 of 15 used, 15 left."), "{shown}");
    assert!(shown.contains("Not on vacation"), "{shown}");

    let taken = ok(anna, &["vacation", "3"]);
    assert!(
        taken.starts_with("Took 3 vacation days.\nVacation days in "),
        "{taken}"
    );
    assert!(taken.contains(": 3 of 15 used, 12 left."), "{taken}");
    assert!(taken.contains("On vacation until "), "{taken}");
    assert!(taken.contains("(in 2 d 23 h)"), "{taken}");

    let json = anna.json(&["vacation"]);
    assert_eq!(json["version"], 1);
    assert_eq!(json["vacation"]["days_used"], 3);
    assert_eq!(json["vacation"]["days_left"], 12);
    assert!(json["vacation"]["until"].is_string(), "{json}");

    // Anna is to move: her deadline moved out by the three days.
    let after = deadline(anna);
    let day = |text: &str| text[..10].to_string();
    assert_ne!(day(&before), day(&after), "{before} → {after}");
    let shown = ok(anna, &["show", &game]);
    assert!(shown.contains("your deadline: "), "{shown}");
    assert!(shown.contains("(in 5 d"), "{shown}");

    // More days than are left: refused by the server with exit 1, nothing taken.
    let err = fails(anna, &["vacation", "13"], 1);
    assert!(
        err.contains("you have 12 of 15 vacation days left"),
        "{err}"
    );
    fails(anna, &["vacation", "0"], 2);
    assert_eq!(anna.json(&["vacation"])["vacation"]["days_left"], 12);
    // The rest can be taken; then none are left.
    assert_eq!(anna.json(&["vacation", "12"])["vacation"]["days_left"], 0);
    let err = fails(anna, &["vacation", "1"], 1);
    assert!(err.contains("0 of 15"), "{err}");
}

#[test]
fn vacation_take_show_and_exhaust_on_sqlite() {
    vacation_take_show_and_exhaust(Backend::Sqlite);
}

#[test]
fn vacation_take_show_and_exhaust_on_postgres() {
    vacation_take_show_and_exhaust(Backend::Postgres);
}

/// The mail to `email` that contains `needle`, waiting up to 30 s for it. (All mails of a
/// game share one subject, so the text tells them apart.)
fn mail_containing(server: &ServerProcess, email: &str, needle: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let found = server
            .smtp
            .messages_to(email)
            .into_iter()
            .find(|mail| mail.data.contains(needle));
        if let Some(mail) = found {
            return mail.data;
        }
        assert!(
            Instant::now() < deadline,
            "no mail with `{needle}` to {email} within 30 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn claim_a_win_on_time_after_the_deadline(backend: Backend) {
    let table = table(backend);
    let (anna, bob) = (&table.anna, &table.bob);
    let game = start_game(&table, &["--timeout", "claim", "--days-per-move", "2"]);

    // Anna is to move with two days left: nothing to claim yet.
    let shown = ok(bob, &["show", &game]);
    assert!(
        shown.contains("clock: 2 days per move · timeout: claim"),
        "{shown}"
    );
    assert!(shown.contains("deadline of anna: "), "{shown}");
    assert!(shown.contains("(in 1 d 23 h)"), "{shown}");
    assert!(!shown.contains("you may claim"), "{shown}");
    let err = fails(bob, &["claim", &game], 1);
    assert!(
        err.contains(&format!(
            "no win on time to claim in game {game}: the seat to move has time until"
        )),
        "{err}"
    );
    // Anna cannot claim on her own turn.
    let err = fails(anna, &["claim", &game], 1);
    assert!(err.contains("it is your turn"), "{err}");

    // Her deadline passes (moved into the past in the server's database).
    let two_hours_ago = match table.server.backend() {
        Backend::Sqlite => "strftime('%Y-%m-%d %H:%M:%f', 'now', '-2 hours')",
        Backend::Postgres => "(now() AT TIME ZONE 'UTC') - interval '2 hours'",
    };
    table.server.execute_sql(&format!(
        "UPDATE games SET deadline_at = {two_hours_ago} WHERE id = {game}"
    ));
    let shown = ok(bob, &["show", &game]);
    assert!(
        shown.contains(&format!(
            "you may claim a win on time: turnpost claim {game}"
        )),
        "{shown}"
    );
    assert!(
        shown.contains("(2 h ago)") || shown.contains("(1 h 59 min ago)"),
        "{shown}"
    );
    assert_eq!(bob.json(&["show", &game])["game"]["claimable"], true);
    assert_eq!(anna.json(&["show", &game])["game"]["claimable"], false);

    // The server mails bob the command; it is exactly `turnpost claim <id>`, and it works.
    let mail = mail_containing(
        &table.server,
        "bob@example.org",
        &format!("turnpost claim {game}"),
    );
    assert!(mail.contains("anna's time"), "{mail}");
    let command = mail
        .lines()
        .map(str::trim)
        .find(|line| line.starts_with("turnpost claim"))
        .unwrap_or_else(|| panic!("no command in {mail}"));
    assert_eq!(command, format!("turnpost claim {game}"));
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let claimed = ok(bob, &args);
    assert!(
        claimed.starts_with(&format!("Claimed the win on time in game #{game}.")),
        "{claimed}"
    );
    assert!(claimed.contains(" won on time"), "{claimed}");
    assert!(!claimed.contains("won 2"), "{claimed}");

    let finished = anna.json(&["show", &game])["game"].clone();
    assert_eq!(finished["status"], "finished");
    assert_eq!(finished["result"], "won 2");
    assert_eq!(finished["result_reason"], "timeout");
    // Once over there is nothing more to claim.
    let err = fails(bob, &["claim", &game], 1);
    assert!(err.contains("is finished"), "{err}");
}

#[test]
fn claim_a_win_on_time_after_the_deadline_on_sqlite() {
    claim_a_win_on_time_after_the_deadline(Backend::Sqlite);
}

#[test]
fn claim_a_win_on_time_after_the_deadline_on_postgres() {
    claim_a_win_on_time_after_the_deadline(Backend::Postgres);
}

#[test]
fn clocks_and_deadlines_in_show_games_and_next() {
    let table = table(Backend::Sqlite);
    let anna = &table.anna;
    // Both wait for anna: the older one has five days, the newer one a Fischer bank of one.
    let five_days = start_game(&table, &["--days-per-move", "5"]);
    let fischer = start_game(&table, &["--fischer", "1d+1d/3d"]);

    let shown = ok(anna, &["show", &fischer]);
    assert!(
        shown.contains("clock: Fischer 1d+1d/3d (1 day, +1 day a move, at most 3) · timeout: auto · banks: anna 1 d, bob 1 d"),
        "{shown}"
    );
    assert!(shown.contains("your deadline: "), "{shown}");
    assert!(
        shown.contains("(in 23 h ") || shown.contains("(in 1 d)"),
        "{shown}"
    );
    // In the machine's local time zone, whichever it is.
    let out = anna
        .command(&["show", &fischer])
        .env("TZ", "Asia/Tokyo")
        .output()
        .unwrap();
    assert!(
        text(&out.stdout).contains(" +09:00 (in "),
        "{}",
        text(&out.stdout)
    );
    let out = anna
        .command(&["show", &fischer])
        .env("TZ", "UTC")
        .output()
        .unwrap();
    assert!(
        text(&out.stdout).contains(" +00:00 (in "),
        "{}",
        text(&out.stdout)
    );

    // The list gives each deadline in local time and how far off it is.
    let list = ok(anna, &["games", "--turn", "mine"]);
    let line = |id: &str| {
        list.lines()
            .find(|line| line.trim_start().starts_with(&format!("{id} ")))
            .unwrap_or_else(|| panic!("game {id} not in {list}"))
            .to_string()
    };
    assert!(line(&five_days).contains("(in 4 d 23 h)"), "{list}");
    assert!(line(&fischer).contains("due "), "{list}");

    // `next` takes the nearest deadline, not the game waiting longest.
    let next = anna.json(&["next"]);
    assert_eq!(next["game"]["id"].to_string(), fischer);
    let next = ok(anna, &["next"]);
    assert!(next.starts_with(&format!("kefren #{fischer} ")), "{next}");
    // Once anna has moved there, the other game is next.
    anna.json(&["move", &fischer, "F2-F3"]);
    assert_eq!(anna.json(&["next"])["game"]["id"].to_string(), five_days);
    // After a move the Fischer bank has its increment (capped at 3 days).
    let seats = anna.json(&["show", &fischer])["game"]["seats"].clone();
    let anna_bank = seats[0]["bank_seconds"].as_u64().unwrap();
    assert!(anna_bank > 86_400 && anna_bank <= 2 * 86_400, "{seats}");
}
