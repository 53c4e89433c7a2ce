use std::io::{BufRead, IsTerminal};

use clap::Args;
use turnpost_shared::api::{Account, CodeSent, SignInRequest};

use crate::api_client::ApiClient;
use crate::commands::sign_in::{default_label, read_code, save_profile, verify_and_save};
use crate::failure::Failure;
use crate::profiles::ProfileStore;
use crate::session::profile_name;

/// Sign in: the server mails a code; give it here (or with --code) to get a token. Or store a
/// token you already have (from `turnpost-server account create`) with --token-stdin.
#[derive(Args, Debug)]
pub struct LoginArgs {
    /// The server's base URL (default: the profile's server, when the profile exists).
    #[arg(long, env = "TURNPOST_SERVER")]
    pub server: Option<String>,
    /// Your account's email address (the code is mailed there).
    #[arg(long, required_unless_present = "token_stdin")]
    pub email: Option<String>,
    /// A code you already have (from an earlier mail); no new mail is requested.
    #[arg(long, conflicts_with = "token_stdin")]
    pub code: Option<String>,
    /// A label for the token, e.g. the machine it is used on.
    #[arg(long, conflicts_with = "token_stdin")]
    pub label: Option<String>,
    /// Read an API token from stdin (one line) and keep it in the profile, e.g.
    /// `turnpost-server account create … | turnpost login --server URL --token-stdin`.
    #[arg(long, conflicts_with = "email")]
    pub token_stdin: bool,
}

/// Runs `turnpost login`.
///
/// # Errors
/// A usage failure without a server; a refusal for a wrong code or token; network and file
/// failures.
pub fn run(args: LoginArgs, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let server = match args.server {
        Some(server) => server,
        None => profile_server(profile)?,
    };
    if args.token_stdin {
        let token = read_token()?;
        let client = ApiClient::new(&server, Some(token.clone()))?;
        let account: Account = client.get("/me")?;
        return save_profile(&client, profile, &token, &account, None, json);
    }
    let email = args.email.unwrap_or_default();
    let client = ApiClient::new(&server, None)?;
    if args.code.is_none() {
        let _sent: CodeSent = client.post(
            "/sessions",
            &SignInRequest {
                email: email.clone(),
            },
        )?;
    }
    let code = read_code(args.code, &email)?;
    let label = args.label.unwrap_or_else(default_label);
    verify_and_save(&client, profile, &email, code, label, json).map(|_token| ())
}

/// The server of the profile in use, for signing in again without `--server`.
fn profile_server(profile: Option<&str>) -> Result<String, Failure> {
    let store = ProfileStore::open()?;
    let file = store.load()?;
    let name = profile_name(profile, &file)?;
    file.profiles
        .get(&name)
        .map(|found| found.server.clone())
        .ok_or_else(|| {
            Failure::usage(format!(
                "no server: profile {name} does not exist yet, so pass --server URL (or set \
                 TURNPOST_SERVER)"
            ))
        })
}

/// One line of stdin: the token.
fn read_token() -> Result<String, Failure> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        eprint!("API token: ");
    }
    let mut line = String::new();
    stdin
        .lock()
        .read_line(&mut line)
        .map_err(|error| Failure::usage(format!("cannot read the token: {error}")))?;
    let token = line.trim().to_string();
    if token.is_empty() {
        return Err(Failure::usage("--token-stdin: no token on stdin"));
    }
    Ok(token)
}
