use clap::Args;
use turnpost_shared::api::{
    CodeSent, NotificationSettings, NotificationSettingsPatch, SignUpRequest,
};

use crate::api_client::ApiClient;
use crate::commands::sign_in::{default_label, read_code, verify_and_save};
use crate::failure::Failure;
use crate::machine_time_zone::machine_time_zone;
use crate::output::print;

/// Create an account: the server mails a code, which signs you in.
#[derive(Args, Debug)]
pub struct SignupArgs {
    /// The server's base URL.
    #[arg(long, env = "TURNPOST_SERVER")]
    pub server: String,
    /// Your player name: 2-32 letters, digits, - or _.
    #[arg(long)]
    pub name: String,
    /// Your email address (codes and turn emails go there).
    #[arg(long)]
    pub email: String,
    /// A label for the token, e.g. the machine it is used on.
    #[arg(long)]
    pub label: Option<String>,
}

/// Runs `turnpost signup`.
///
/// # Errors
/// Refusals from the server (name taken, bad email), network and file failures.
pub fn run(args: SignupArgs, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let client = ApiClient::new(&args.server, None)?;
    let _sent: CodeSent = client.post(
        "/accounts",
        &SignUpRequest {
            name: args.name,
            email: args.email.clone(),
        },
    )?;
    let code = read_code(None, &args.email)?;
    let label = args.label.unwrap_or_else(default_label);
    let token = verify_and_save(&client, profile, &args.email, code, label, json)?;
    // Mails show deadlines in the account's time zone (UTC until set): the machine's from the
    // first day. Signing up has worked by now, so a zone the server refuses is only a warning.
    if let Some(zone) = machine_time_zone() {
        let signed_in = ApiClient::new(client.server(), Some(token))?;
        let patch = NotificationSettingsPatch {
            time_zone: Some(zone.clone()),
            ..NotificationSettingsPatch::default()
        };
        match signed_in.patch::<_, NotificationSettings>("/me/notifications", &patch) {
            Ok(_) if !json => print(&format!(
                "Mail shows deadlines in {zone} (change it with turnpost notifications \
                 --time-zone ZONE).\n"
            ))?,
            Ok(_) => {}
            Err(failure) => eprintln!(
                "turnpost: the time zone {zone} was not set ({}); set it with turnpost \
                 notifications --time-zone ZONE",
                failure.message
            ),
        }
    }
    Ok(())
}
