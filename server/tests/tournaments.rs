//! Tournaments over HTTP on both backends, played to their end by scripted players through
//! the API (resignations, agreed draws, a few real moves), the rounds moved on by the sweep:
//! a 6-player round-robin with hand-computed standings, a 9-player Swiss of 4 rounds whose
//! tie-breaks are computed here from the games, a Chinese Checkers table tournament of 6,
//! a withdrawal, and an entry window closing with too few players.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::{Duration, NaiveDateTime};
use common::{get, post, Backend, TestApp};
use serde_json::{json, Value};
use turnpost_server::{db, sweeps};
use turnpost_shared::{AnyGame, GameKind, Options};

both_backends!(
    a_round_robin_of_six_is_played_to_its_end,
    a_swiss_of_nine_over_four_rounds_is_played_to_its_end,
    a_chinese_checkers_table_tournament_of_six,
    a_withdrawal_resigns_and_drops_the_player,
    too_few_players_cancel_it_and_bad_settings_are_refused,
    the_next_round_is_paired_as_soon_as_the_last_game_ends,
    an_invitation_tournament_starts_when_the_third_player_joins,
    without_start_when_full_a_full_field_waits,
    times_read_in_words_on_the_page_and_in_the_invitation,
    the_organiser_starts_a_swiss_early,
);

/// The entry window the tests give: an hour.
fn closes() -> (String, NaiveDateTime) {
    let at = db::now() + Duration::hours(1);
    (db::rfc3339(at), at)
}

/// One round of sweeps as of `now`.
fn sweep(app: &TestApp, now: NaiveDateTime) -> sweeps::SweepReport {
    let ctx = app.mail_context();
    sweeps::sweep_once(&mut app.conn(), &ctx, now).unwrap()
}

async fn create(app: &TestApp, token: &str, body: Value) -> i64 {
    let answer = post(app, "/v1/tournaments", token, body).await;
    assert_eq!(answer.status, 201, "{answer:?}");
    assert_eq!(answer.body["status"], "entry");
    answer.body["id"].as_i64().unwrap()
}

async fn join_all(app: &TestApp, id: i64, field: &[(String, String)]) {
    for (name, token) in field {
        let joined = post(app, &format!("/v1/tournaments/{id}/join"), token, json!({})).await;
        assert_eq!(joined.status, 200, "{name}: {joined:?}");
        assert_eq!(joined.body["you_entered"], true);
    }
}

async fn show(app: &TestApp, id: i64, token: &str) -> Value {
    let answer = get(app, &format!("/v1/tournaments/{id}"), token).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    answer.body
}

/// The entry number of `name` (`p3` → 3).
fn number(name: &str) -> usize {
    name.trim_start_matches(|c: char| c.is_ascii_alphabetic())
        .parse()
        .unwrap()
}

/// Ends game `id` between two players: a real move first, then `loser` resigns, or (no loser)
/// seat 1 offers a draw and seat 2 accepts.
async fn finish_two(app: &TestApp, id: i64, tokens: &HashMap<String, String>, loser: Option<&str>) {
    let game = get(
        app,
        &format!("/v1/games/{id}"),
        &tokens[game_player(app, id, 1).await.as_str()],
    )
    .await;
    assert_eq!(game.body["status"], "active", "{game:?}");
    let first = game.body["seats"][0]["player"].as_str().unwrap().to_owned();
    let second = game.body["seats"][1]["player"].as_str().unwrap().to_owned();
    // A real move by seat 1.
    let mv = game.body["legal_moves"][0].as_str().unwrap().to_owned();
    let played = post(
        app,
        &format!("/v1/games/{id}/moves"),
        &tokens[&first],
        json!({"move": mv, "ply": 0}),
    )
    .await;
    assert_eq!(played.status, 201, "{played:?}");
    match loser {
        Some(loser) => {
            let resigned = post(
                app,
                &format!("/v1/games/{id}/resign"),
                &tokens[loser],
                json!({}),
            )
            .await;
            assert_eq!(resigned.status, 200, "{resigned:?}");
            assert_eq!(resigned.body["status"], "finished");
        }
        None => {
            let offer = post(
                app,
                &format!("/v1/games/{id}/draw"),
                &tokens[&first],
                json!({"action": "offer"}),
            )
            .await;
            assert_eq!(offer.status, 200, "{offer:?}");
            let accept = post(
                app,
                &format!("/v1/games/{id}/draw"),
                &tokens[&second],
                json!({"action": "accept"}),
            )
            .await;
            assert_eq!(accept.status, 200, "{accept:?}");
            assert_eq!(accept.body["status"], "finished");
        }
    }
}

/// The player at `seat` of game `id`, read from the database.
async fn game_player(app: &TestApp, id: i64, seat: i32) -> String {
    let seats = turnpost_server::db::games::seats(&mut app.conn(), id).unwrap();
    seats
        .iter()
        .find(|(s, _)| s.seat == seat)
        .map(|(_, a)| a.name.clone())
        .unwrap()
}

/// The games of the view's current round that are still running: (id, players).
fn running(view: &Value) -> Vec<(i64, Vec<String>)> {
    view["round_games"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["games"].as_array().unwrap().iter())
        .filter(|g| g["status"] == "active")
        .map(|g| {
            (
                g["id"].as_i64().unwrap(),
                g["players"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_str().unwrap().to_owned())
                    .collect(),
            )
        })
        .collect()
}

/// The standings as `player → (rank, points, buchholz, sb, played)`.
fn standings(view: &Value) -> BTreeMap<String, (u64, f64, f64, f64, u64)> {
    view["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["player"].as_str().unwrap().to_owned(),
                (
                    s["rank"].as_u64().unwrap(),
                    s["points"].as_f64().unwrap(),
                    s["buchholz"].as_f64().unwrap(),
                    s["sonneborn_berger"].as_f64().unwrap(),
                    s["games_played"].as_u64().unwrap(),
                ),
            )
        })
        .collect()
}

/// Waits until a mail to `to` has a subject containing `needle`; returns its text.
async fn mail_saying(app: &TestApp, to: &str, needle: &str) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        for mail in app.smtp.messages_to(to) {
            let parsed = mail_parser::MessageParser::default()
                .parse(mail.data.as_bytes())
                .unwrap();
            let subject = parsed.subject().unwrap_or_default().to_owned();
            if subject.contains(needle) {
                return format!("{subject}\n{}", parsed.body_text(0).unwrap_or_default());
            }
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no mail to {to} says {needle:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

async fn a_round_robin_of_six_is_played_to_its_end(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let organiser = play::player(&app.pool, "org");
    let field = play::numbered_players(&app.pool, "p", 6);
    let tokens: HashMap<String, String> = field.iter().cloned().collect();
    let (at, closes_at) = closes();
    let id = create(
        &app,
        &organiser,
        json!({"name": "Kefren league", "kind": "kefren", "format": "round_robin",
               "clock": "5d", "entry_closes_at": at}),
    )
    .await;
    join_all(&app, id, &field).await;
    // Nothing happens before the window closes.
    assert_eq!(sweep(&app, closes_at - Duration::minutes(1)).tournaments, 0);
    assert_eq!(sweep(&app, closes_at + Duration::minutes(1)).tournaments, 1);
    // Only once: the state is checked under the row's lock.
    assert_eq!(sweep(&app, closes_at + Duration::minutes(2)).tournaments, 0);
    let view = show(&app, id, &organiser).await;
    assert_eq!(view["status"], "running");
    assert_eq!(view["rounds"], 5);
    assert_eq!(view["current_round"], 1);

    // Results: entrants i and j draw when i + j is a multiple of 3, else the lower number wins.
    let mut met = BTreeSet::new();
    let mut colours: HashMap<String, (u32, u32)> = HashMap::new();
    for round in 1..=5 {
        let view = show(&app, id, &organiser).await;
        assert_eq!(view["current_round"], round, "{view}");
        let games = running(&view);
        assert_eq!(games.len(), 3, "round {round}: {view}");
        let mut seen = BTreeSet::new();
        for (game, names) in &games {
            let (a, b) = (number(&names[0]), number(&names[1]));
            assert!(seen.insert(a) && seen.insert(b), "round {round}: {names:?}");
            assert!(met.insert((a.min(b), a.max(b))), "{names:?} met twice");
            colours.entry(names[0].clone()).or_default().0 += 1;
            colours.entry(names[1].clone()).or_default().1 += 1;
            let loser = if (a + b) % 3 == 0 {
                None
            } else if a < b {
                Some(names[1].as_str())
            } else {
                Some(names[0].as_str())
            };
            finish_two(&app, *game, &tokens, loser).await;
        }
        let report = sweep(&app, db::now());
        assert_eq!(report.tournaments, 1, "round {round}");
    }
    assert_eq!(met.len(), 15, "everyone met everyone");
    for (name, (white, black)) in &colours {
        assert!(
            white.abs_diff(*black) <= 1,
            "{name}: {white} white, {black} black"
        );
    }
    let view = show(&app, id, &organiser).await;
    assert_eq!(view["status"], "finished", "{view}");
    assert!(view["finished_at"].is_string());
    // By hand: p1 and p2 4 points (3 wins, 2 draws), p3 2½, p4 and p5 2, p6 ½; Buchholz is
    // 15 minus one's own points; Sonneborn–Berger from the results above.
    let expected = [
        ("p1", 1, 4.0, 11.0, 8.0),
        ("p2", 1, 4.0, 11.0, 8.0),
        ("p3", 3, 2.5, 12.5, 4.25),
        ("p4", 4, 2.0, 13.0, 3.5),
        ("p5", 4, 2.0, 13.0, 3.5),
        ("p6", 6, 0.5, 14.5, 1.25),
    ];
    let table = standings(&view);
    for (name, rank, points, buchholz, sb) in expected {
        let (got_rank, got_points, got_buchholz, got_sb, played) = table[name];
        assert_eq!(
            (got_rank, got_points, got_buchholz, got_sb, played),
            (rank, points, buchholz, sb, 5),
            "{name}: {view}"
        );
    }
    // Listed as finished; the final standings are mailed to every entrant.
    let finished = get(&app, "/v1/tournaments?status=finished", &organiser).await;
    assert_eq!(finished.body["tournaments"][0]["id"], id);
    app.game_mail_composed().await;
    let text = mail_saying(&app, "p6@example.org", "Tournament over").await;
    assert!(text.contains("Kefren league"), "{text}");
    assert!(text.contains("p1"), "{text}");
    // More sweeps change nothing.
    assert_eq!(sweep(&app, db::now()).tournaments, 0);
}

/// Points, Buchholz and Sonneborn–Berger computed from a tournament's rounds (two-seat games,
/// byes scored as a win).
fn tie_breaks(view: &Value) -> BTreeMap<String, (f64, f64, f64)> {
    let mut points: BTreeMap<String, f64> = BTreeMap::new();
    let mut results: Vec<(String, String, f64)> = Vec::new();
    for round in view["round_games"].as_array().unwrap() {
        if let Some(bye) = round["bye"].as_str() {
            *points.entry(bye.to_owned()).or_default() += 1.0;
        }
        for game in round["games"].as_array().unwrap() {
            let names: Vec<String> = game["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap().to_owned())
                .collect();
            let places: Vec<u64> = game["placings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_u64().unwrap())
                .collect();
            let first = match places[0].cmp(&places[1]) {
                std::cmp::Ordering::Less => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Greater => 0.0,
            };
            results.push((names[0].clone(), names[1].clone(), first));
            results.push((names[1].clone(), names[0].clone(), 1.0 - first));
        }
    }
    for (me, _, score) in &results {
        *points.entry(me.clone()).or_default() += score;
    }
    points
        .iter()
        .map(|(me, own)| {
            let buchholz = results
                .iter()
                .filter(|(m, _, _)| m == me)
                .map(|(_, them, _)| points[them])
                .sum();
            let sb = results
                .iter()
                .filter(|(m, _, _)| m == me)
                .map(|(_, them, score)| score * points[them])
                .sum();
            (me.clone(), (*own, buchholz, sb))
        })
        .collect()
}

async fn a_swiss_of_nine_over_four_rounds_is_played_to_its_end(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let field = play::numbered_players(&app.pool, "s", 9);
    let tokens: HashMap<String, String> = field.iter().cloned().collect();
    let (at, closes_at) = closes();
    // The organiser plays too.
    let id = create(
        &app,
        &field[0].1,
        json!({"name": "Swiss SanQi", "kind": "sanqi", "format": "swiss", "rounds": 4,
               "entry_closes_at": at, "max_players": 9, "invite": ["s9", "S9", " s9 "],
               // Started by its window's close, as the sweep does (not when full).
               "start_when_full": false}),
    )
    .await;
    let invitation = mail_saying(&app, "s9@example.org", "Tournament invitation").await;
    assert!(
        invitation.contains(&format!("turnpost tournament join {id}")),
        "{invitation}"
    );
    join_all(&app, id, &field).await;
    // Named three times, invited once (issue 48).
    let invitations = app
        .smtp
        .messages_to("s9@example.org")
        .iter()
        .filter(|m| m.data.contains("Tournament invitation"))
        .count();
    assert_eq!(invitations, 1);
    let late = play::player(&app.pool, "late");
    let full = post(
        &app,
        &format!("/v1/tournaments/{id}/join"),
        &late,
        json!({}),
    )
    .await;
    assert_eq!((full.status, full.error_code()), (409, "tournament_full"));
    let again = post(
        &app,
        &format!("/v1/tournaments/{id}/join"),
        &field[1].1,
        json!({}),
    )
    .await;
    assert_eq!((again.status, again.error_code()), (409, "already_entered"));
    assert_eq!(sweep(&app, closes_at + Duration::minutes(1)).tournaments, 1);
    let closed = post(
        &app,
        &format!("/v1/tournaments/{id}/join"),
        &late,
        json!({}),
    )
    .await;
    assert_eq!((closed.status, closed.error_code()), (409, "entry_closed"));

    let mut met = BTreeSet::new();
    let mut byes = BTreeSet::new();
    for round in 1..=4u64 {
        let view = show(&app, id, &field[0].1).await;
        assert_eq!(view["current_round"], round, "{view}");
        let this = &view["round_games"][usize::try_from(round - 1).unwrap()];
        let bye = this["bye"].as_str().unwrap().to_owned();
        assert!(byes.insert(bye.clone()), "{bye} has a second bye");
        let games = running(&view);
        assert_eq!(games.len(), 4, "round {round}: {view}");
        let mut seen: BTreeSet<String> = BTreeSet::from([bye]);
        for (game, names) in &games {
            assert!(seen.insert(names[0].clone()) && seen.insert(names[1].clone()));
            let (a, b) = (number(&names[0]), number(&names[1]));
            assert!(met.insert((a.min(b), a.max(b))), "{names:?} met twice");
            // Draw when a + b is a multiple of 4, else the lower number wins.
            let loser = if (a + b) % 4 == 0 {
                None
            } else if a < b {
                Some(names[1].as_str())
            } else {
                Some(names[0].as_str())
            };
            finish_two(&app, *game, &tokens, loser).await;
        }
        assert_eq!(seen.len(), 9, "everyone paired or given the bye");
        assert_eq!(sweep(&app, db::now()).tournaments, 1, "round {round}");
    }
    let view = show(&app, id, &field[0].1).await;
    assert_eq!(view["status"], "finished", "{view}");
    let computed = tie_breaks(&view);
    let shown = standings(&view);
    assert_eq!(shown.len(), 9);
    let total: f64 = shown.values().map(|s| s.1).sum();
    assert!(
        (total - 20.0).abs() < 1e-9,
        "4 games and a bye a round: {total}"
    );
    for (name, (points, buchholz, sb)) in &computed {
        let (_, got_points, got_buchholz, got_sb, _) = shown[name];
        assert_eq!(
            (got_points, got_buchholz, got_sb),
            (*points, *buchholz, *sb),
            "{name}"
        );
    }
    // Ranked by points, then Buchholz, then Sonneborn–Berger.
    let order: Vec<&Value> = view["standings"].as_array().unwrap().iter().collect();
    for pair in order.windows(2) {
        let key = |s: &Value| {
            (
                s["points"].as_f64().unwrap(),
                s["buchholz"].as_f64().unwrap(),
                s["sonneborn_berger"].as_f64().unwrap(),
            )
        };
        assert!(key(pair[0]) >= key(pair[1]), "{pair:?}");
    }
    app.game_mail_composed().await;
    mail_saying(&app, "s5@example.org", "Tournament over").await;
}

async fn a_chinese_checkers_table_tournament_of_six(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let field = play::numbered_players(&app.pool, "c", 6);
    let tokens: HashMap<String, String> = field.iter().cloned().collect();
    let (at, closes_at) = closes();
    let id = create(
        &app,
        &field[0].1,
        json!({"name": "Stars", "kind": "chinese-checkers", "format": "tables",
               "table_seats": 3, "rounds": 2, "entry_closes_at": at}),
    )
    .await;
    join_all(&app, id, &field).await;
    assert_eq!(sweep(&app, closes_at + Duration::minutes(1)).tournaments, 1);
    for round in 1..=2 {
        let view = show(&app, id, &field[0].1).await;
        let games = running(&view);
        assert_eq!(games.len(), 2, "round {round}: {view}");
        for (game, names) in &games {
            assert_eq!(names.len(), 3, "{names:?}");
            // Seat 3 leaves first, then seat 2: seat 1 wins, seat 2 second, seat 3 third.
            for leaver in [&names[2], &names[1]] {
                let left = post(
                    &app,
                    &format!("/v1/games/{game}/resign"),
                    &tokens[leaver],
                    json!({}),
                )
                .await;
                assert_eq!(left.status, 200, "{left:?}");
            }
            let over = get(&app, &format!("/v1/games/{game}"), &tokens[&names[0]]).await;
            assert_eq!(over.body["status"], "finished", "{over:?}");
        }
        assert_eq!(sweep(&app, db::now()).tournaments, 1, "round {round}");
    }
    let view = show(&app, id, &field[0].1).await;
    assert_eq!(view["status"], "finished", "{view}");
    // Each table hands out 3 points (1 for each player placed below you): 12 in all.
    let shown = standings(&view);
    let total: f64 = shown.values().map(|s| s.1).sum();
    assert!((total - 12.0).abs() < 1e-9, "{view}");
    // A player's points are those of their places: first 2, second 1, third 0.
    let mut by_places: BTreeMap<String, f64> = BTreeMap::new();
    for round in view["round_games"].as_array().unwrap() {
        for game in round["games"].as_array().unwrap() {
            for (name, place) in game["players"]
                .as_array()
                .unwrap()
                .iter()
                .zip(game["placings"].as_array().unwrap())
            {
                let points = match place.as_u64().unwrap() {
                    1 => 2.0,
                    2 => 1.0,
                    _ => 0.0,
                };
                *by_places
                    .entry(name.as_str().unwrap().to_owned())
                    .or_default() += points;
            }
        }
    }
    for (name, points) in &by_places {
        assert_eq!(shown[name].1, *points, "{name}");
        assert_eq!(shown[name].4, 2, "{name} played both rounds");
    }
}

async fn a_withdrawal_resigns_and_drops_the_player(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let field = play::numbered_players(&app.pool, "w", 5);
    let tokens: HashMap<String, String> = field.iter().cloned().collect();
    let (at, closes_at) = closes();
    let id = create(
        &app,
        &field[0].1,
        json!({"name": "Short Swiss", "kind": "kefren", "format": "swiss", "rounds": 2,
               "entry_closes_at": at}),
    )
    .await;
    join_all(&app, id, &field).await;
    // Before the start a withdrawal just leaves the field.
    let gone = post(
        &app,
        &format!("/v1/tournaments/{id}/withdraw"),
        &tokens["w5"],
        json!({}),
    )
    .await;
    assert_eq!(gone.status, 200, "{gone:?}");
    assert_eq!(gone.body["you_entered"], false);
    assert_eq!(gone.body["entrants"].as_array().unwrap().len(), 4);
    assert_eq!(sweep(&app, closes_at + Duration::minutes(1)).tournaments, 1);
    let view = show(&app, id, &tokens["w1"]).await;
    let games = running(&view);
    assert_eq!(games.len(), 2, "{view}");
    let (game, names) = games
        .iter()
        .find(|(_, names)| names.contains(&"w4".to_owned()))
        .unwrap()
        .clone();
    // w4 withdraws while playing: the game is resigned (a loss) and w4 is out of round 2.
    let out = post(
        &app,
        &format!("/v1/tournaments/{id}/withdraw"),
        &tokens["w4"],
        json!({}),
    )
    .await;
    assert_eq!(out.status, 200, "{out:?}");
    let entrant = out.body["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["player"] == "w4")
        .unwrap()
        .clone();
    assert_eq!(entrant["left_before_round"], 2, "{entrant}");
    assert_eq!(entrant["left_reason"], "withdrew");
    let resigned = get(&app, &format!("/v1/games/{game}"), &tokens["w1"]).await;
    assert_eq!(resigned.body["status"], "finished");
    assert_eq!(
        resigned.body["result_reason"], "resignation",
        "{resigned:?}"
    );
    let twice = post(
        &app,
        &format!("/v1/tournaments/{id}/withdraw"),
        &tokens["w4"],
        json!({}),
    )
    .await;
    assert_eq!((twice.status, twice.error_code()), (409, "not_entered"));
    // The other game ends; round 2 pairs the three left, one with the bye.
    let (other, other_names) = running(&show(&app, id, &tokens["w1"]).await)[0].clone();
    assert!(!other_names.contains(&"w4".to_owned()) && !names.is_empty());
    let loser = other_names[1].clone();
    finish_two(&app, other, &tokens, Some(&loser)).await;
    assert_eq!(sweep(&app, db::now()).tournaments, 1);
    let view = show(&app, id, &tokens["w1"]).await;
    let round2 = &view["round_games"][1];
    assert_eq!(round2["games"].as_array().unwrap().len(), 1, "{view}");
    assert!(round2["bye"].is_string(), "{view}");
    let paired: Vec<&Value> = round2["games"][0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .collect();
    assert!(
        paired.iter().all(|p| *p != "w4") && round2["bye"] != "w4",
        "{view}"
    );
    let w4 = standings(&view)["w4"];
    assert_eq!((w4.1, w4.4), (0.0, 1), "one game, lost");
}

async fn too_few_players_cancel_it_and_bad_settings_are_refused(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let anna = play::player(&app.pool, "anna");
    let bob = play::player(&app.pool, "bob");
    let (at, closes_at) = closes();
    let refused = [
        (
            json!({"name": "x", "kind": "kefren", "format": "tables", "table_seats": 3, "rounds": 2, "entry_closes_at": at}),
            "invalid_tournament",
            "chinese-checkers",
        ),
        (
            json!({"name": "x", "kind": "kefren", "format": "swiss", "entry_closes_at": at}),
            "invalid_tournament",
            "rounds",
        ),
        (
            json!({"name": "x", "kind": "kefren", "format": "round_robin", "rounds": 3, "entry_closes_at": at}),
            "invalid_tournament",
            "rounds",
        ),
        (
            json!({"name": "x", "kind": "chinese-checkers", "format": "swiss", "rounds": 3, "options": {"players": 3}, "entry_closes_at": at}),
            "invalid_tournament",
            "two-seat",
        ),
        (
            json!({"name": "x", "kind": "kefren", "format": "swiss", "rounds": 3, "entry_closes_at": "tomorrow"}),
            "invalid_tournament",
            "RFC 3339",
        ),
        (
            json!({"name": "x", "kind": "kefren", "format": "swiss", "rounds": 3, "entry_closes_at": "2020-01-01T00:00:00Z"}),
            "invalid_tournament",
            "future",
        ),
        (
            json!({"name": "x", "kind": "kefren", "format": "swiss", "rounds": 3, "clock": "99d", "entry_closes_at": at}),
            "invalid_clock",
            "",
        ),
        (
            json!({"name": "x", "kind": "kefren", "format": "swiss", "rounds": 3, "options": {"colour": "blue"}, "entry_closes_at": at}),
            "invalid_options",
            "colour",
        ),
        (
            json!({"name": "x", "kind": "kefren", "format": "swiss", "rounds": 3, "invite": ["nobody"], "entry_closes_at": at}),
            "invalid_tournament",
            "nobody",
        ),
        // At most 50 people invited at once (issue 48), counted once each.
        (
            json!({"name": "x", "kind": "kefren", "format": "swiss", "rounds": 3,
                   "invite": (0..51).map(|i| format!("p{i}")).collect::<Vec<_>>(), "entry_closes_at": at}),
            "invalid_tournament",
            "at most 50 players",
        ),
    ];
    for (body, code, says) in refused {
        let answer = post(&app, "/v1/tournaments", &anna, body.clone()).await;
        assert_eq!(
            (answer.status, answer.error_code()),
            (422, code),
            "{body}: {answer:?}"
        );
        let message = answer.body["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{body}: {message}");
    }
    let id = create(
        &app,
        &anna,
        json!({"name": "Stars", "kind": "chinese-checkers", "format": "tables",
               "table_seats": 3, "rounds": 1, "entry_closes_at": at}),
    )
    .await;
    let listed = get(&app, "/v1/tournaments", &bob).await;
    assert_eq!(listed.body["tournaments"][0]["id"], id, "{listed:?}");
    let joined = post(&app, &format!("/v1/tournaments/{id}/join"), &bob, json!({})).await;
    assert_eq!(joined.status, 200, "{joined:?}");
    let bot = post(
        &app,
        &format!("/v1/tournaments/{id}/join"),
        &anna,
        json!({}),
    )
    .await;
    assert_eq!(bot.status, 200, "{bot:?}");
    let missing = get(&app, "/v1/tournaments/9999", &bob).await;
    assert_eq!(missing.status, 404);
    let bad = get(&app, "/v1/tournaments?status=soon", &bob).await;
    assert_eq!((bad.status, bad.error_code()), (400, "bad_query"));
    // Two players for tables of three: cancelled when the window closes, and both are told.
    assert_eq!(sweep(&app, closes_at + Duration::minutes(1)).tournaments, 1);
    let view = show(&app, id, &bob).await;
    assert_eq!(view["status"], "cancelled", "{view}");
    assert_eq!(view["round_games"].as_array().unwrap().len(), 0);
    let text = mail_saying(&app, "bob@example.org", "Tournament cancelled").await;
    assert!(text.contains("at least 3"), "{text}");
    mail_saying(&app, "anna@example.org", "Tournament cancelled").await;
    assert_eq!(sweep(&app, closes_at + Duration::minutes(2)).tournaments, 0);
}

/// A Kefren game the test policy finishes in few moves: the moves, from the start.
fn short_kefren() -> Vec<String> {
    let start = AnyGame::new(GameKind::Kefren, &Options::default()).unwrap();
    (0..60)
        .map(|seed| play::simulate(&start, seed, 400))
        .filter(|moves| AnyGame::replay(&start, moves).is_ok_and(|game| game.status().is_over()))
        .min_by_key(Vec::len)
        .expect("a seed that finishes")
}

/// The round the tournament is at, and its games' statuses.
async fn round_now(app: &TestApp, id: i64, token: &str) -> (u64, Vec<Vec<String>>) {
    let view = show(app, id, token).await;
    let rounds = view["round_games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["status"].as_str().unwrap().to_owned())
                .collect()
        })
        .collect();
    (view["current_round"].as_u64().unwrap(), rounds)
}

/// The next round follows the end of a round's last game at once, on the server's own
/// workers: the sweeper's periodic round is an hour away, so only the wake rung when a
/// tournament game ends can pair round 2 (round 1's games end by a resignation, and by the
/// move that wins the last one, played through the API).
async fn the_next_round_is_paired_as_soon_as_the_last_game_ends(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 3_600_000).await;
    let field = play::numbered_players(&app.pool, "n", 4);
    let tokens: HashMap<String, String> = field.iter().cloned().collect();
    let (at, closes_at) = closes();
    let id = create(
        &app,
        &field[0].1,
        json!({"name": "Quick rounds", "kind": "kefren", "format": "round_robin",
               "entry_closes_at": at}),
    )
    .await;
    join_all(&app, id, &field).await;
    let step = turnpost_server::tournaments::advance(
        &mut app.conn(),
        &app.mail_context(),
        id,
        closes_at + Duration::minutes(1),
    )
    .unwrap();
    assert_eq!(step, turnpost_server::tournaments::Step::Started);
    let view = show(&app, id, &tokens["n1"]).await;
    let games = running(&view);
    assert_eq!(
        (view["current_round"].as_u64(), games.len()),
        (Some(1), 2),
        "{view}"
    );

    // The first game ends by resignation: the round is not over, nothing is paired.
    let (first, first_names) = games[0].clone();
    finish_two(&app, first, &tokens, Some(&first_names[1])).await;
    // Its game-over mail is out: the composer has read the ending (and rung the wake).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !app
        .smtp
        .messages_to(&format!("{}@example.org", first_names[0]))
        .iter()
        .any(|m| {
            mail_parser::MessageParser::default()
                .parse(m.data.as_bytes())
                .and_then(|p| p.body_text(0).map(|t| t.contains("is over")))
                .unwrap_or(false)
        })
    {
        assert!(std::time::Instant::now() < deadline, "no game-over mail");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(round_now(&app, id, &tokens["n1"]).await.0, 1);

    // The last game ends by its winning move.
    let (last, _) = games[1].clone();
    let seat_tokens = [
        tokens[game_player(&app, last, 1).await.as_str()].clone(),
        tokens[game_player(&app, last, 2).await.as_str()].clone(),
    ];
    let moves = short_kefren();
    for (ply, mv) in moves.iter().enumerate() {
        let played = post(
            &app,
            &format!("/v1/games/{last}/moves"),
            &seat_tokens[ply % 2],
            json!({"move": mv, "ply": ply}),
        )
        .await;
        assert_eq!(played.status, 201, "ply {ply}: {played:?}");
    }
    let over = get(&app, &format!("/v1/games/{last}"), &seat_tokens[0]).await;
    assert_eq!(over.body["status"], "finished", "{over:?}");
    assert_eq!(over.body["result_reason"], "rules", "{over:?}");
    let ended = std::time::Instant::now();
    loop {
        let (round, rounds) = round_now(&app, id, &tokens["n1"]).await;
        if round == 2 {
            assert_eq!(rounds.len(), 2, "{rounds:?}");
            assert_eq!(rounds[1], ["active", "active"], "{rounds:?}");
            break;
        }
        assert!(
            ended.elapsed() < std::time::Duration::from_secs(10),
            "round 2 not paired 10 s after round 1 ended (the sweep runs hourly): {rounds:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // The players of round 2 are mailed their games as usual.
    let (_, rounds) = round_now(&app, id, &tokens["n1"]).await;
    assert_eq!(rounds[0], ["finished", "finished"]);
}

/// A 3-player invitation tournament (issue 47): "start when full" is on by default, and the
/// third entry starts it in its own transaction: the join's answer already shows round 1's
/// game. The sweeper runs hourly here, so it cannot be what starts it. The entrants are
/// mailed their game; a fourth player is told it has started.
async fn an_invitation_tournament_starts_when_the_third_player_joins(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 3_600_000).await;
    let field = play::numbered_players(&app.pool, "f", 3);
    let (at, _) = closes();
    let id = create(
        &app,
        &field[0].1,
        json!({"name": "Three", "kind": "kefren", "format": "round_robin",
               "entry_closes_at": at, "max_players": 3, "invite": ["f2", "f3"]}),
    )
    .await;
    let view = show(&app, id, &field[0].1).await;
    assert_eq!(view["start_when_full"], true, "{view}");
    join_all(&app, id, &field[..2]).await;
    let view = show(&app, id, &field[0].1).await;
    assert_eq!(view["status"], "entry", "{view}");
    assert_eq!(view["round_games"], json!([]), "{view}");
    let third = post(
        &app,
        &format!("/v1/tournaments/{id}/join"),
        &field[2].1,
        json!({}),
    )
    .await;
    assert_eq!(third.status, 200, "{third:?}");
    assert_eq!(third.body["status"], "running", "{third:?}");
    assert_eq!(third.body["current_round"], 1, "{third:?}");
    let games = running(&third.body);
    assert_eq!(
        games.len(),
        1,
        "three players: one game, one sits out: {third:?}"
    );
    assert_eq!(games[0].1.len(), 2, "{third:?}");
    assert!(third.body["started_at"].is_string(), "{third:?}");
    let late = play::player(&app.pool, "late");
    let full = post(
        &app,
        &format!("/v1/tournaments/{id}/join"),
        &late,
        json!({}),
    )
    .await;
    assert_eq!((full.status, full.error_code()), (409, "entry_closed"));
    // Each player of the game is mailed (as with Start now): a mail other than the
    // invitation.
    for name in &games[0].1 {
        let to = format!("{name}@example.org");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !app
            .smtp
            .messages_to(&to)
            .iter()
            .any(|m| !m.data.contains("Tournament invitation"))
        {
            assert!(std::time::Instant::now() < deadline, "no game mail to {to}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
}

/// Without "start when full" (asked off, or an event without invitations) a full field waits
/// for its window and refuses more entries; asked for without a maximum, it is refused.
async fn without_start_when_full_a_full_field_waits(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 3_600_000).await;
    let field = play::numbered_players(&app.pool, "w", 4);
    let (at, closes_at) = closes();
    let no_maximum = post(
        &app,
        "/v1/tournaments",
        &field[0].1,
        json!({"name": "Endless", "kind": "kefren", "format": "round_robin",
               "entry_closes_at": at, "start_when_full": true}),
    )
    .await;
    assert_eq!(
        (no_maximum.status, no_maximum.error_code()),
        (422, "invalid_tournament"),
        "{no_maximum:?}"
    );
    let asked_off = create(
        &app,
        &field[0].1,
        json!({"name": "Waits", "kind": "kefren", "format": "round_robin",
               "entry_closes_at": at, "max_players": 3, "invite": ["w2", "w3"],
               "start_when_full": false}),
    )
    .await;
    let open = create(
        &app,
        &field[0].1,
        json!({"name": "Open", "kind": "kefren", "format": "round_robin",
               "entry_closes_at": at, "max_players": 3}),
    )
    .await;
    for id in [asked_off, open] {
        join_all(&app, id, &field[..3]).await;
        let view = show(&app, id, &field[0].1).await;
        assert_eq!(view["start_when_full"], false, "{view}");
        assert_eq!(view["status"], "entry", "{view}");
        assert_eq!(view["round_games"], json!([]), "{view}");
        let fourth = post(
            &app,
            &format!("/v1/tournaments/{id}/join"),
            &field[3].1,
            json!({}),
        )
        .await;
        assert_eq!(
            (fourth.status, fourth.error_code()),
            (409, "tournament_full")
        );
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(show(&app, open, &field[0].1).await["status"], "entry");
    sweep(&app, closes_at + Duration::minutes(1));
    for id in [asked_off, open] {
        let view = show(&app, id, &field[0].1).await;
        assert_eq!(view["status"], "running", "{view}");
        assert_eq!(running(&view).len(), 1, "{view}");
    }
}

/// The organiser's "Start now" (issue 47): refused below the minimum and to anyone else; then
/// round 1 of a Swiss is paired at once, long before its entries would close, and each
/// entrant is mailed their game.
async fn the_organiser_starts_a_swiss_early(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 3_600_000).await;
    let field = play::numbered_players(&app.pool, "e", 4);
    let (at, _) = closes();
    let id = create(
        &app,
        &field[0].1,
        json!({"name": "Early", "kind": "kefren", "format": "swiss", "rounds": 2,
               "entry_closes_at": at}),
    )
    .await;
    let path = format!("/v1/tournaments/{id}/start");
    join_all(&app, id, &field[..1]).await;
    let too_few = post(&app, &path, &field[0].1, json!({})).await;
    assert_eq!(
        (too_few.status, too_few.error_code()),
        (409, "too_few_entrants"),
        "{too_few:?}"
    );
    let says = too_few.body["error"]["message"].as_str().unwrap();
    assert!(says.contains("1 entered"), "{says}");
    join_all(&app, id, &field[1..]).await;
    let not_yours = post(&app, &path, &field[1].1, json!({})).await;
    assert_eq!(
        (not_yours.status, not_yours.error_code()),
        (403, "not_organiser"),
        "{not_yours:?}"
    );
    assert_eq!(show(&app, id, &field[0].1).await["status"], "entry");

    let started = post(&app, &path, &field[0].1, json!({})).await;
    assert_eq!(started.status, 200, "{started:?}");
    let clock = std::time::Instant::now();
    loop {
        let view = show(&app, id, &field[0].1).await;
        if view["status"] == "running" {
            assert_eq!(view["current_round"], 1, "{view}");
            assert_eq!(running(&view).len(), 2, "four entrants, two games: {view}");
            break;
        }
        assert!(
            clock.elapsed() < std::time::Duration::from_secs(10),
            "the tournament did not start within 10 s of Start now: {view}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let again = post(&app, &path, &field[0].1, json!({})).await;
    assert_eq!(
        (again.status, again.error_code()),
        (409, "entry_closed"),
        "{again:?}"
    );
    for (name, _) in &field {
        let to = format!("{name}@example.org");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while app.smtp.messages_to(&to).is_empty() {
            assert!(std::time::Instant::now() < deadline, "no mail to {to}");
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
}

/// Deadlines in words (issue 47): the invitation says when entries close in the invitee's
/// zone ("Sun 29 Nov, 10:29 (in 59 min)"), the page says it to a signed-out reader in UTC,
/// said so, with the machine-readable time in `<time datetime>`; neither shows the raw
/// RFC 3339 text.
async fn times_read_in_words_on_the_page_and_in_the_invitation(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 3_600_000).await;
    let anna = play::player(&app.pool, "anna");
    let bob = play::player(&app.pool, "bob");
    let zone = common::patch(
        &app,
        "/v1/me/notifications",
        &bob,
        json!({"time_zone": "America/New_York"}),
    )
    .await;
    assert_eq!(zone.status, 200, "{zone:?}");
    let (at, closes_at) = closes();
    let id = create(
        &app,
        &anna,
        json!({"name": "Words", "kind": "kefren", "format": "round_robin",
               "entry_closes_at": at, "invite": ["bob"]}),
    )
    .await;
    let stored = show(&app, id, &anna).await["entry_closes_at"]
        .as_str()
        .unwrap()
        .to_owned();
    let new_york = closes_at
        .and_utc()
        .with_timezone(&chrono_tz::America::New_York)
        .format("%a %-d %b, %H:%M")
        .to_string();
    let invitation = mail_saying(&app, "bob@example.org", "Tournament invitation").await;
    assert!(
        invitation.contains(&format!("Entries close {new_york} (in ")),
        "{invitation}"
    );
    assert!(!invitation.contains(&stored), "{invitation}");
    assert!(!invitation.contains("UTC"), "{invitation}");

    let page = app
        .http
        .get(format!("{}/tournaments/{id}", app.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let utc = closes_at.format("%a %-d %b, %H:%M UTC (in ").to_string();
    assert!(
        page.contains(&format!("<time datetime=\"{stored}\">{utc}")),
        "{page}"
    );
    assert!(page.contains("Times are in UTC"), "{page}");
    assert!(!page.contains(&format!(">{stored}")), "{page}");
}
