//! The OpenAPI document and the server agree where a schema-driven client found them apart: a
//! query parameter the document called a free string that the server reads as a name (an
//! empty `?kind=` was refused), and a body the document calls an object that the server also
//! read from an array (`"categories": [null, null]` was accepted as a patch of nothing), a
//! whole number written as `10.0` (an integer to JSON Schema, refused by serde), and plies past
//! the document's `int32` maximum.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;

use common::{get, patch, Backend, TestApp};
use serde_json::{json, Value};

both_backends!(
    the_kind_filter_takes_what_the_document_lists,
    category_switches_are_an_object_only,
    muting_a_game_there_is_not_is_not_found,
    whole_numbers_written_as_floats_are_integers,
    integer_queries_end_where_the_document_says,
    tournament_names_are_judged_as_sent,
);

/// The OpenAPI document as served.
async fn document(app: &TestApp) -> Value {
    let doc = app.get("/v1/openapi.json", None).await;
    assert_eq!(doc.status, 200);
    doc.body
}

/// `schema`, or the component it refers to.
fn resolved<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.rsplit('/').next().unwrap();
            &doc["components"]["schemas"][name]
        }
        None => schema,
    }
}

async fn the_kind_filter_takes_what_the_document_lists(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let bob = play::player(&app.pool, "bob");
    let doc = document(&app).await;
    let parameters = doc["paths"]["/v1/challenges"]["get"]["parameters"]
        .as_array()
        .unwrap();
    let kind = parameters.iter().find(|p| p["name"] == "kind").unwrap();
    assert_eq!(kind["in"], "query");
    assert_ne!(kind["required"], true);
    let schema = resolved(&doc, &kind["schema"]);
    let names: Vec<&str> = schema["enum"]
        .as_array()
        .unwrap_or_else(|| panic!("kind is documented as a free string: {schema}"))
        .iter()
        .map(|name| name.as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"kefren") && !names.contains(&""),
        "{names:?}"
    );

    // Every listed name is taken, and what the document does not list is refused, an empty
    // value too, with a message naming the parameter and the names.
    for name in &names {
        let answer = get(&app, &format!("/v1/challenges?kind={name}"), &bob).await;
        assert_eq!(answer.status, 200, "{name}: {answer:?}");
    }
    assert_eq!(get(&app, "/v1/challenges", &bob).await.status, 200);
    for refused in ["", "chess"] {
        let answer = get(&app, &format!("/v1/challenges?kind={refused}"), &bob).await;
        assert_eq!(
            (answer.status, answer.error_code()),
            (400, "bad_query"),
            "kind={refused}: {answer:?}"
        );
        let message = answer.body["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("kind={refused}:")) && message.contains("kefren"),
            "{message}"
        );
    }
}

async fn category_switches_are_an_object_only(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = play::player(&app.pool, "cleo");
    let doc = document(&app).await;
    let operation = &doc["paths"]["/v1/me/notifications"]["patch"];
    let body = resolved(
        &doc,
        &operation["requestBody"]["content"]["application/json"]["schema"],
    );
    let categories = &body["properties"]["categories"];
    // An object (the switches), possibly through `oneOf` with null: never an array.
    let documented = categories.to_string();
    assert!(
        documented.contains("CategoriesPatch") && !documented.contains("\"array\""),
        "{documented}"
    );

    let before = get(&app, "/v1/me/notifications", &token).await.body;
    let arrays = [json!([null, null]), json!([false, false, false]), json!([])];
    for (field, array) in ["categories", "webhooks"]
        .into_iter()
        .flat_map(|field| arrays.iter().map(move |array| (field, array)))
    {
        let answer = patch(
            &app,
            "/v1/me/notifications",
            &token,
            json!({ field: array }),
        )
        .await;
        assert_eq!(
            (answer.status, answer.error_code()),
            (422, "invalid_field"),
            "{field}: {array}: {answer:?}"
        );
        assert!(
            operation["responses"].get("422").is_some(),
            "the refusal is documented"
        );
        let message = answer.body["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("sequence") && message.contains("object of switches"),
            "{message}"
        );
    }
    assert_eq!(get(&app, "/v1/me/notifications", &token).await.body, before);

    // An object still switches; null and an empty object change nothing.
    for unchanged in [json!({"categories": null}), json!({"categories": {}})] {
        let answer = patch(&app, "/v1/me/notifications", &token, unchanged.clone()).await;
        assert_eq!(answer.status, 200, "{unchanged}: {answer:?}");
        assert_eq!(answer.body, before);
    }
    let switched = patch(
        &app,
        "/v1/me/notifications",
        &token,
        json!({"categories": {"reminders": false}}),
    )
    .await;
    assert_eq!(switched.status, 200, "{switched:?}");
    assert_eq!(switched.body["categories"]["reminders"], false);
    assert_eq!(switched.body["categories"]["game_over"], true);
}

/// A game id the document allows (any integer) that names no game: 404, as for every other
/// reference to something that is not there; a game without the caller's seat stays 422.
async fn muting_a_game_there_is_not_is_not_found(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = play::player(&app.pool, "cleo");
    let answer = patch(
        &app,
        "/v1/me/notifications",
        &token,
        json!({"mute": [9_223_372_036_854_775_806_i64]}),
    )
    .await;
    assert_eq!(answer.status, 404, "{answer:?}");
    let message = answer.body["error"]["message"].as_str().unwrap();
    assert!(message.contains("no game 9223372036854775806"), "{message}");
    let doc = document(&app).await;
    let answers = &doc["paths"]["/v1/me/notifications"]["patch"]["responses"];
    assert!(answers.get("404").is_some(), "{answers}");
}

/// A Kefren challenge from anna (`token`) to bert; its id.
async fn challenge_to_bert(app: &TestApp, token: &str) -> i64 {
    let game = common::post(
        app,
        "/v1/games",
        token,
        json!({"kind": "kefren", "options": {}, "seats": ["anna", "bert"]}),
    )
    .await;
    assert_eq!(game.status, 201, "{game:?}");
    game.body["id"].as_i64().unwrap()
}

/// JSON Schema counts `10.0` as an integer: the server takes it where a field is one, and
/// still refuses a fraction, naming the field.
async fn whole_numbers_written_as_floats_are_integers(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let answer = common::post(&app, "/v1/me/vacation", &anna, json!({"days": 2.0})).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.body["days_used"], 2, "{answer:?}");
    let answer = patch(
        &app,
        "/v1/me/notifications",
        &anna,
        json!({"digest_hour": 7.0}),
    )
    .await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.body["digest_hour"], 7);
    let answer = patch(
        &app,
        "/v1/me/notifications",
        &anna,
        json!({"digest_hour": 7.5}),
    )
    .await;
    assert_eq!(answer.status, 422, "{answer:?}");
    let message = answer.body["error"]["message"].as_str().unwrap();
    assert!(message.contains("`digest_hour`"), "{message}");
    let id = challenge_to_bert(&app, &anna).await;
    let accepted = common::post(&app, &format!("/v1/games/{id}/accept"), &bert, json!({})).await;
    assert_eq!(accepted.status, 200, "{accepted:?}");
    let view = get(&app, &format!("/v1/games/{id}"), &anna).await;
    let legal = view.body["legal_moves"][0].as_str().unwrap().to_owned();
    let played = common::post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &anna,
        json!({"move": legal, "ply": 0.0}),
    )
    .await;
    assert_eq!(played.status, 201, "{played:?}");
    assert_eq!(played.body["ply"], 1, "{played:?}");
    let stale = common::post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &bert,
        json!({"move": legal, "ply": 1.25}),
    )
    .await;
    assert_eq!(stale.status, 422, "{stale:?}");
    let message = stale.body["error"]["message"].as_str().unwrap();
    assert!(message.contains("`ply`"), "{message}");
}

/// Unsigned query numbers are documented with the maximum the server reads (a u32's), not as
/// `int32` (whose maximum the server went past, answering 200); past it: 400.
async fn integer_queries_end_where_the_document_says(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    play::player(&app.pool, "bert");
    let doc = document(&app).await;
    for (path, name) in [
        ("/v1/games/{id}/moves", "before"),
        ("/v1/games/{id}/moves", "after"),
        ("/v1/ratings/{kind}", "offset"),
        ("/v1/tournaments/{id}", "round"),
    ] {
        let parameters = doc["paths"][path]["get"]["parameters"].as_array().unwrap();
        let parameter = parameters.iter().find(|p| p["name"] == name).unwrap();
        let schema = &parameter["schema"];
        assert_eq!(
            schema["maximum"], 4_294_967_295_u64,
            "{path} {name}: {schema}"
        );
        assert_ne!(schema["format"], "int32", "{path} {name}: {schema}");
    }
    let id = challenge_to_bert(&app, &anna).await;
    let at_most = get(
        &app,
        &format!("/v1/games/{id}/moves?before=4294967295"),
        &anna,
    )
    .await;
    assert_eq!(at_most.status, 200, "{at_most:?}");
    let past = get(
        &app,
        &format!("/v1/games/{id}/moves?before=4294967296"),
        &anna,
    )
    .await;
    assert_eq!(past.status, 400, "{past:?}");
    assert_eq!(past.body["error"]["code"], "bad_query", "{past:?}");
}

/// A tournament's name is at most 80 characters as sent (the document's `maxLength`), and
/// names something only with a character that shows (the document's pattern): an 81-character
/// name whose control character would be dropped is still too long; white space and hidden
/// characters alone are no name.
async fn tournament_names_are_judged_as_sent(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let doc = document(&app).await;
    let name = &doc["components"]["schemas"]["CreateTournamentRequest"]["properties"]["name"];
    assert_eq!(name["maxLength"], 80, "{name}");
    let pattern = name["pattern"].as_str().unwrap();
    let shows = regex::Regex::new(pattern).unwrap();
    let at = (chrono::Utc::now() + chrono::Duration::hours(1))
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    let create = |name: String| {
        let body = json!({"name": name, "kind": "kefren", "format": "swiss", "rounds": 3,
                          "entry_closes_at": at});
        common::post(&app, "/v1/tournaments", &anna, body)
    };
    for (name, status) in [
        (format!("{}\u{7}", "a".repeat(80)), 422),
        (" \u{200b}\t\u{202e} ".to_owned(), 422),
        (String::new(), 422),
        (format!("  {}  ", "a".repeat(76)), 201),
        ("Winter\u{200b} Kefren".to_owned(), 201),
    ] {
        assert_eq!(
            shows.is_match(&name) && name.chars().count() <= 80,
            status == 201,
            "the document and the server disagree on {name:?}"
        );
        let answer = create(name.clone()).await;
        assert_eq!(answer.status, status, "{name:?}: {answer:?}");
    }
}
