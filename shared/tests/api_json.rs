//! The JSON of the game views is a contract with every client: these literals are what the
//! server wrote before the states were typed, and the typed views must write them unchanged.

#![allow(clippy::unwrap_used, reason = "tests")]

use turnpost_shared::api::{GameSummary, GameView, MoveView, SeatView};
use turnpost_shared::play::{GameResult, GameStatus, OnLeave, ResultReason, TimeoutMode};
use turnpost_shared::GameKind;

/// A finished three-seat game, as `GET /v1/games/{id}` wrote it.
const FINISHED_VIEW: &str = r#"{"id":42,"kind":"kefren","options":{"players":"3"},"clock":"3d","timeout":"claim","on_leave":"bot","deadline":null,"claimable":false,"seats":[{"seat":1,"seat_name":"White (seat 1)","player":"anna","accepted":true,"bank_seconds":null},{"seat":2,"seat_name":"Black (seat 2)","player":"bob","accepted":true,"bank_seconds":null,"played_by":"bot-3"},{"seat":3,"seat_name":"Red (seat 3)","player":"cleo","accepted":true,"bank_seconds":86400}],"status":"finished","result":"won 1 3","result_reason":"resignation","ply":12,"to_move":null,"your_seat":1,"your_turn":false,"draw_offered_by":null,"position":"p","board":"b","last_moves":[{"ply":11,"seat":3,"move":"F2-F3","played_at":"2026-11-22T01:02:03Z","automatic":false,"prepared":false}],"legal_moves":null,"created_at":"2026-11-20T00:00:00Z","expires_at":null,"started_at":"2026-11-21T00:00:00Z","finished_at":"2026-11-22T01:02:03Z","last_activity_at":"2026-11-22T01:02:03Z","departed":[2],"placings":[1,3,2],"rated":true}"#;

/// An active game in a listing.
const ACTIVE_SUMMARY: &str = r#"{"id":7,"kind":"chinese-checkers","status":"active","seats":[],"ply":3,"to_move":2,"your_turn":true,"deadline":"2026-11-25T00:00:00Z","result":null,"last_activity_at":"2026-11-22T01:02:03Z"}"#;

fn seat(seat: u8, seat_name: &str, player: &str) -> SeatView {
    SeatView {
        seat,
        seat_name: seat_name.to_owned(),
        player: player.to_owned(),
        accepted: true,
        bank_seconds: None,
        played_by: None,
        open: false,
        rating: None,
        engine: false,
    }
}

fn finished_view() -> GameView {
    GameView {
        id: 42,
        kind: GameKind::Kefren,
        options: [("players".to_owned(), "3".to_owned())].into(),
        seed_sha256: None,
        clock: Some("3d".to_owned()),
        timeout: TimeoutMode::Claim,
        on_leave: OnLeave::Bot,
        deadline: None,
        claimable: false,
        seats: vec![
            seat(1, "White (seat 1)", "anna"),
            SeatView {
                played_by: Some("bot-3".to_owned()),
                ..seat(2, "Black (seat 2)", "bob")
            },
            SeatView {
                bank_seconds: Some(86_400),
                ..seat(3, "Red (seat 3)", "cleo")
            },
        ],
        status: GameStatus::Finished,
        result: Some(GameResult::won([3, 1])),
        result_reason: Some(ResultReason::Resignation),
        ply: 12,
        to_move: None,
        your_seat: Some(1),
        your_turn: false,
        draw_offered_by: None,
        position: "p".to_owned(),
        board: "b".to_owned(),
        last_moves: vec![MoveView {
            ply: 11,
            seat: 3,
            notation: "F2-F3".to_owned(),
            played_at: "2026-11-22T01:02:03Z".to_owned(),
            automatic: false,
            prepared: false,
        }],
        legal_moves: None,
        created_at: "2026-11-20T00:00:00Z".to_owned(),
        expires_at: None,
        started_at: Some("2026-11-21T00:00:00Z".to_owned()),
        finished_at: Some("2026-11-22T01:02:03Z".to_owned()),
        last_activity_at: "2026-11-22T01:02:03Z".to_owned(),
        draw_accepted_by: Vec::new(),
        departed: vec![2],
        placings: Some(vec![1, 3, 2]),
        rated: true,
        rating_changes: None,
    }
}

fn active_summary() -> GameSummary {
    GameSummary {
        id: 7,
        kind: GameKind::ChineseCheckers,
        status: GameStatus::Active,
        seats: Vec::new(),
        ply: 3,
        to_move: Some(2),
        your_turn: true,
        deadline: Some("2026-11-25T00:00:00Z".to_owned()),
        result: None,
        last_activity_at: "2026-11-22T01:02:03Z".to_owned(),
        departed: Vec::new(),
        placings: None,
        challenger: None,
    }
}

#[test]
fn game_views_write_the_same_json() {
    assert_eq!(
        serde_json::to_string(&finished_view()).unwrap(),
        FINISHED_VIEW
    );
    assert_eq!(
        serde_json::to_string(&active_summary()).unwrap(),
        ACTIVE_SUMMARY
    );
}

#[test]
fn game_views_read_back_what_they_write() {
    assert_eq!(
        serde_json::from_str::<GameView>(FINISHED_VIEW).unwrap(),
        finished_view()
    );
    assert_eq!(
        serde_json::from_str::<GameSummary>(ACTIVE_SUMMARY).unwrap(),
        active_summary()
    );
}

#[test]
fn every_state_keeps_its_json_name() {
    for (status, name) in
        GameStatus::ALL
            .into_iter()
            .zip(["invited", "active", "finished", "cancelled"])
    {
        let json = ACTIVE_SUMMARY.replace(r#""status":"active""#, &format!(r#""status":"{name}""#));
        let summary: GameSummary = serde_json::from_str(&json).unwrap();
        assert_eq!(summary.status, status);
        assert_eq!(serde_json::to_string(&summary).unwrap(), json);
    }
    let names = [
        "rules",
        "resignation",
        "agreement",
        "timeout",
        "declined",
        "expired",
        "repetition",
        "move_limit",
    ];
    for (reason, name) in ResultReason::ALL.into_iter().zip(names) {
        let json = FINISHED_VIEW.replace(
            r#""result_reason":"resignation""#,
            &format!(r#""result_reason":"{name}""#),
        );
        let view: GameView = serde_json::from_str(&json).unwrap();
        assert_eq!(view.result_reason, Some(reason));
        assert_eq!(serde_json::to_string(&view).unwrap(), json);
    }
    for (result, text) in [
        (GameResult::draw(), "draw"),
        (GameResult::won([2]), "won 2"),
        (GameResult::won([1, 3]), "won 1 3"),
    ] {
        let json = FINISHED_VIEW.replace(r#""result":"won 1 3""#, &format!(r#""result":"{text}""#));
        let view: GameView = serde_json::from_str(&json).unwrap();
        assert_eq!(view.result, Some(result));
        assert_eq!(serde_json::to_string(&view).unwrap(), json);
    }
}

#[test]
fn unknown_states_are_refused_with_what_was_expected() {
    for (from, to, message) in [
        (
            r#""status":"finished""#,
            r#""status":"over""#,
            "unknown game status `over`: expected one of `invited`, `active`, `finished`, \
             `cancelled`",
        ),
        (
            r#""result":"won 1 3""#,
            r#""result":"won by 1""#,
            "unreadable game result `won by 1`: expected `draw` or `won` and seat numbers",
        ),
        (
            r#""result":"won 1 3""#,
            r#""result":"won""#,
            "unreadable game result `won`",
        ),
        (
            r#""result_reason":"resignation""#,
            r#""result_reason":"forfeit""#,
            "unknown result reason `forfeit`: expected one of `rules`, `resignation`",
        ),
    ] {
        let json = FINISHED_VIEW.replace(from, to);
        assert_ne!(json, FINISHED_VIEW);
        let error = serde_json::from_str::<GameView>(&json)
            .unwrap_err()
            .to_string();
        assert!(error.starts_with(message), "{error}");
    }
    let error = serde_json::from_str::<GameSummary>(
        &ACTIVE_SUMMARY.replace(r#""status":"active""#, r#""status":"playing""#),
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.starts_with("unknown game status `playing`"),
        "{error}"
    );
    // Names are read in any case (the rule of every named value), and written in lower case.
    let json = FINISHED_VIEW.replace(r#""status":"finished""#, r#""status":"Finished""#);
    let view: GameView = serde_json::from_str(&json).unwrap();
    assert_eq!(serde_json::to_string(&view).unwrap(), FINISHED_VIEW);
}
