//! Signing up and in from the browser, with the same mailed code as the API
//! (`crate::accounts`) and the same rate limits: `/signup` (name and email), `/signin`
//! (email), `/signin/code` (type the code) and `/signin/link/{secret}` (the link in the code
//! mail). Each answer is the same whether or not an address has an account. A correct code or
//! link starts a browser session (`crate::browser_sessions`) and sets the session cookie.
//!
//! The link's page asks for one press of a button (a form) before it signs in: a mail
//! scanner or link preview that fetches the link does not use it up.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};

use super::game_settings_fields::FormValues;
use super::viewer::Viewer;
use super::visitor_form::VisitorForm;
use super::WebAnswer;
use super::{layout, session_cookie, WebError};
use crate::accounts::{self, AccountError};
use crate::browser_sessions;
use crate::http::auth::client_address;
use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::validate;

/// Where to go after signing in: a path of this site only (never another site's address).
fn local_path(next: Option<&str>) -> String {
    next.map(str::trim)
        .filter(|p| p.starts_with('/') && !p.starts_with("//") && !p.contains('\\'))
        .filter(|p| !p.chars().any(char::is_control))
        .unwrap_or("/")
        .to_owned()
}

fn text<'a>(form: &'a FormValues, name: &str) -> &'a str {
    form.get(name).map_or("", String::as_str)
}

/// The hidden fields of a sign-in form: the CSRF token, and `next` when there is one.
fn hidden_fields(viewer: &Viewer, next: &str) -> Markup {
    html! {
        (viewer.csrf_field())
        @if next != "/" {
            input type="hidden" name="next" value=(next);
        }
    }
}

/// The address field every sign-in and sign-up form has.
fn email_field(email: &str) -> Markup {
    html! {
        label for="email" { "Email address" }
        input #email type="email" name="email" value=(email) required autocomplete="email";
    }
}

fn sign_up_form(viewer: &Viewer, name: &str, email: &str, error: Option<&str>) -> Markup {
    html! {
        h1 { "Sign up" }
        p { "Choose the name other players will see and give your email address. A code comes "
            "by mail; type it on the next page, or open the link in the mail." }
        @if let Some(error) = error { p.error role="alert" { (error) } }
        form.stack method="post" action="/signup" {
            (viewer.csrf_field())
            label for="name" { "Player name" }
            input #name type="text" name="name" value=(name) required minlength="2" maxlength="32"
                autocomplete="username" autocapitalize="none" spellcheck="false";
            (email_field(email))
            button type="submit" { "Send me a code" }
        }
        p { "Your address is only used for your mail; no page shows it. "
            "Already have an account? " a href="/signin" { "Sign in" } "." }
    }
}

fn sign_in_form(viewer: &Viewer, email: &str, next: &str, error: Option<&str>) -> Markup {
    html! {
        h1 { "Sign in" }
        p { "Give the email address of your account: a code comes by mail." }
        @if let Some(error) = error { p.error role="alert" { (error) } }
        form.stack method="post" action="/signin" {
            (hidden_fields(viewer, next))
            (email_field(email))
            button type="submit" { "Send me a code" }
        }
        p { "No account yet? " a href="/signup" { "Sign up" } "." }
    }
}

/// Which form sent the code the page asks for: after signing up the address is the new
/// account's, so the page need not hedge as it does for a sign-in (which must not tell
/// whether an address has an account).
#[derive(Clone, Copy, PartialEq, Eq)]
enum CodeAfter {
    SignIn,
    SignUp,
}

fn code_form(
    viewer: &Viewer,
    email: &str,
    next: &str,
    error: Option<&str>,
    after: CodeAfter,
) -> Markup {
    html! {
        h1 { "Type your code" }
        @if error.is_none() && !email.is_empty() {
            p.notice role="status" {
                @if after == CodeAfter::SignUp {
                    // Still without telling whether the address had an account: that mail
                    // says so instead of bringing a code.
                    "A mail with your code is on its way to " strong { (email) }
                    " (if the address has an account here already, the mail says so instead)."
                } @else {
                    "If " strong { (email) } " belongs to an account here, a code is on its way to it."
                }
                " It is valid for " (accounts::CODE_VALIDITY_MINUTES)
                " minutes. You can also open the link in the mail instead." }
        }
        @if let Some(error) = error { p.error role="alert" { (error) } }
        form.stack method="post" action="/signin/code" {
            (hidden_fields(viewer, next))
            (email_field(email))
            label for="code" { "Code from the mail" }
            input #code type="text" name="code" required maxlength="64" autocomplete="one-time-code"
                autocapitalize="characters" spellcheck="false";
            button type="submit" { "Sign in" }
        }
        p { "No mail? Look in the spam folder, or " a href="/signin" { "ask for a new code" } "." }
    }
}

fn page(status: StatusCode, title: &str, body: &Markup) -> HttpResponse {
    layout::response(status, title, body)
}

/// A refusal of the API layer (rate limit, validation) as a page's status and sentence.
fn refusal(error: ApiError) -> Result<(StatusCode, String), WebError> {
    let error = WebError::from(error);
    if error.status.is_server_error() {
        return Err(error);
    }
    Ok((error.status, error.message))
}

/// The name and address of a sign-up, checked and counted against the rate limits as
/// `POST /v1/accounts` counts them.
fn checked_sign_up(
    state: &AppState,
    req: &HttpRequest,
    name: &str,
    email: &str,
) -> Result<(validate::AccountName, validate::EmailAddress), ApiError> {
    let name = validate::account_name(name)?;
    let email = validate::email(email)?;
    validate::deliverable_email(&email, state.smtp_utf8)?;
    state
        .limits
        .check("signup", &client_address(state, req), &email.key)?;
    Ok((name, email))
}

/// `GET /signup`.
pub async fn sign_up_page(state: web::Data<AppState>, viewer: Viewer) -> HttpResponse {
    if !state.open_signup {
        return closed();
    }
    page(
        StatusCode::OK,
        "Sign up",
        &sign_up_form(&viewer, "", "", None),
    )
}

fn closed() -> HttpResponse {
    let body = html! {
        h1 { "Sign up" }
        p.notice { "Sign-up is closed on this server; ask its operator for an account. "
            "If you have one, " a href="/signin" { "sign in" } "." }
    };
    page(StatusCode::FORBIDDEN, "Sign up", &body)
}

/// `POST /signup`: `name`, `email`, `csrf`. Mails a code (as `POST /v1/accounts`) and shows the
/// code form.
///
/// # Errors
/// 403 without the form's token; storage failures.
pub async fn sign_up(req: HttpRequest, posted: VisitorForm) -> WebAnswer {
    let (state, viewer, form) = posted.into_parts();
    if !state.open_signup {
        return Ok(closed());
    }
    let (name_text, email_text) = (text(&form, "name").trim(), text(&form, "email").trim());
    let again = |status: StatusCode, error: &str| {
        page(
            status,
            "Sign up",
            &sign_up_form(&viewer, name_text, email_text, Some(error)),
        )
    };
    let (name, email) = match checked_sign_up(&state, &req, name_text, email_text) {
        Ok(checked) => checked,
        Err(error) => {
            let (status, message) = refusal(error)?;
            return Ok(again(status, &message));
        }
    };
    let ctx = state.mail.clone();
    let shown_email = email.email.clone();
    let outcome = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(accounts::sign_up(conn, &name, &email, &ctx))
    })
    .await?;
    match outcome {
        Ok(()) => Ok(page(
            StatusCode::OK,
            "Type your code",
            &code_form(&viewer, &shown_email, "/", None, CodeAfter::SignUp),
        )),
        Err(AccountError::NameTaken) => Ok(again(
            StatusCode::CONFLICT,
            "this name is taken; choose another",
        )),
        Err(error) => Err(WebError::from(ApiError::from(error))),
    }
}

/// Query of `/signin` and `/signin/code`.
#[derive(Debug, serde::Deserialize)]
pub struct NextQuery {
    /// The page to come back to after signing in.
    next: Option<String>,
}

/// `GET /signin`.
pub async fn sign_in_page(viewer: Viewer, query: web::Query<NextQuery>) -> HttpResponse {
    let next = local_path(query.next.as_deref());
    page(
        StatusCode::OK,
        "Sign in",
        &sign_in_form(&viewer, "", &next, None),
    )
}

/// `POST /signin`: `email`, `csrf`, `next`. Mails a code if an account has the address (as
/// `POST /v1/sessions`) and shows the code form either way.
///
/// # Errors
/// 403 without the form's token; storage failures.
pub async fn sign_in(posted: VisitorForm) -> WebAnswer {
    let (state, viewer, form) = posted.into_parts();
    let next = local_path(form.get("next").map(String::as_str));
    let email_text = text(&form, "email").trim();
    let checked = validate::email(email_text)
        .map_err(ApiError::from)
        .and_then(|email| {
            state.limits.check_email("signin", &email.key)?;
            Ok(email)
        });
    let email = match checked {
        Ok(email) => email,
        Err(error) => {
            let (status, message) = refusal(error)?;
            return Ok(page(
                status,
                "Sign in",
                &sign_in_form(&viewer, email_text, &next, Some(&message)),
            ));
        }
    };
    let ctx = state.mail.clone();
    let shown_email = email.email.clone();
    crate::http::blocking::with_conn(&state, move |conn| {
        Ok(accounts::sign_in(conn, &email, &ctx)?)
    })
    .await?;
    Ok(page(
        StatusCode::OK,
        "Type your code",
        &code_form(&viewer, &shown_email, &next, None, CodeAfter::SignIn),
    ))
}

/// `GET /signin/code`: the code form, for a code asked for earlier.
pub async fn code_page(viewer: Viewer, query: web::Query<NextQuery>) -> HttpResponse {
    let next = local_path(query.next.as_deref());
    page(
        StatusCode::OK,
        "Type your code",
        &code_form(&viewer, "", &next, None, CodeAfter::SignIn),
    )
}

/// The label of a new session: the browser, from its `User-Agent`.
fn session_label(req: &HttpRequest) -> String {
    let agent = req
        .headers()
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    browser_sessions::label_of_user_agent(agent)
}

/// Signed in: the session cookie, and on to `next`.
fn signed_in(state: &AppState, secret: String, next: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .cookie(session_cookie::session(state, secret))
        .insert_header((header::LOCATION, next.to_owned()))
        .finish()
}

/// `POST /signin/code`: `email`, `code`, `csrf`, `next`. A correct code starts a session.
///
/// # Errors
/// 403 without the form's token; storage failures.
pub async fn verify_code(req: HttpRequest, posted: VisitorForm) -> WebAnswer {
    let (state, viewer, form) = posted.into_parts();
    let next = local_path(form.get("next").map(String::as_str));
    let email_text = text(&form, "email").trim();
    let code = text(&form, "code").to_owned();
    let again = |status: StatusCode, error: &str| {
        page(
            status,
            "Type your code",
            &code_form(&viewer, email_text, &next, Some(error), CodeAfter::SignIn),
        )
    };
    if code.chars().count() > 64 {
        return Ok(again(
            StatusCode::UNPROCESSABLE_ENTITY,
            "a code has 8 characters",
        ));
    }
    let checked = validate::email(email_text)
        .map_err(ApiError::from)
        .and_then(|email| {
            let client = client_address(&state, &req);
            state.limits.check("verify", &client, &email.key)?;
            Ok(email)
        });
    let email = match checked {
        Ok(email) => email,
        Err(error) => {
            let (status, message) = refusal(error)?;
            return Ok(again(status, &message));
        }
    };
    let label = session_label(&req);
    let outcome = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(accounts::verify_with(
            conn,
            &email,
            &code,
            |conn, account| browser_sessions::start(conn, account.id, &label),
        ))
    })
    .await?;
    match outcome {
        Ok(((secret, _), _)) => Ok(signed_in(&state, secret, &next)),
        Err(error) => {
            let (status, message) = refusal(ApiError::from(error))?;
            Ok(again(status, &message))
        }
    }
}

/// `GET /signin/link/{secret}`: the link of a code mail; a button signs in.
pub async fn link_page(viewer: Viewer, path: web::Path<String>) -> HttpResponse {
    let link = path.into_inner();
    let body = html! {
        h1 { "Sign in" }
        p { "Sign in to turnpost in this browser with the link from your mail." }
        form.stack method="post" action="/signin/link" {
            (viewer.csrf_field())
            input type="hidden" name="link" value=(link);
            button type="submit" { "Sign in" }
        }
    };
    let mut response = page(StatusCode::OK, "Sign in", &body);
    // The address holds the link's secret: never send it on as a referrer.
    response.headers_mut().insert(
        header::REFERRER_POLICY,
        header::HeaderValue::from_static("no-referrer"),
    );
    response
}

/// `POST /signin/link`: `link`, `csrf`. Uses the link (once, within its time) and starts a
/// session.
///
/// # Errors
/// 403 without the form's token, or for a used, superseded or expired link; storage failures.
pub async fn follow_link(req: HttpRequest, posted: VisitorForm) -> WebAnswer {
    let (state, _, form) = posted.into_parts();
    let link = text(&form, "link").to_owned();
    let label = session_label(&req);
    let outcome = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(accounts::verify_link(conn, &link, |conn, account| {
            browser_sessions::start(conn, account.id, &label)
        }))
    })
    .await?;
    match outcome {
        Ok(((secret, _), _)) => Ok(signed_in(&state, secret, "/")),
        Err(AccountError::NoLink) => Err(WebError::forbidden(AccountError::NoLink.to_string())),
        Err(error) => Err(WebError::from(ApiError::from(error))),
    }
}

#[cfg(test)]
mod tests {
    use super::local_path;

    #[test]
    fn next_stays_on_this_site() {
        assert_eq!(local_path(Some("/settings")), "/settings");
        assert_eq!(local_path(Some("//evil.example/")), "/");
        assert_eq!(local_path(Some("https://evil.example/")), "/");
        assert_eq!(local_path(Some("/\\evil.example")), "/");
        assert_eq!(local_path(None), "/");
    }
}
