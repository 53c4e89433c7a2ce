use std::path::{Path, PathBuf};

use etcetera::BaseStrategy;

use crate::failure::Failure;

/// Where profiles and tokens live: `TURNPOST_CONFIG_DIR`, else `$XDG_CONFIG_HOME/turnpost`
/// (`~/.config/turnpost`).
///
/// # Errors
/// A usage failure when no home directory can be found.
pub fn config_dir() -> Result<PathBuf, Failure> {
    if let Some(dir) = std::env::var_os("TURNPOST_CONFIG_DIR").filter(|dir| !dir.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    let strategy = etcetera::choose_base_strategy().map_err(|error| {
        Failure::usage(format!(
            "cannot find the configuration directory ({error}); set TURNPOST_CONFIG_DIR"
        ))
    })?;
    Ok(strategy.config_dir().join("turnpost"))
}

/// Creates `dir` and whichever of its parents are missing, each readable by its owner only
/// (0700 on Unix): tokens live in there. The mode is set after creating, so the umask cannot
/// loosen it; directories that already exist keep theirs (the user chose them).
///
/// # Errors
/// The I/O error of the directory that cannot be created or made private.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let missing: Vec<&Path> = dir.ancestors().take_while(|path| !path.exists()).collect();
    for path in missing.into_iter().rev() {
        if path.as_os_str().is_empty() {
            continue;
        }
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt as _;
            builder.mode(0o700);
        }
        match builder.create(path) {
            Ok(()) => {}
            // Made by someone else meanwhile: theirs, as an existing directory is.
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(error),
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o700))?;
        }
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use std::os::unix::fs::PermissionsExt as _;

    use super::create_private_dir;

    fn mode(path: &std::path::Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn missing_directories_are_made_private_and_existing_ones_kept() {
        let scratch = tempfile::tempdir().unwrap();
        std::fs::set_permissions(scratch.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let tokens = scratch.path().join("turnpost").join("tokens");
        create_private_dir(&tokens).unwrap();
        assert_eq!(mode(&tokens), 0o700);
        assert_eq!(mode(tokens.parent().unwrap()), 0o700);
        assert_eq!(
            mode(scratch.path()),
            0o755,
            "an existing directory keeps its mode"
        );
        create_private_dir(&tokens).unwrap();
    }
}
