//! `GET /v1/openapi.json` and `GET /docs` (the reference rendered on the server from the same
//! document, `crate::web::docs_html`: no script, nothing from another site).

use actix_web::{web, HttpResponse};

use crate::http::state::AppState;

/// The OpenAPI document.
pub async fn openapi_json(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(state.openapi_json.clone())
}

/// The browsable API reference.
pub async fn docs_page(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .body(state.docs_html.clone())
}
