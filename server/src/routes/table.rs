//! The route table: each handler is registered once, with the documentation type its
//! `#[utoipa::path(method, path = …)]` generates (`__path_<handler>`). That annotation is the one
//! place a route's method and path are written; the table gives them to actix (grouped into one
//! resource per path, so other methods answer 405 with `Allow`; a GET answers HEAD too) and to
//! the OpenAPI document.

use std::collections::BTreeMap;

use actix_web::http::Method;
use actix_web::{guard, web, FromRequest, Handler, Responder};
use utoipa::openapi::path::{HttpMethod, Operation};

/// One registered route.
struct Entry {
    method: HttpMethod,
    route: actix_web::Route,
    operation: Operation,
}

/// Every documented route, by path.
#[derive(Default)]
pub struct RouteTable {
    paths: BTreeMap<String, Vec<Entry>>,
}

fn actix_method(method: &HttpMethod) -> Method {
    match method {
        HttpMethod::Get => Method::GET,
        HttpMethod::Post => Method::POST,
        HttpMethod::Put => Method::PUT,
        HttpMethod::Delete => Method::DELETE,
        HttpMethod::Options => Method::OPTIONS,
        HttpMethod::Head => Method::HEAD,
        HttpMethod::Patch => Method::PATCH,
        HttpMethod::Trace => Method::TRACE,
    }
}

impl RouteTable {
    /// Registers `handler` at the method and path its documentation `D` names.
    #[must_use]
    pub fn route<D, F, Args>(mut self, handler: F) -> Self
    where
        D: utoipa::Path,
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        for method in D::methods() {
            // Every GET also answers HEAD (RFC 9110 asks it of every general-purpose server;
            // monitors probe with it): the same handler, status and headers, and actix sends
            // no body. HEAD stays implicit in the document, as is usual.
            let route = match method {
                HttpMethod::Get => web::route().guard(guard::Any(guard::Get()).or(guard::Head())),
                _ => web::method(actix_method(&method)),
            }
            .to(handler.clone());
            self.paths.entry(D::path()).or_default().push(Entry {
                method,
                route,
                operation: D::operation(),
            });
        }
        self
    }

    /// Adds every route to the app: one resource per path, other methods answer 405.
    pub fn configure(self, cfg: &mut web::ServiceConfig) {
        for (path, entries) in self.paths {
            let allow: Vec<String> = entries
                .iter()
                .flat_map(|entry| match entry.method {
                    HttpMethod::Get => vec![Method::GET.to_string(), Method::HEAD.to_string()],
                    _ => vec![actix_method(&entry.method).to_string()],
                })
                .collect();
            let mut resource = super::resource(&path, allow.join(", "));
            for entry in entries {
                resource = resource.route(entry.route);
            }
            cfg.service(resource);
        }
    }

    /// Adds every route's operation to the document's paths.
    pub fn document(self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, entries) in self.paths {
            for entry in entries {
                openapi
                    .paths
                    .add_path_operation(&path, vec![entry.method], entry.operation);
            }
        }
    }
}
