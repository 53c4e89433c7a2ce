mod completions;
pub mod engine;
mod login;
mod logout;
mod sign_in;
mod signup;
pub mod tokens;
mod whoami;

pub use login::LoginArgs;
pub use signup::SignupArgs;

use crate::cli::{Cli, Command};
use crate::failure::Failure;

/// Runs the parsed command line.
///
/// # Errors
/// A [`Failure`] carrying the message and exit code.
pub fn run(cli: Cli) -> Result<(), Failure> {
    let profile = cli.profile.as_deref();
    let json = cli.json;
    match cli.command {
        Command::Engine(command) => engine::run(command),
        Command::Signup(args) => signup::run(args, profile, json),
        Command::Login(args) => login::run(args, profile, json),
        Command::Logout => logout::run(profile, json),
        Command::Whoami => whoami::run(profile, json),
        Command::Tokens { command } => tokens::run(command, profile, json),
        Command::Completions { shell } => completions::run(shell),
        Command::Man => completions::man(),
    }
}
