use clap::Args;
use turnpost_shared::{CodeSent, SignInRequest};

use crate::api_client::ApiClient;
use crate::commands::sign_in::{default_label, read_code, verify_and_save};
use crate::failure::Failure;

/// Sign in: the server mails a code; give it here (or with --code) to get a token.
#[derive(Args, Debug)]
pub struct LoginArgs {
    /// The server's base URL.
    #[arg(long, env = "TURNPOST_SERVER")]
    pub server: String,
    /// Your account's email address.
    #[arg(long)]
    pub email: String,
    /// A code you already have (from an earlier mail); no new mail is requested.
    #[arg(long)]
    pub code: Option<String>,
    /// A label for the token, e.g. the machine it is used on.
    #[arg(long)]
    pub label: Option<String>,
}

/// Runs `turnpost login`.
///
/// # Errors
/// A refusal for a wrong code; network and file failures.
pub fn run(args: LoginArgs, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let client = ApiClient::new(&args.server, None)?;
    if args.code.is_none() {
        let _sent: CodeSent = client.post(
            "/sessions",
            &SignInRequest {
                email: args.email.clone(),
            },
        )?;
    }
    let code = read_code(args.code, &args.email)?;
    let label = args.label.unwrap_or_else(default_label);
    verify_and_save(&client, profile, &args.email, code, label, json)
}
