//! Files only the server's own user may read: the data directory (0700), the SQLite database
//! and the `.eml` mail files (0600). Sign-in codes and turn cards sit in those files, so any
//! other local user able to read them could sign in as anyone.

use std::fs::{DirBuilder, OpenOptions};
use std::io::{ErrorKind, Write as _};
use std::path::Path;

/// Creates `dir` and its missing parents readable by the owner only (0700 on Unix). A directory
/// that already exists keeps its mode: the operator chose it.
///
/// # Errors
/// The I/O error of the directory that cannot be created.
pub fn create_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt as _;
        builder.mode(0o700);
    }
    builder.create(dir)
}

fn private_options() -> OpenOptions {
    let mut options = OpenOptions::new();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    options
}

/// Creates `path` empty with mode 0600 unless it exists (SQLite then opens it, and gives its
/// `-wal` and `-shm` files the database file's mode).
///
/// # Errors
/// The I/O error when the file can neither be created nor already exists.
pub fn ensure_file(path: &Path) -> std::io::Result<()> {
    match private_options().write(true).create_new(true).open(path) {
        Ok(_) => Ok(()),
        Err(error) if error.kind() == ErrorKind::AlreadyExists => Ok(()),
        Err(error) => Err(error),
    }
}

/// Creates `path` empty with mode 0600; it must not exist.
///
/// # Errors
/// The I/O error, `AlreadyExists` when something is at `path`.
pub fn create_empty(path: &Path) -> std::io::Result<()> {
    private_options()
        .write(true)
        .create_new(true)
        .open(path)
        .map(drop)
}

/// Writes `bytes` to a new file at `path` with mode 0600. A file left at `path` (a crash
/// before its rename) is removed first: reusing it would keep whatever mode it had.
///
/// # Errors
/// The I/O error of removing, creating or writing the file.
pub fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => {}
        Err(error) if error.kind() == ErrorKind::NotFound => {}
        Err(error) => return Err(error),
    }
    let mut file = private_options().write(true).create_new(true).open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// What [`tighten`] changed: a path and the mode it had (Unix permission bits).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tightened {
    /// The directory or file.
    pub path: std::path::PathBuf,
    /// Its mode before.
    pub was: u32,
}

/// A file or directory of turnpost's that cannot be made private.
#[derive(Debug, thiserror::Error)]
#[error(
    "{} is readable by other users and cannot be made private ({source}); run: chmod {mode:o} '{}'",
    path.display(),
    path.display()
)]
pub struct TightenError {
    path: std::path::PathBuf,
    mode: u32,
    source: std::io::Error,
}

/// Takes away every permission of the group and of others from what turnpost keeps: the data
/// directory and its `mail` directory (0700), and the SQLite database with its `-wal` and
/// `-shm` files (0600) when `database` is one. They hold the play-link and reply-key secrets,
/// sign-in codes and turn cards. Paths that do not exist are skipped; a path already private is
/// left as it is. Answers what was changed, for the log.
///
/// # Errors
/// The first path whose mode cannot be changed (another user owns it), with the `chmod` to run.
pub fn tighten(data_dir: &Path, database: Option<&Path>) -> Result<Vec<Tightened>, TightenError> {
    let mut changed = Vec::new();
    #[cfg(unix)]
    {
        let mut wanted = vec![
            (data_dir.to_path_buf(), 0o700),
            (data_dir.join("mail"), 0o700),
        ];
        if let Some(database) = database {
            let mut with_suffix = |suffix: &str| {
                let mut name = database.as_os_str().to_owned();
                name.push(suffix);
                wanted.push((std::path::PathBuf::from(name), 0o600));
            };
            with_suffix("");
            with_suffix("-wal");
            with_suffix("-shm");
        }
        for (path, mode) in wanted {
            if let Some(was) = tighten_one(&path, mode)? {
                changed.push(Tightened { path, was });
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (data_dir, database);
    }
    Ok(changed)
}

/// Sets `path` to `mode` if it exists and grants anything to the group or others; answers the
/// mode it had when it changed it.
#[cfg(unix)]
fn tighten_one(path: &Path, mode: u32) -> Result<Option<u32>, TightenError> {
    use std::os::unix::fs::PermissionsExt as _;
    let fail = |source| TightenError {
        path: path.to_path_buf(),
        mode,
        source,
    };
    // Not followed: a link is the operator's, and its target may not be ours.
    let metadata = match std::fs::symlink_metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(fail(error)),
    };
    if metadata.file_type().is_symlink() {
        return Ok(None);
    }
    let was = metadata.permissions().mode() & 0o7777;
    if was & 0o077 == 0 {
        return Ok(None);
    }
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(was & !0o077 | mode))
        .map_err(fail)?;
    Ok(Some(was))
}

#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use std::os::unix::fs::PermissionsExt as _;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    fn set(path: &Path, mode: u32) {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn loose_data_dir_and_database_files_are_tightened_and_reported() {
        let scratch = std::env::temp_dir().join(format!("turnpost-tighten-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&scratch);
        std::fs::create_dir_all(&scratch).unwrap();
        let data = scratch.join("data");
        std::fs::create_dir(&data).unwrap();
        std::fs::create_dir(data.join("mail")).unwrap();
        let database = data.join("turnpost.db");
        for name in ["turnpost.db", "turnpost.db-wal", "turnpost.db-shm"] {
            std::fs::write(data.join(name), "x").unwrap();
            set(&data.join(name), 0o644);
        }
        set(&data.join("mail"), 0o700);
        set(&data, 0o755);

        let changed = tighten(&data, Some(&database)).unwrap();
        let reported: Vec<(String, u32)> = changed
            .iter()
            .map(|t| {
                (
                    t.path.file_name().unwrap().to_string_lossy().into_owned(),
                    t.was & 0o777,
                )
            })
            .collect();
        assert_eq!(
            reported,
            [
                ("data".to_owned(), 0o755),
                ("turnpost.db".to_owned(), 0o644),
                ("turnpost.db-wal".to_owned(), 0o644),
                ("turnpost.db-shm".to_owned(), 0o644),
            ]
        );
        assert_eq!(mode(&data), 0o700);
        assert_eq!(mode(&data.join("mail")), 0o700);
        for name in ["turnpost.db", "turnpost.db-wal", "turnpost.db-shm"] {
            assert_eq!(mode(&data.join(name)), 0o600, "{name}");
        }
        // Private already: nothing to do, nothing reported.
        assert!(tighten(&data, Some(&database)).unwrap().is_empty());
        // Missing paths are skipped.
        assert!(tighten(&scratch.join("none"), None).unwrap().is_empty());
        std::fs::remove_dir_all(&scratch).unwrap();
    }
}
