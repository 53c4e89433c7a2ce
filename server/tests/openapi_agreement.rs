//! The OpenAPI document and the server agree where a schema-driven client found them apart: a
//! query parameter the document called a free string that the server reads as a name (an
//! empty `?kind=` was refused), and a body the document calls an object that the server also
//! read from an array (`"categories": [null, null]` was accepted as a patch of nothing).
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
