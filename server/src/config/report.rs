//! The effective configuration as `turnpost-server config` prints it: every key with its value
//! (passwords masked) and where the value came from. The text form is itself a valid
//! configuration file.

use std::path::Path;

use super::file::{Setting, ValueKind};
use super::redact_url;

fn shown(setting: &Setting) -> Option<String> {
    let value = setting.value.as_deref()?;
    Some(if setting.secret {
        redact_url(value)
    } else {
        value.to_owned()
    })
}

/// The configuration as TOML, each line commented with the value's source.
#[must_use]
pub fn report_text(file: Option<&Path>, settings: &[Setting]) -> String {
    let mut out = match file {
        Some(path) => format!("# configuration file: {}\n", path.display()),
        None => "# configuration file: none\n".to_owned(),
    };
    for setting in settings {
        let source = match setting.origin {
            super::Origin::Environment => format!("environment {}", setting.env),
            other => other.name().to_owned(),
        };
        let line = match shown(setting) {
            None => format!("# {} is not set ({source})", setting.key),
            Some(value) => {
                let value = match setting.kind {
                    ValueKind::Boolean | ValueKind::Number => value,
                    ValueKind::Text => toml::Value::String(value).to_string(),
                };
                format!("{} = {value}  # {source}", setting.key)
            }
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The configuration as one JSON object: `file`, and `settings` with each key's `value`
/// (`null` when not set), `source` and `env`.
#[must_use]
pub fn report_json(file: Option<&Path>, settings: &[Setting]) -> serde_json::Value {
    let settings: Vec<serde_json::Value> = settings
        .iter()
        .map(|setting| {
            let value = match (setting.kind, shown(setting)) {
                (_, None) => serde_json::Value::Null,
                (ValueKind::Boolean, Some(text)) => serde_json::Value::Bool(text == "true"),
                (ValueKind::Number, Some(text)) => text
                    .parse::<u64>()
                    .map_or(serde_json::Value::String(text), serde_json::Value::from),
                (ValueKind::Text, Some(text)) => serde_json::Value::String(text),
            };
            serde_json::json!({
                "key": setting.key,
                "value": value,
                "source": setting.origin.name(),
                "env": setting.env,
                "secret": setting.secret,
            })
        })
        .collect();
    serde_json::json!({
        "file": file.map(|path| path.display().to_string()),
        "settings": settings,
    })
}
