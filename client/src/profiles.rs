//! Profiles: which server and account to use, kept in `config.toml` in the configuration
//! directory; each profile's token in its own file `tokens/<profile>` (mode 0600).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::config_dir::config_dir;
use crate::failure::Failure;

/// The profile used when none is named.
pub const DEFAULT_PROFILE: &str = "default";

/// The contents of `config.toml`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfilesFile {
    /// The profile used when neither `--profile` nor `TURNPOST_PROFILE` names one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    #[serde(default)]
    pub profiles: BTreeMap<String, Profile>,
}

/// One server and account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Base URL of the server, e.g. `https://games.example.org`.
    pub server: String,
    /// The account's name.
    pub account: String,
    /// The id of this profile's token on the server (for `turnpost logout`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_id: Option<i64>,
}

/// The configuration directory and the files in it.
pub struct ProfileStore {
    dir: PathBuf,
}

impl ProfileStore {
    /// The store in the configuration directory (`TURNPOST_CONFIG_DIR` or the XDG default).
    ///
    /// # Errors
    /// A usage failure when there is no configuration directory.
    pub fn open() -> Result<ProfileStore, Failure> {
        Ok(ProfileStore { dir: config_dir()? })
    }

    fn config_path(&self) -> PathBuf {
        self.dir.join("config.toml")
    }

    fn token_path(&self, profile: &str) -> PathBuf {
        self.dir.join("tokens").join(profile)
    }

    /// Reads `config.toml`; a missing file is an empty one.
    ///
    /// # Errors
    /// A usage failure naming the path and line of a broken file.
    pub fn load(&self) -> Result<ProfilesFile, Failure> {
        let path = self.config_path();
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Ok(ProfilesFile::default())
            }
            Err(error) => {
                return Err(Failure::usage(format!(
                    "cannot read {}: {error}",
                    path.display()
                )))
            }
        };
        toml::from_str(&text).map_err(|error| {
            let line = error
                .span()
                .and_then(|span| text.get(..span.start))
                .map_or(1, |before| before.matches('\n').count() + 1);
            Failure::usage(format!("{}:{line}: {}", path.display(), error.message()))
        })
    }

    /// Writes `config.toml` (mode 0600, replaced whole).
    ///
    /// # Errors
    /// A usage failure naming the path.
    pub fn save(&self, file: &ProfilesFile) -> Result<(), Failure> {
        let text = toml::to_string_pretty(file)
            .map_err(|error| Failure::usage(format!("cannot write the profiles: {error}")))?;
        write_private(&self.config_path(), &text)
    }

    /// The saved token of `profile`, if any.
    ///
    /// # Errors
    /// A usage failure when the token file exists but cannot be read.
    pub fn token(&self, profile: &str) -> Result<Option<String>, Failure> {
        let path = self.token_path(profile);
        match std::fs::read_to_string(&path) {
            Ok(text) => Ok(Some(text.trim().to_string()).filter(|token| !token.is_empty())),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(Failure::usage(format!(
                "cannot read {}: {error}",
                path.display()
            ))),
        }
    }

    /// Saves the token of `profile` (mode 0600).
    ///
    /// # Errors
    /// A usage failure naming the path.
    pub fn save_token(&self, profile: &str, token: &str) -> Result<(), Failure> {
        write_private(&self.token_path(profile), &format!("{token}\n"))
    }

    /// Forgets the token of `profile`.
    ///
    /// # Errors
    /// A usage failure naming the path.
    pub fn remove_token(&self, profile: &str) -> Result<(), Failure> {
        let path = self.token_path(profile);
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(error) => Err(Failure::usage(format!(
                "cannot remove {}: {error}",
                path.display()
            ))),
        }
    }
}

/// Checks a profile name: letters, digits, `-` and `_` (it becomes a file name).
///
/// # Errors
/// A usage failure saying what a name may hold.
pub fn check_profile_name(name: &str) -> Result<(), Failure> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(Failure::usage(format!(
            "profile name `{name}`: expected 1-64 letters, digits, - or _"
        )))
    }
}

/// Writes a file readable by its owner only, through a fresh temporary file in the same
/// directory and a rename, so a crash never leaves half a file. The temporary file is new
/// (mode 0600, never one left over by an earlier run, whatever mode that one has).
fn write_private(path: &Path, text: &str) -> Result<(), Failure> {
    let fail =
        |error: std::io::Error| Failure::usage(format!("cannot write {}: {error}", path.display()));
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    crate::config_dir::create_private_dir(parent).map_err(fail)?;
    let mut temporary = tempfile::Builder::new()
        .prefix(".turnpost-")
        .suffix(".tmp")
        .tempfile_in(parent)
        .map_err(fail)?;
    temporary.write_all(text.as_bytes()).map_err(fail)?;
    temporary.as_file().sync_all().map_err(fail)?;
    temporary.persist(path).map_err(|error| fail(error.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::write_private;

    /// The directories a first login makes hold tokens: only their owner may enter them,
    /// whatever the umask gives new directories (0755 with the usual 022).
    #[cfg(unix)]
    #[test]
    fn a_first_token_makes_private_directories() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let config = dir.path().join("config").join("turnpost");
        let token = config.join("tokens").join("default");
        write_private(&token, "tp_secret\n").unwrap();
        for path in [
            dir.path().join("config"),
            config.clone(),
            config.join("tokens"),
        ] {
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o700, "{}", path.display());
        }
    }

    /// A temporary file left by an earlier run with a loose mode must not make the token
    /// readable by others.
    #[cfg(unix)]
    #[test]
    fn a_stale_loose_temp_file_does_not_loosen_the_token_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let token = dir.path().join("tokens").join("default");
        std::fs::create_dir_all(token.parent().unwrap()).unwrap();
        let stale = token.with_extension("tmp");
        std::fs::write(&stale, "old").unwrap();
        std::fs::set_permissions(&stale, std::fs::Permissions::from_mode(0o644)).unwrap();
        write_private(&token, "tp_secret\n").unwrap();
        let mode = std::fs::metadata(&token).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(std::fs::read_to_string(&token).unwrap(), "tp_secret\n");
    }
}
