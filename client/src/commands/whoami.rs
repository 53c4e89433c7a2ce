use turnpost_shared::api::Account;

use crate::failure::Failure;
use crate::output::{print, print_json};
use crate::session::Session;

/// Runs `turnpost whoami`: the signed-in account of the profile.
///
/// # Errors
/// Usage failures without a profile; refusals for a revoked token; network failures.
pub fn run(profile_flag: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile_flag)?;
    let account: Account = session.client.get("/me")?;
    if json {
        print_json("account", &account)?;
    } else {
        print(&format!(
            "{} <{}> at {} (profile {})\n",
            account.name,
            account.email,
            session.client.server(),
            session.profile
        ))?;
    }
    Ok(())
}
