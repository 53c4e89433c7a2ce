//! Which server and token a command uses: `TURNPOST_SERVER` / `TURNPOST_TOKEN` override the
//! profile (`--profile`, `TURNPOST_PROFILE`, the file's default, or `default`).

use std::time::Duration;

use crate::api_client::ApiClient;
use crate::failure::Failure;
use crate::profiles::{check_profile_name, ProfileStore, ProfilesFile, DEFAULT_PROFILE};

/// A profile name to use and where it came from.
pub fn profile_name(flag: Option<&str>, file: &ProfilesFile) -> Result<String, Failure> {
    let name = flag
        .map(str::to_string)
        .or_else(|| file.default.clone())
        .unwrap_or_else(|| DEFAULT_PROFILE.to_string());
    check_profile_name(&name)?;
    Ok(name)
}

/// A signed-in client for the chosen profile.
pub struct Session {
    pub profile: String,
    pub client: ApiClient,
}

impl Session {
    /// The server and token of the profile, with environment overrides.
    ///
    /// # Errors
    /// A usage failure when no server or no token is configured, saying how to get one.
    pub fn open(profile_flag: Option<&str>) -> Result<Session, Failure> {
        Session::open_inner(profile_flag, None)
    }

    /// As [`Session::open`], with requests that give up after `timeout` (for shell
    /// completion, which must not hang the prompt).
    ///
    /// # Errors
    /// As [`Session::open`].
    pub fn open_with_timeout(
        profile_flag: Option<&str>,
        timeout: Duration,
    ) -> Result<Session, Failure> {
        Session::open_inner(profile_flag, Some(timeout))
    }

    fn open_inner(
        profile_flag: Option<&str>,
        timeout: Option<Duration>,
    ) -> Result<Session, Failure> {
        let store = ProfileStore::open()?;
        let file = store.load()?;
        let profile = profile_name(profile_flag, &file)?;
        let saved = file.profiles.get(&profile);
        let server = env("TURNPOST_SERVER")
            .or_else(|| saved.map(|p| p.server.clone()))
            .ok_or_else(|| {
                Failure::usage(format!(
                    "profile `{profile}` has no server: run `turnpost login --server URL --email E` \
                     or set TURNPOST_SERVER"
                ))
            })?;
        let token = match env("TURNPOST_TOKEN") {
            Some(token) => token,
            None => store.token(&profile)?.ok_or_else(|| {
                Failure::usage(format!(
                    "profile `{profile}` is not signed in: run `turnpost login` or set TURNPOST_TOKEN"
                ))
            })?,
        };
        let client = match timeout {
            Some(timeout) => ApiClient::with_timeout(&server, Some(token), timeout)?,
            None => ApiClient::new(&server, Some(token))?,
        };
        Ok(Session { client, profile })
    }
}

fn env(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .filter(|value| !value.trim().is_empty())
}
