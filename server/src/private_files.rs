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
