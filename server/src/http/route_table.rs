//! The route table: every route of the server, JSON API and HTML pages alike, registered once.
//!
//! A documented API route is registered with the documentation type its
//! `#[utoipa::path(method, path = …)]` generates (`__path_<handler>`): that annotation is the one
//! place its method and path are written, and the table gives them to actix and to the OpenAPI
//! document (the operation, and the schemas of its bodies). Pages and undocumented routes name
//! their method and path here. Either way the table groups the routes into one resource per
//! path, derives what HTTP asks of every path once: a GET answers HEAD too, other methods get a
//! 405 with `Allow`. The 405 itself is the table's owner's: JSON for `/v1`, an HTML page for
//! pages.

use std::collections::BTreeMap;

use actix_web::http::Method;
use actix_web::{guard, web, FromRequest, Handler, HttpRequest, HttpResponse, Responder};
use utoipa::openapi::path::{HttpMethod, Operation};
use utoipa::openapi::schema::Schema;
use utoipa::openapi::RefOr;

/// The answer to a method a path does not take: the request and the methods it does take
/// (the `Allow` header's value).
pub type MethodNotAllowed = fn(&HttpRequest, &str) -> HttpResponse;

/// A handler the table can register: an actix handler whose answer is a responder (the bounds
/// every registration takes, named once).
pub trait RouteHandler<Args>: Handler<Args, Output: Responder + 'static> {}

impl<F, Args> RouteHandler<Args> for F
where
    F: Handler<Args>,
    F::Output: Responder + 'static,
{
}

/// A named schema an operation's bodies use.
type NamedSchema = (String, RefOr<Schema>);

/// What a documented route adds to the OpenAPI document.
struct Documented {
    method: HttpMethod,
    operation: Operation,
    schemas: Vec<NamedSchema>,
}

/// One registered route.
struct Entry {
    method: Method,
    route: actix_web::Route,
    documented: Option<Documented>,
}

/// Every route of one kind (API or pages), by path.
pub struct RouteTable {
    not_allowed: MethodNotAllowed,
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

/// The actix route for `method`. Every GET also answers HEAD (RFC 9110 asks it of every
/// general-purpose server; monitors probe with it): the same handler, status and headers, and
/// actix sends no body. HEAD stays implicit in the document, as is usual.
fn route_for(method: &Method) -> actix_web::Route {
    if method == Method::GET {
        web::route().guard(guard::Any(guard::Get()).or(guard::Head()))
    } else {
        web::method(method.clone())
    }
}

impl RouteTable {
    /// An empty table whose paths answer methods they do not take with `not_allowed`.
    #[must_use]
    pub fn new(not_allowed: MethodNotAllowed) -> Self {
        Self {
            not_allowed,
            paths: BTreeMap::new(),
        }
    }

    /// Registers `handler` at the method and path its documentation `D` names, and documents
    /// it.
    ///
    /// `D`'s schema references are the ones utoipa generates for every `#[utoipa::path]` (its
    /// `OpenApi` derive collects a path's schemas the same way), so the document's schema list
    /// is gathered from the routes' request and response bodies, not kept by hand.
    #[must_use]
    pub fn route<D, F, Args>(mut self, handler: F) -> Self
    where
        D: utoipa::Path + utoipa::__dev::SchemaReferences,
        F: RouteHandler<Args>,
        Args: FromRequest + 'static,
    {
        let mut schemas = Vec::new();
        D::schemas(&mut schemas);
        for method in D::methods() {
            let actix = actix_method(&method);
            let route = route_for(&actix).to(handler.clone());
            self.paths.entry(D::path()).or_default().push(Entry {
                method: actix,
                route,
                documented: Some(Documented {
                    method,
                    operation: D::operation(),
                    schemas: schemas.clone(),
                }),
            });
        }
        self
    }

    /// Registers `handler` for `method` at `path`, outside the document (pages, the document
    /// itself).
    #[must_use]
    pub fn at<F: RouteHandler<Args>, Args: FromRequest + 'static>(
        mut self,
        method: Method,
        path: &str,
        handler: F,
    ) -> Self {
        let route = route_for(&method).to(handler);
        self.paths.entry(path.to_owned()).or_default().push(Entry {
            method,
            route,
            documented: None,
        });
        self
    }

    /// [`RouteTable::at`] for GET (and so HEAD).
    #[must_use]
    pub fn get<F: RouteHandler<Args>, Args: FromRequest + 'static>(
        self,
        path: &str,
        handler: F,
    ) -> Self {
        self.at(Method::GET, path, handler)
    }

    /// [`RouteTable::at`] for POST.
    #[must_use]
    pub fn post<F: RouteHandler<Args>, Args: FromRequest + 'static>(
        self,
        path: &str,
        handler: F,
    ) -> Self {
        self.at(Method::POST, path, handler)
    }

    /// The `Allow` value of a path with these routes: each method once, HEAD with GET.
    fn allow(entries: &[Entry]) -> String {
        let mut allow: Vec<String> = Vec::new();
        for entry in entries {
            let mut methods = vec![entry.method.to_string()];
            if entry.method == Method::GET {
                methods.push(Method::HEAD.to_string());
            }
            for method in methods {
                if !allow.contains(&method) {
                    allow.push(method);
                }
            }
        }
        allow.join(", ")
    }

    /// Every route's method and path pattern, in path order: what a test walks to check that
    /// every route, added later ones too, keeps its secrets out of the log.
    #[must_use]
    pub fn routes(&self) -> Vec<(Method, String)> {
        self.paths
            .iter()
            .flat_map(|(path, entries)| {
                entries
                    .iter()
                    .map(move |entry| (entry.method.clone(), path.clone()))
            })
            .collect()
    }

    /// Adds every route to the app: one resource per path, other methods answer 405.
    pub fn configure(self, cfg: &mut web::ServiceConfig) {
        let not_allowed = self.not_allowed;
        for (path, entries) in self.paths {
            let allow = Self::allow(&entries);
            let mut resource =
                web::resource(path.as_str()).default_service(web::to(move |req: HttpRequest| {
                    let answer = not_allowed(&req, &allow);
                    async move { answer }
                }));
            for entry in entries {
                resource = resource.route(entry.route);
            }
            cfg.service(resource);
        }
    }

    /// Adds every documented route's operation to the document's paths, and the schemas of
    /// its bodies to the document's components.
    pub fn document(self, openapi: &mut utoipa::openapi::OpenApi) {
        for (path, entries) in self.paths {
            for documented in entries.into_iter().filter_map(|entry| entry.documented) {
                let components = openapi.components.get_or_insert_with(Default::default);
                for (name, schema) in documented.schemas {
                    components.schemas.entry(name).or_insert(schema);
                }
                openapi.paths.add_path_operation(
                    &path,
                    vec![documented.method],
                    documented.operation,
                );
            }
        }
    }
}
