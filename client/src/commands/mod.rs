pub mod engine;

use crate::cli::{Cli, Command};
use crate::failure::Failure;

/// Runs the parsed command line.
///
/// # Errors
/// A [`Failure`] carrying the message and exit code.
pub fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Engine(command) => engine::run(command),
    }
}
