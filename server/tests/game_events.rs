//! Game events and their mail: a write records an event and queues no mail itself; composing
//! an event later shows the game as it was at the event, and each event's mail is queued once
//! however many composers run. Storage-level, on both backends, with no server running (so no
//! mail worker composes behind the test's back).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;

use std::sync::Arc;

use common::{Backend, TestDb};
use turnpost_server::accounts::MailContext;
use turnpost_server::db::outbox::OutboxMail;
use turnpost_server::db::{events, outbox, DbConnection, Pool};
use turnpost_server::games::{challenge, moving, reads, Actor};
use turnpost_server::mail::StoredParts;
use turnpost_server::notify;
use turnpost_server::preferences::unsubscribe;
use turnpost_server::worker_threads::overdue_catch_up::CatchUp;
use turnpost_shared::api::{CreateGameRequest, GameView, PlayMoveRequest};
use turnpost_shared::GameKind;

both_backends!(
    a_move_answers_its_last_moves_and_records_one_event,
    mail_shows_the_game_at_its_event,
    two_composers_queue_each_events_mail_once,
    many_composers_and_the_catch_up_compose_each_event_once,
    the_catch_up_composes_only_overdue_events,
    an_unreadable_event_holds_back_no_other_games_mail,
    an_unreadable_event_in_a_batch_holds_back_no_other_games_mail,
    an_event_of_an_unknown_kind_holds_back_no_other_games_mail,
    composed_events_stay_in_the_log_until_every_consumer_passed_them
);

fn ctx(db: &TestDb, conn: &mut DbConnection) -> MailContext {
    MailContext {
        message_id_domain: "test.invalid".into(),
        public_url: "https://turnpost.test".into(),
        wake: Arc::new(tokio::sync::Notify::new()),
        link_key: unsubscribe::load_key(conn).unwrap().into(),
        reply: turnpost_server::inbound::ReplyKeys::load(conn, &db.config()).unwrap(),
    }
}

fn account(pool: &Pool, name: &str) -> Actor {
    play::player(pool, name);
    let mut conn = pool.get().unwrap();
    let found = turnpost_server::db::accounts::by_name_key(&mut conn, name)
        .unwrap()
        .unwrap();
    Actor::Account(found.id)
}

/// What every test here starts from: a fresh migrated database (the test's own connection
/// and a pool), the mail context, and two players.
struct Scene {
    pool: Pool,
    conn: DbConnection,
    ctx: MailContext,
    anna: Actor,
    bert: Actor,
    /// Dropped last (fields drop in order), after the connections to it.
    _db: TestDb,
}

fn scene(backend: Backend) -> Scene {
    let db = TestDb::create(backend);
    let (pool, mut conn) = common::migrated(&db);
    let ctx = ctx(&db, &mut conn);
    let (anna, bert) = (account(&pool, "anna"), account(&pool, "bert"));
    Scene {
        pool,
        conn,
        ctx,
        anna,
        bert,
        _db: db,
    }
}

/// A started Kefren game between anna (to move) and bert.
fn started_game(conn: &mut DbConnection, anna: Actor, bert: Actor) -> i64 {
    let request = CreateGameRequest {
        kind: GameKind::Kefren,
        options: Default::default(),
        seats: vec!["anna".into(), "bert".into()],
        clock: None,
        timeout: None,
        on_leave: None,
        rated: None,
    };
    let checked = challenge::check(conn, &anna, &request, challenge::BotGamesCap(5)).unwrap();
    let game = challenge::create(conn, &anna, &checked).unwrap();
    challenge::accept(conn, &bert, game.id, None).unwrap();
    game.id
}

/// Plays `n` moves, each a legal move of the seat to move.
fn play(conn: &mut DbConnection, players: [Actor; 2], id: i64, n: usize) {
    for _ in 0..n {
        play_first_legal(conn, players, id);
    }
}

/// Plays a legal move of the seat to move; answers the mover and the move's answer.
fn play_first_legal(conn: &mut DbConnection, players: [Actor; 2], id: i64) -> (Actor, GameView) {
    let view = reads::show(conn, &players[0], id).unwrap();
    let mover = players[usize::from(view.to_move.unwrap() - 1)];
    let view = reads::show(conn, &mover, id).unwrap();
    // Not always the first move: shuttling one piece would end the game by repetition.
    let legal = view.legal_moves.unwrap();
    let notation = legal[usize::try_from(view.ply * 7).unwrap() % legal.len()].clone();
    let request = PlayMoveRequest {
        notation,
        ply: view.ply,
        message: None,
    };
    (mover, moving::play(conn, &mover, id, &request).unwrap())
}

/// The mails that carry a move command: the turn cards (the start's mail to the first mover
/// included).
fn turn_cards(conn: &mut DbConnection) -> Vec<OutboxMail> {
    outbox::all(conn)
        .unwrap()
        .into_iter()
        .filter(|m| m.body_text.contains("--ply "))
        .collect()
}

/// A move's writes (its row, the game's state, its event) and the read of the last moves for
/// the answer: the answer shows the last ten moves, the new one last, exactly as a fresh read
/// does; one event per move. On PostgreSQL they are one statement, and it stays prepared.
async fn a_move_answers_its_last_moves_and_records_one_event(backend: Backend) {
    let mut s = scene(backend);
    let (anna, bert) = (s.anna, s.bert);
    let id = started_game(&mut s.conn, anna, bert);
    let waiting_at_start = events::waiting(&mut s.conn).unwrap();
    for n in 1..=12_u32 {
        let (mover, played) = play_first_legal(&mut s.conn, [anna, bert], id);
        assert_eq!(played.ply, n);
        let plies: Vec<u32> = played.last_moves.iter().map(|m| m.ply).collect();
        let expected: Vec<u32> = (n.saturating_sub(10)..n).collect();
        assert_eq!(plies, expected, "after move {n}");
        let fresh = reads::show(&mut s.conn, &mover, id).unwrap();
        assert_eq!(
            serde_json::to_value(&fresh.last_moves).unwrap(),
            serde_json::to_value(&played.last_moves).unwrap()
        );
        assert_eq!(fresh.position, played.position);
        assert_eq!(fresh.to_move, played.to_move);
        assert_eq!(
            events::waiting(&mut s.conn).unwrap(),
            waiting_at_start + i64::from(n)
        );
    }
    if let DbConnection::Pg(pg) = &mut s.conn {
        use diesel::RunQueryDsl;
        #[derive(diesel::QueryableByName)]
        struct Statement {
            #[diesel(sql_type = diesel::sql_types::Text)]
            statement: String,
        }
        let prepared: Vec<Statement> =
            diesel::sql_query("SELECT statement FROM pg_prepared_statements")
                .load(pg)
                .unwrap();
        let writes: Vec<&str> = prepared
            .iter()
            .map(|s| s.statement.as_str())
            .filter(|s| s.starts_with("WITH w0 AS (INSERT INTO \"moves\""))
            .collect();
        assert_eq!(writes.len(), 1, "{writes:#?}");
        assert!(writes[0].contains("UPDATE \"games\" SET"), "{}", writes[0]);
        assert!(
            writes[0].contains("INSERT INTO \"game_events\""),
            "{}",
            writes[0]
        );
    }
}

async fn mail_shows_the_game_at_its_event(backend: Backend) {
    let mut s = scene(backend);
    let (anna, bert) = (s.anna, s.bert);
    let id = started_game(&mut s.conn, anna, bert);
    play(&mut s.conn, [anna, bert], id, 3);
    assert!(
        outbox::all(&mut s.conn).unwrap().is_empty(),
        "the game's transactions queued mail themselves"
    );
    // Challenge, start, three moves.
    assert_eq!(events::waiting(&mut s.conn).unwrap(), 5);

    let mut composed = 0;
    while notify::compose_next(&mut s.conn, &s.ctx).unwrap() {
        composed += 1;
    }
    assert_eq!(composed, 5);
    assert_eq!(events::waiting(&mut s.conn).unwrap(), 0);
    assert!(!notify::compose_next(&mut s.conn, &s.ctx).unwrap());

    // The start's card (ply 0) and one per move, each at its own ply although all were
    // composed after the third move.
    let cards = turn_cards(&mut s.conn);
    let plies: Vec<u32> = cards.iter().map(ply_of).collect();
    assert_eq!(plies, [0, 1, 2, 3], "{cards:#?}");
    let to: Vec<&str> = cards.iter().map(|m| m.recipient.as_str()).collect();
    assert_eq!(
        to,
        [
            "anna@example.org",
            "bert@example.org",
            "anna@example.org",
            "bert@example.org"
        ]
    );
    // The boards differ card to card (each shows its position, not the current one).
    let boards: std::collections::BTreeSet<&str> = cards
        .iter()
        .map(|m| m.body_text.split("A B C").next().unwrap())
        .collect();
    assert_eq!(boards.len(), cards.len(), "{cards:#?}");
    // Composing holds a write transaction, so it leaves each picture as SVG for the session
    // that delivers the card to draw, outside any transaction.
    for card in &cards {
        let parts = StoredParts::from_json(card.parts.as_deref().unwrap()).unwrap();
        assert!(parts.needs_png(), "{}", card.id);
    }
}

async fn two_composers_queue_each_events_mail_once(backend: Backend) {
    const MOVES: usize = 30;
    let mut s = scene(backend);
    let (anna, bert) = (s.anna, s.bert);
    let id = started_game(&mut s.conn, anna, bert);
    play(&mut s.conn, [anna, bert], id, MOVES);
    let waiting = events::waiting(&mut s.conn).unwrap();
    assert_eq!(
        waiting,
        2 + i64::try_from(MOVES).unwrap(),
        "challenge, start, moves"
    );

    let composers: Vec<_> = (0..2)
        .map(|_| {
            let pool = s.pool.clone();
            let ctx = s.ctx.clone();
            std::thread::spawn(move || {
                let mut total = 0;
                loop {
                    let done = notify::compose_waiting(&pool, &ctx, 3).unwrap();
                    if done == 0 {
                        return total;
                    }
                    total += done;
                }
            })
        })
        .collect();
    let composed: i64 = composers
        .into_iter()
        .map(|c| i64::try_from(c.join().unwrap()).unwrap())
        .sum();
    assert_eq!(
        composed, waiting,
        "each event composed by exactly one composer"
    );
    assert_eq!(events::waiting(&mut s.conn).unwrap(), 0);

    // One card per turn, in the game's order (a game's events are composed one at a time).
    let cards = turn_cards(&mut s.conn);
    let plies: Vec<u32> = cards.iter().map(ply_of).collect();
    let expected: Vec<u32> = (0..=u32::try_from(MOVES).unwrap()).collect();
    assert_eq!(plies, expected);
}

/// The ply a turn card's move command names (`--ply N`).
fn ply_of(card: &OutboxMail) -> u32 {
    card.body_text
        .split("--ply ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|ply| ply.parse().ok())
        .unwrap_or_else(|| panic!("no --ply in the card:\n{}", card.body_text))
}

/// Runs one SQL statement on either backend.
fn execute(conn: &mut DbConnection, sql: &str) {
    use diesel::RunQueryDsl as _;
    match conn {
        DbConnection::Pg(pg) => diesel::sql_query(sql).execute(pg).unwrap(),
        DbConnection::Sqlite(sqlite) => diesel::sql_query(sql).execute(sqlite).unwrap(),
    };
}

/// Gives the first event of game `game` a position no engine can read (a hand-edited row, or
/// one written by a later version).
fn break_first_event(conn: &mut DbConnection, game: i64) {
    execute(
        conn,
        &format!(
            "UPDATE game_events SET position = 'not a position' WHERE id = \
             (SELECT MIN(id) FROM game_events WHERE game_id = {game})"
        ),
    );
}

async fn an_unreadable_event_holds_back_no_other_games_mail(backend: Backend) {
    let mut s = scene(backend);
    let (anna, bert) = (s.anna, s.bert);
    let broken = started_game(&mut s.conn, anna, bert);
    // The first event of the first game holds a position no engine can read.
    break_first_event(&mut s.conn, broken);
    let other = started_game(&mut s.conn, bert, anna);
    let mut rounds = 0;
    while notify::compose_next(&mut s.conn, &s.ctx).unwrap() {
        rounds += 1;
        assert!(rounds < 20, "composing never ends");
    }
    assert_eq!(events::waiting(&mut s.conn).unwrap(), 0);
    // The other game's start reached its first mover.
    let cards = turn_cards(&mut s.conn);
    let title = format!("Kefren #{other}:");
    assert!(
        cards
            .iter()
            .any(|m| m.recipient == "anna@example.org" && m.subject.starts_with(&title)),
        "{cards:#?}"
    );
}

/// The worker composes several events in one transaction; one it cannot read sends it back to
/// one event at a time, and every other game's mail is still queued (once).
async fn an_unreadable_event_in_a_batch_holds_back_no_other_games_mail(backend: Backend) {
    let mut s = scene(backend);
    let (anna, bert) = (s.anna, s.bert);
    let first = started_game(&mut s.conn, anna, bert);
    let broken = started_game(&mut s.conn, bert, anna);
    let last = started_game(&mut s.conn, anna, bert);
    break_first_event(&mut s.conn, broken);
    let mut rounds = 0;
    while notify::compose_waiting(&s.pool, &s.ctx, 8).unwrap() > 0 {
        rounds += 1;
        assert!(rounds < 20, "composing never ends");
    }
    assert_eq!(events::waiting(&mut s.conn).unwrap(), 0);
    let cards = turn_cards(&mut s.conn);
    // Anna moves first in all three; the broken game's first event (its challenge) is dropped,
    // its start (readable) still brings her turn card.
    for (game, to) in [(first, "anna"), (broken, "anna"), (last, "anna")] {
        let title = format!("Kefren #{game}:");
        let to = format!("{to}@example.org");
        assert_eq!(
            cards
                .iter()
                .filter(|m| m.recipient == to && m.subject.starts_with(&title))
                .count(),
            1,
            "{cards:#?}"
        );
    }
}

/// A stored kind the code does not know fails the read of the waiting events: the worker drops
/// those events (logged) and every other game's mail is still queued, once.
async fn an_event_of_an_unknown_kind_holds_back_no_other_games_mail(backend: Backend) {
    let mut s = scene(backend);
    let (anna, bert) = (s.anna, s.bert);
    let broken = started_game(&mut s.conn, anna, bert);
    let other = started_game(&mut s.conn, bert, anna);
    execute(
        &mut s.conn,
        &format!(
            "UPDATE game_events SET kind = 'a_later_kind' WHERE id = \
             (SELECT MAX(id) FROM game_events WHERE game_id = {broken})"
        ),
    );
    let mut rounds = 0;
    while notify::compose_waiting(&s.pool, &s.ctx, 8).unwrap() > 0 {
        rounds += 1;
        assert!(rounds < 20, "composing never ends");
    }
    assert_eq!(events::waiting(&mut s.conn).unwrap(), 0);
    let cards = turn_cards(&mut s.conn);
    let count = |game: i64| {
        let title = format!("Kefren #{game}:");
        cards
            .iter()
            .filter(|m| m.recipient == "anna@example.org" && m.subject.starts_with(&title))
            .count()
    };
    // The other game's start reached its first mover; the broken game's start was dropped.
    assert_eq!(count(other), 1, "{cards:#?}");
    assert_eq!(count(broken), 0, "{cards:#?}");
}

/// Composing on as many threads as a machine has, with the normal-priority catch-up composer
/// beside them (its bound so short that every event is overdue): every event of every game is
/// composed exactly once, and each game's turn cards are queued in the game's order.
async fn many_composers_and_the_catch_up_compose_each_event_once(backend: Backend) {
    const GAMES: usize = 6;
    const MOVES: usize = 12;
    const COMPOSERS: usize = 6;
    let mut s = scene(backend);
    let (anna, bert) = (s.anna, s.bert);
    let games: Vec<i64> = (0..GAMES)
        .map(|_| {
            let id = started_game(&mut s.conn, anna, bert);
            play(&mut s.conn, [anna, bert], id, MOVES);
            id
        })
        .collect();
    let waiting = events::waiting(&mut s.conn).unwrap();
    assert_eq!(
        waiting,
        i64::try_from(GAMES * (2 + MOVES)).unwrap(),
        "challenge, start, moves of each game"
    );

    let start = Arc::new(std::sync::Barrier::new(COMPOSERS + 1));
    let mut composers: Vec<_> = (0..COMPOSERS)
        .map(|_| {
            let (pool, ctx, start) = (s.pool.clone(), s.ctx.clone(), start.clone());
            std::thread::spawn(move || {
                start.wait();
                let mut total = 0;
                // Several empty rounds in a row: the others hold what is left, or it is done.
                let mut empty = 0;
                while empty < 50 {
                    match notify::compose_waiting(&pool, &ctx, 3).unwrap() {
                        0 => {
                            empty += 1;
                            std::thread::sleep(std::time::Duration::from_millis(2));
                        }
                        done => {
                            empty = 0;
                            total += done;
                        }
                    }
                }
                total
            })
        })
        .collect();
    let catch_up = CatchUp::after(std::time::Duration::from_millis(1)).unwrap();
    composers.push({
        let (pool, ctx, start) = (s.pool.clone(), s.ctx.clone(), start.clone());
        std::thread::spawn(move || {
            start.wait();
            let deliver = tokio::sync::Notify::new();
            let working = std::sync::atomic::AtomicBool::new(false);
            let mut total = 0;
            for _ in 0..20 {
                total +=
                    notify::compose_overdue(&pool, &ctx, catch_up, 2, &deliver, &working, &|| true)
                        .unwrap();
            }
            total
        })
    });
    let composed: Vec<usize> = composers.into_iter().map(|c| c.join().unwrap()).collect();
    assert_eq!(
        i64::try_from(composed.iter().sum::<usize>()).unwrap(),
        waiting,
        "each event composed by exactly one composer: {composed:?}"
    );
    assert_eq!(events::waiting(&mut s.conn).unwrap(), 0);

    let cards = turn_cards(&mut s.conn);
    let expected: Vec<u32> = (0..=u32::try_from(MOVES).unwrap()).collect();
    for game in games {
        let title = format!("Kefren #{game}:");
        let plies: Vec<u32> = cards
            .iter()
            .filter(|card| card.subject.starts_with(&title))
            .map(ply_of)
            .collect();
        assert_eq!(plies, expected, "game {game}: one card per turn, in order");
    }
}

/// The catch-up composer leaves events younger than its bound to the low-priority composers;
/// once the oldest is overdue it composes, oldest first, until the oldest left has waited less
/// than half the bound.
async fn the_catch_up_composes_only_overdue_events(backend: Backend) {
    use diesel::{ExpressionMethods as _, QueryDsl as _, RunQueryDsl as _};
    use turnpost_server::db::schema::game_events;
    let mut s = scene(backend);
    let (anna, bert) = (s.anna, s.bert);
    let old_game = started_game(&mut s.conn, anna, bert);
    play(&mut s.conn, [anna, bert], old_game, 3);
    let fresh_game = started_game(&mut s.conn, bert, anna);
    let catch_up = CatchUp::after(std::time::Duration::from_secs(10)).unwrap();
    let deliver = tokio::sync::Notify::new();

    let working = std::sync::atomic::AtomicBool::new(false);
    let composed =
        notify::compose_overdue(&s.pool, &s.ctx, catch_up, 8, &deliver, &working, &|| true)
            .unwrap();
    assert_eq!(composed, 0, "nothing has waited 10 s yet");
    assert_eq!(events::waiting(&mut s.conn).unwrap(), 2 + 3 + 2);

    // The first game's events happened a minute ago.
    let a_minute_ago = turnpost_server::db::now() - chrono::Duration::seconds(60);
    diesel::update(game_events::table.filter(game_events::game_id.eq(old_game)))
        .set(game_events::created_at.eq(a_minute_ago))
        .execute(&mut s.conn)
        .unwrap();
    assert_eq!(
        events::oldest_waiting_at(&mut s.conn).unwrap(),
        Some(a_minute_ago)
    );
    let stopping =
        notify::compose_overdue(&s.pool, &s.ctx, catch_up, 1, &deliver, &working, &|| false)
            .unwrap();
    assert_eq!(stopping, 0, "shutting down: no new round");
    // One event per round, so the test sees exactly where it stops (a round of several takes
    // the oldest few, whatever their age).
    let composed =
        notify::compose_overdue(&s.pool, &s.ctx, catch_up, 1, &deliver, &working, &|| true)
            .unwrap();
    assert_eq!(composed, 2 + 3, "the overdue game's events, and only those");
    assert!(
        !working.load(std::sync::atomic::Ordering::Relaxed),
        "done: the low-priority composers take whole batches again"
    );
    let left_at = events::oldest_waiting_at(&mut s.conn).unwrap().unwrap();
    assert!(
        turnpost_server::worker_threads::overdue_catch_up::age_since(left_at)
            < catch_up.stop_below()
    );
    let cards = turn_cards(&mut s.conn);
    assert_eq!(cards.len(), 1 + 3, "the start's card and one per move");
    let fresh = format!("Kefren #{fresh_game}:");
    assert!(cards.iter().all(|card| !card.subject.starts_with(&fresh)));
}

/// The log keeps every event after its mail is composed, and reads in order from any position;
/// pruning takes only events whose mail is composed, older than the retention, and behind every
/// stored consumer position.
async fn composed_events_stay_in_the_log_until_every_consumer_passed_them(backend: Backend) {
    let mut s = scene(backend);
    let (anna, bert) = (s.anna, s.bert);
    let id = started_game(&mut s.conn, anna, bert);
    play(&mut s.conn, [anna, bert], id, 6);
    // On PostgreSQL an event is read once every older transaction of the cluster has ended
    // (other tests' included): wait for that rather than assume it.
    let all = |conn: &mut DbConnection| {
        let mut read = Vec::new();
        for _ in 0..100 {
            read = events::read_after(conn, Default::default(), events::LogFilter::Game(id), 100)
                .unwrap();
            let newest = events::newest_id(conn).unwrap();
            if read.last().is_some_and(|row| row.id == newest) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        read
    };
    let logged = all(&mut s.conn);
    assert_eq!(logged.len(), 8, "challenge, start, six moves");
    // Mail not composed yet: nothing may be pruned, however old.
    let later = turnpost_server::db::now() + chrono::Duration::hours(1);
    assert_eq!(events::prune(&mut s.conn, later, 100).unwrap(), 0);
    while notify::compose_waiting(&s.pool, &s.ctx, 8).unwrap() > 0 {}
    assert_eq!(events::waiting(&mut s.conn).unwrap(), 0);
    assert_eq!(all(&mut s.conn).len(), 8, "composing deleted events");
    // Within the retention: kept.
    let earlier = turnpost_server::db::now() - chrono::Duration::hours(1);
    assert_eq!(events::prune(&mut s.conn, earlier, 100).unwrap(), 0);
    // A consumer that has read only the first three holds back the rest.
    let third = logged[2].position();
    events::advance_cursor(
        &mut s.conn,
        "test-consumer",
        third,
        turnpost_server::db::now(),
    )
    .unwrap();
    assert_eq!(events::prune(&mut s.conn, later, 100).unwrap(), 3);
    let left = all(&mut s.conn);
    assert_eq!(left.len(), 5);
    assert!(left.iter().all(|row| row.position() > third));
    // Read from a position: exactly what follows it (all settled: `all` waited).
    let after =
        events::read_after(&mut s.conn, left[1].position(), events::LogFilter::All, 100).unwrap();
    assert_eq!(
        after.iter().map(|row| row.id).collect::<Vec<_>>(),
        left[2..].iter().map(|row| row.id).collect::<Vec<_>>()
    );
    // A consumer's place taken at start-up: a new one at the log's end, after which nothing
    // stands to be read; one with a position keeps it.
    events::LogConsumer::new("late-consumer")
        .take_place(&mut s.conn)
        .unwrap();
    let placed = events::cursor(&mut s.conn, "late-consumer")
        .unwrap()
        .expect("placed");
    assert!(placed >= left[left.len() - 1].position(), "{placed:?}");
    assert!(
        events::read_after(&mut s.conn, placed, events::LogFilter::All, 10)
            .unwrap()
            .is_empty()
    );
    events::LogConsumer::new("test-consumer")
        .take_place(&mut s.conn)
        .unwrap();
    assert_eq!(
        events::cursor(&mut s.conn, "test-consumer").unwrap(),
        Some(third),
        "a position is never moved by taking a place"
    );
}
