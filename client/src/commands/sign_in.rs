//! What `signup` and `login` share: reading the mailed code, trading it for a token, and
//! saving the profile.

use std::io::{BufRead, IsTerminal, Write};

use serde::Serialize;
use turnpost_shared::api::{Account, NewToken, VerifyRequest};

use crate::api_client::ApiClient;
use crate::failure::Failure;
use crate::output::{print, print_json};
use crate::profiles::{Profile, ProfileStore};
use crate::session::profile_name;

/// The code from `--code`, or asked for on the terminal, or read as one line of stdin.
///
/// # Errors
/// A usage failure when no code comes.
pub fn read_code(given: Option<String>, email: &str) -> Result<String, Failure> {
    if let Some(code) = given {
        return Ok(code);
    }
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprint!("A code is on its way to {email}. Code from the email: ");
        let _ = std::io::stderr().flush();
    }
    let mut line = String::new();
    stdin
        .lock()
        .read_line(&mut line)
        .map_err(|error| Failure::usage(format!("cannot read the code: {error}")))?;
    let code = line.trim().to_string();
    if code.is_empty() {
        return Err(Failure::usage(
            "no code given: type the code from the email, pipe it on stdin, or pass --code",
        ));
    }
    Ok(code)
}

/// What `signup` and `login` print with `--json`.
#[derive(Serialize)]
struct SignedIn<'a> {
    profile: &'a str,
    server: &'a str,
    account: &'a Account,
}

/// Trades the code for a token, saves profile and token, and reports who is signed in.
/// Returns the token (for a first setting right after sign-up).
///
/// # Errors
/// A refusal for a wrong or expired code; network and file failures.
pub fn verify_and_save(
    client: &ApiClient,
    profile_flag: Option<&str>,
    email: &str,
    code: String,
    label: String,
    json: bool,
) -> Result<String, Failure> {
    let new: NewToken = client.post(
        "/sessions/verify",
        &VerifyRequest {
            email: email.to_string(),
            code,
            label: Some(label),
        },
    )?;
    save_profile(
        client,
        profile_flag,
        &new.token,
        &new.account,
        Some(new.info.id),
        json,
    )?;
    Ok(new.token)
}

/// Keeps `token` for `account` in the profile (the default one if there was none) and reports
/// who is signed in.
///
/// # Errors
/// File and output failures.
pub fn save_profile(
    client: &ApiClient,
    profile_flag: Option<&str>,
    token: &str,
    account: &Account,
    token_id: Option<i64>,
    json: bool,
) -> Result<(), Failure> {
    let store = ProfileStore::open()?;
    let mut file = store.load()?;
    let profile = profile_name(profile_flag, &file)?;
    store.save_token(&profile, token)?;
    file.profiles.insert(
        profile.clone(),
        Profile {
            server: client.server().to_string(),
            account: account.name.clone(),
            token_id,
        },
    );
    if file.default.is_none() {
        file.default = Some(profile.clone());
    }
    store.save(&file)?;
    if json {
        print_json(
            "signed_in",
            &SignedIn {
                profile: &profile,
                server: client.server(),
                account,
            },
        )?;
    } else {
        print(&format!(
            "Signed in as {} at {} (profile {profile}).\n",
            account.name,
            client.server()
        ))?;
    }
    Ok(())
}

/// The label a new token gets: which machine it is for.
pub fn default_label() -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty());
    match host {
        Some(host) => format!("turnpost CLI on {host}"),
        None => "turnpost CLI".to_string(),
    }
}
