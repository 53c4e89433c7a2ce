use crate::failure::Failure;
use crate::output::{print, print_json};
use crate::profiles::ProfileStore;
use crate::session::{profile_name, Session};

/// Runs `turnpost logout`: revokes the profile's token on the server and forgets it.
///
/// # Errors
/// A usage failure when the profile is not signed in; network failures (the token is then
/// kept, so logging out can be retried).
pub fn run(profile_flag: Option<&str>, json: bool) -> Result<(), Failure> {
    if std::env::var_os("TURNPOST_TOKEN").is_some() {
        return Err(Failure::usage(
            "the token comes from TURNPOST_TOKEN: unset it, or revoke it with `turnpost tokens revoke ID`",
        ));
    }
    let session = Session::open(profile_flag)?;
    let store = ProfileStore::open()?;
    let mut file = store.load()?;
    let profile = profile_name(profile_flag, &file)?;
    if let Some(id) = file.profiles.get(&profile).and_then(|p| p.token_id) {
        session.client.delete(&format!("/tokens/{id}"))?;
    }
    store.remove_token(&profile)?;
    if let Some(saved) = file.profiles.get_mut(&profile) {
        saved.token_id = None;
    }
    store.save(&file)?;
    if json {
        print_json("signed_out", &profile)?;
    } else {
        print(&format!(
            "Signed out of profile {profile}; its token is revoked.\n"
        ))?;
    }
    Ok(())
}
