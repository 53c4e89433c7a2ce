//! `/docs`: the API reference rendered on the server from the OpenAPI document: every path
//! with its operations, parameters, request body and answers, descriptions rendered from their
//! Markdown (`super::markdown`). No script and nothing from another site, so it works offline;
//! `/v1/openapi.json` is the document itself.

use maud::{html, Markup};
use utoipa::openapi::path::{Operation, ParameterIn};
use utoipa::openapi::{OpenApi, RefOr};

use super::layout;
use super::markdown::{inline, render_nested};

fn location(place: &ParameterIn) -> &'static str {
    match place {
        ParameterIn::Path => "path",
        ParameterIn::Query => "query",
        ParameterIn::Header => "header",
        ParameterIn::Cookie => "cookie",
    }
}

fn operation(method: &str, path: &str, op: &Operation) -> Markup {
    let anchor = format!(
        "{}-{}",
        method.to_ascii_lowercase(),
        path.trim_matches('/').replace(['/', '{', '}'], "-")
    );
    html! {
        section.op id=(anchor) {
            h3 { span class={ "method m-" (method.to_ascii_lowercase()) } { (method) } " " code { (path) } }
            @if let Some(summary) = &op.summary { p { strong { (inline(summary)) } } }
            @if let Some(description) = &op.description { (render_nested(description)) }
            @if let Some(parameters) = op.parameters.as_ref().filter(|p| !p.is_empty()) {
                h4 { "Parameters" }
                ul { @for p in parameters {
                    li { code { (p.name) } " (" (location(&p.parameter_in)) ")"
                         @if let Some(d) = &p.description { ": " (inline(d)) } }
                } }
            }
            @if let Some(body) = &op.request_body {
                h4 { "Request body" }
                ul { @for (media, content) in &body.content {
                    li { (media) @if let Some(RefOr::Ref(r)) = &content.schema { ": " code { (r.ref_location.rsplit('/').next().unwrap_or_default()) } } }
                } }
            }
            h4 { "Answers" }
            ul { @for (status, response) in &op.responses.responses {
                li { strong { (status) } " "
                    @match response {
                        RefOr::T(r) => (inline(&r.description)),
                        RefOr::Ref(r) => (r.ref_location),
                    }
                }
            } }
        }
    }
}

/// The reference page (built once at start-up).
#[must_use]
pub fn docs_html(document: &OpenApi) -> String {
    let methods = |item: &utoipa::openapi::path::PathItem| {
        [
            ("GET", item.get.clone()),
            ("POST", item.post.clone()),
            ("PUT", item.put.clone()),
            ("PATCH", item.patch.clone()),
            ("DELETE", item.delete.clone()),
        ]
        .into_iter()
        .filter_map(|(m, op)| op.map(|op| (m, op)))
        .collect::<Vec<_>>()
    };
    let body = html! {
        h1 { (document.info.title) " " (document.info.version) }
        @if let Some(description) = &document.info.description { (render_nested(description)) }
        p { "The machine-readable document: " a href="/v1/openapi.json" { "/v1/openapi.json" }
            ". Authenticate with " code { "Authorization: Bearer tp_…" } "." }
        nav.toc aria-label="Operations" { ul {
            @for (path, item) in &document.paths.paths {
                @for (method, _) in methods(item) {
                    li { a href={ "#" (method.to_ascii_lowercase()) "-" (path.trim_matches('/').replace(['/', '{', '}'], "-")) } { (method) " " (path) } }
                }
            }
        } }
        @for (path, item) in &document.paths.paths {
            @for (method, op) in methods(item) { (operation(method, path, &op)) }
        }
    };
    layout::page("API reference", &body).into_string()
}
