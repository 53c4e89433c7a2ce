use std::path::PathBuf;

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
