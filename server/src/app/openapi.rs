//! The generated OpenAPI document (served at `/v1/openapi.json` and browsable at `/docs`).
//!
//! The schemas come from the API types themselves (`turnpost-shared`'s `openapi` feature, off in
//! its default build), gathered from the bodies of the routes in the route table
//! (`crate::http::route_table`); the paths from the handlers' annotations. `CommonAnswers` adds the
//! answers every route can give whatever it does (401, 400/413/415/422 for bodies, 404 for ids,
//! 405, 503), so the document lists every status the server answers.

use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::schema::{Schema, SchemaType, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response, ResponseBuilder};
use utoipa::{Modify, OpenApi};

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("tp_…")
                    .build(),
            ),
        );
        // The browser's session cookie: what the live pages' own stream is opened with.
        components.add_security_scheme(
            "session",
            SecurityScheme::ApiKey(utoipa::openapi::security::ApiKey::Cookie(
                utoipa::openapi::security::ApiKeyValue::with_description(
                    crate::web::SESSION_COOKIE,
                    "A signed-in browser's session (set by the pages' sign-in)",
                ),
            )),
        );
    }
}

/// Adds to every operation the error answers the server gives before or around its handler:
/// a missing or bad token (401, secured routes), an unreadable body (400 bad JSON, 413 too
/// large, 415 not JSON, 422 a field of the wrong type), an id that is not a number or not
/// there (404), a method the path does not take (405), an unreachable database (503).
struct CommonAnswers;

impl CommonAnswers {
    fn error(description: &str) -> RefOr<Response> {
        RefOr::T(
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("ErrorBody")))
                        .build(),
                )
                .build(),
        )
    }

    fn add(operation: &mut Operation) {
        let secured = operation
            .security
            .as_ref()
            .is_some_and(|requirements| !requirements.is_empty());
        let has_body = operation.request_body.is_some();
        let parameters = operation.parameters.as_deref().unwrap_or_default();
        let has_path = parameters
            .iter()
            .any(|p| p.parameter_in == ParameterIn::Path);
        let has_query = parameters
            .iter()
            .any(|p| p.parameter_in == ParameterIn::Query);
        let mut answers = vec![
            (
                "405",
                "The path does not take this method (`Allow` names those it does)",
            ),
            ("503", "The database is unreachable"),
        ];
        if secured {
            answers.push(("401", "No valid `Authorization: Bearer tp_…` token"));
        }
        if has_body {
            answers.push(("400", "The body is not valid JSON"));
            answers.push(("413", "The body is larger than 16 KiB"));
            answers.push(("415", "The body is not sent as application/json"));
            answers.push(("422", "A field is missing, unknown or of the wrong type"));
        }
        if has_query {
            answers.push(("400", "A query parameter does not read"));
        }
        if has_path {
            answers.push(("404", "No such resource (or the id is not a number)"));
        }
        for (status, description) in answers {
            operation
                .responses
                .responses
                .entry(status.to_owned())
                .or_insert_with(|| Self::error(description));
        }
    }
}

impl Modify for CommonAnswers {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        for item in openapi.paths.paths.values_mut() {
            for operation in [
                &mut item.get,
                &mut item.put,
                &mut item.post,
                &mut item.delete,
                &mut item.options,
                &mut item.head,
                &mut item.patch,
                &mut item.trace,
            ]
            .into_iter()
            .flatten()
            {
                Self::add(operation);
            }
        }
    }
}

/// Lists the time zone names the server takes (chrono-tz's IANA database) as the enum of every
/// `time_zone` property: a free string would call `""` or `Mars/Base` valid, which the server
/// refuses (422 `invalid_time_zone`).
struct TimeZoneNames;

impl Modify for TimeZoneNames {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else {
            return;
        };
        let names: Vec<serde_json::Value> = chrono_tz::TZ_VARIANTS
            .iter()
            .map(|zone| serde_json::Value::from(zone.name()))
            .collect();
        for schema in components.schemas.values_mut() {
            let RefOr::T(Schema::Object(object)) = schema else {
                continue;
            };
            let Some(RefOr::T(Schema::Object(zone))) = object.properties.get_mut("time_zone")
            else {
                continue;
            };
            let mut listed = names.clone();
            if matches!(&zone.schema_type, SchemaType::Array(types) if types.contains(&Type::Null))
            {
                listed.push(serde_json::Value::Null);
            }
            zone.enum_values = Some(listed);
        }
    }
}

/// Describes the streams: `Last-Event-ID` as the whole number it is (never null), and what a
/// `text/event-stream` answer carries as a Server-Sent Event: each message's
/// `id`, `event` (the event's type) and `data`, a line of JSON with the schema the route names
/// (`StreamEvent`; said in `data`'s description, as the document's types have no
/// `contentSchema`). The route's annotation can only name that schema, which a client checking
/// the stream would hold against the message itself; a `retry:` line comes without data.
struct ServerSentEvents;

/// The component's name of one Server-Sent Event.
const SSE_MESSAGE: &str = "ServerSentEvent";

impl Modify for ServerSentEvents {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let mut carried: Option<RefOr<Schema>> = None;
        for item in openapi.paths.paths.values_mut() {
            for operation in [&mut item.get, &mut item.post].into_iter().flatten() {
                // A header is never null: `Option` makes the parameter optional, not nullable.
                for parameter in operation.parameters.iter_mut().flatten() {
                    if parameter.name == "Last-Event-ID"
                        && parameter.parameter_in == ParameterIn::Header
                    {
                        if let Ok(id) = serde_json::from_value::<Schema>(
                            serde_json::json!({"type": "integer", "format": "int64", "minimum": 1}),
                        ) {
                            parameter.schema = Some(RefOr::T(id));
                        }
                    }
                }
                for response in operation.responses.responses.values_mut() {
                    let RefOr::T(response) = response else {
                        continue;
                    };
                    if let Some(sse) = response.content.get_mut("text/event-stream") {
                        if let Some(schema) = sse.schema.take() {
                            carried.get_or_insert(schema);
                        }
                        sse.schema = Some(RefOr::Ref(Ref::from_schema_name(SSE_MESSAGE)));
                    }
                }
            }
        }
        let Some(carried) = carried else {
            return;
        };
        let RefOr::Ref(carried) = carried else {
            return;
        };
        let data_schema = carried.ref_location;
        let message = serde_json::json!({
            "type": "object",
            "description": "One Server-Sent Event: `data` is one line of JSON, the event.",
            "properties": {
                "id": {"type": "string", "pattern": "^[1-9][0-9]*$", "description": "The event's id: resume after it with `Last-Event-ID`."},
                "event": {"type": "string", "description": "The event's type, as `type` in `data`."},
                "retry": {"type": "integer", "description": "How long to wait before reconnecting, in milliseconds."},
                "data": {"type": "string", "contentMediaType": "application/json", "description": format!("One line of JSON: the event, as `{data_schema}` writes it")}
            }
        });
        if let (Ok(schema), Some(components)) = (
            serde_json::from_value::<Schema>(message),
            openapi.components.as_mut(),
        ) {
            components
                .schemas
                .insert(SSE_MESSAGE.to_owned(), RefOr::T(schema));
        }
    }
}

/// Writes a challenge option's value as the three JSON types it may be (string, number,
/// boolean): the derived `oneOf` of its five variants holds `2` under both "integer" and
/// "number", which makes every whole number invalid for a client that checks the document.
struct OptionValueTypes;

impl Modify for OptionValueTypes {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let value = serde_json::json!({
            "type": ["string", "number", "boolean"],
            "description": "A challenge option's value: a JSON string, number or boolean, read as its \
                text (`\"die\"`, `3`, `true`); a value the kind does not take is refused with the key named."
        });
        if let (Ok(schema), Some(components)) = (
            serde_json::from_value::<Schema>(value),
            openapi.components.as_mut(),
        ) {
            components
                .schemas
                .insert("OptionValue".to_owned(), RefOr::T(schema));
        }
    }
}

/// The document.
#[derive(OpenApi)]
#[openapi(
    info(title = "turnpost API", description = "Play-by-mail abstract strategy games. Errors are `{\"error\":{\"code\",\"message\"}}`."),
    modifiers(&BearerAuth),
    tags((name = "accounts", description = "Sign-up, sign-in, tokens"), (name = "games", description = "Challenges, moves, resignation, draws, claims, records, rematches"), (name = "challenges", description = "Open challenges: seats anyone signed in may take"), (name = "tournaments", description = "Round-robin, Swiss and table tournaments: entries, rounds, standings"), (name = "ratings", description = "Players' ratings and leaderboards"), (name = "notifications", description = "Mail preferences, vacations, unsubscribe links"), (name = "stream", description = "Live events: the account's games and one game's, as Server-Sent Events or NDJSON, resumable with Last-Event-ID"), (name = "webhooks", description = "Webhooks: signed event deliveries to a URL, or to ntfy, Discord or Slack"), (name = "push", description = "Web push: the browsers that get notifications, and the VAPID key they subscribe with"), (name = "server", description = "Operations"))
)]
pub struct ApiDoc;

/// The document: info and tags from [`ApiDoc`], paths and the schemas of their bodies from the
/// route table, then the answers every route can give.
#[must_use]
pub fn document() -> utoipa::openapi::OpenApi {
    let mut openapi = ApiDoc::openapi();
    crate::routes::table().document(&mut openapi);
    CommonAnswers.modify(&mut openapi);
    TimeZoneNames.modify(&mut openapi);
    ServerSentEvents.modify(&mut openapi);
    OptionValueTypes.modify(&mut openapi);
    openapi
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json() -> serde_json::Value {
        serde_json::to_value(document()).unwrap()
    }

    #[test]
    fn every_schema_a_route_names_is_in_the_document() {
        let doc = json();
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        let text = doc.to_string();
        let refs: Vec<&str> = text
            .split("\"#/components/schemas/")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .collect();
        assert!(refs.len() > 20, "{refs:?}");
        for name in refs {
            assert!(
                schemas.contains_key(name),
                "{name} is named but not defined"
            );
        }
        // Collected from the routes' bodies, the nested ones included.
        for name in ["GameView", "SeatView", "GameKind", "ErrorBody", "TurnMail"] {
            assert!(schemas.contains_key(name), "{name}");
        }
    }

    #[test]
    fn schemas_say_what_the_server_enforces() {
        let doc = json();
        let schemas = &doc["components"]["schemas"];
        let create = &schemas["CreateGameRequest"]["properties"];
        assert_eq!(create["seats"]["minItems"], 2, "{create}");
        assert_eq!(
            schemas["VacationRequest"]["properties"]["days"]["minimum"],
            1
        );
        for request in ["SignUpRequest", "SignInRequest", "VerifyRequest"] {
            assert_eq!(
                schemas[request]["properties"]["email"]["minLength"], 3,
                "{request}"
            );
        }
        assert_eq!(
            schemas["DrawAction"]["enum"],
            serde_json::json!(["offer", "accept", "decline"])
        );
        assert_eq!(
            schemas["TimeoutMode"]["enum"],
            serde_json::json!(["auto", "claim"])
        );
        for owner in ["NotificationSettings", "NotificationSettingsPatch"] {
            let zones = schemas[owner]["properties"]["time_zone"]["enum"]
                .as_array()
                .unwrap_or_else(|| panic!("{owner}'s time_zone has no enum"))
                .clone();
            assert!(
                zones.contains(&serde_json::json!("Europe/Berlin")),
                "{owner}"
            );
            assert!(zones.contains(&serde_json::json!("UTC")), "{owner}");
            assert!(!zones.contains(&serde_json::json!("")), "{owner}");
            for zone in zones.iter().filter_map(|zone| zone.as_str()) {
                assert!(zone.parse::<chrono_tz::Tz>().is_ok(), "{zone}");
            }
        }
        assert_eq!(
            schemas["GameKind"]["enum"],
            serde_json::json!(["kefren", "kechi", "sanqi", "chinese-checkers"])
        );
    }

    #[test]
    fn every_operation_documents_the_answers_around_its_handler() {
        let doc = json();
        let paths = doc["paths"].as_object().unwrap();
        assert!(paths.len() >= 20, "{}", paths.len());
        for (path, item) in paths {
            for (method, operation) in item.as_object().unwrap() {
                let responses = operation["responses"].as_object().unwrap();
                let has = |status: &str| responses.contains_key(status);
                assert!(has("405") && has("503"), "{method} {path}");
                if operation.get("requestBody").is_some() {
                    for status in ["400", "413", "415", "422"] {
                        assert!(has(status), "{method} {path} {status}");
                    }
                }
                if operation.get("security").is_some() {
                    assert!(has("401"), "{method} {path}");
                }
                if path.contains('{') {
                    assert!(has("404"), "{method} {path}");
                }
            }
        }
        // What an operation's text says it answers, it lists; and sign-up says what it does
        // with a taken email: the same 202 as any sign-up (the answer never tells whether an
        // address has an account), not 409.
        for (path, item) in paths {
            for (method, operation) in item.as_object().unwrap() {
                let responses = operation["responses"].as_object().unwrap();
                let text = operation["description"].as_str().unwrap_or_default();
                let mentioned = text.split(|c: char| !c.is_ascii_digit()).filter(|word| {
                    word.len() == 3 && (word.starts_with('4') || word.starts_with('5'))
                });
                for status in mentioned {
                    assert!(
                        responses.contains_key(status),
                        "{method} {path} says {status} but does not list it"
                    );
                }
            }
        }
        let sign_up = &doc["paths"]["/v1/accounts"]["post"];
        let conflict = sign_up["responses"]["409"]["description"].as_str().unwrap();
        assert!(!conflict.contains("email"), "{conflict}");
        let accepted = sign_up["responses"]["202"]["description"].as_str().unwrap();
        assert!(
            accepted.contains("email address that has an account"),
            "{accepted}"
        );
        let text = sign_up["description"].as_str().unwrap();
        assert!(!text.contains("taken name or email"), "{text}");
        let play = &doc["paths"]["/v1/games/{id}/moves"]["post"]["responses"];
        assert_eq!(
            play["201"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/GameView"
        );
    }
}
