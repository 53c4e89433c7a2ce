mod claim;
mod complete_moves;
mod completions;
pub mod engine;
mod engine_bot;
mod engine_match;
mod engine_play;
mod engine_replay;
pub mod game_actions;
mod game_info;
pub mod list;
mod login;
mod logout;
mod new;
mod notifications;
mod play;
mod rules;
mod sign_in;
mod signup;
pub mod tokens;
mod vacation;
mod wait;
mod whoami;

pub use complete_moves::{run as complete_moves, NAME as COMPLETE_MOVES};
pub use list::GamesArgs;
pub use login::LoginArgs;
pub use new::NewArgs;
pub use notifications::NotificationsArgs;
pub use play::MoveArgs;
pub use signup::SignupArgs;
pub use wait::WaitArgs;

use game_actions::Action;

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
        Command::Engine(command) => engine::run(command, json),
        Command::Rules { kind } => rules::run(kind, json),
        Command::Signup(args) => signup::run(args, profile, json),
        Command::Login(args) => login::run(args, profile, json),
        Command::Logout => logout::run(profile, json),
        Command::Whoami => whoami::run(profile, json),
        Command::Tokens { command } => tokens::run(command, profile, json),
        Command::New(args) => new::run(args, profile, json),
        Command::Invites => list::invites(profile, json),
        Command::Accept { id } => game_actions::act(Action::Accept, id, profile, json),
        Command::Decline { id } => game_actions::act(Action::Decline, id, profile, json),
        Command::Games(args) => list::run(args, profile, json),
        Command::Next => wait::next(profile, json),
        Command::Show { id } => game_actions::show(id, profile, json),
        Command::Moves { id } => game_info::moves(id, profile, json),
        Command::Move(args) => play::run(args, profile, json),
        Command::History { id } => game_info::history(id, profile, json),
        Command::Record { id } => game_info::record(id, profile, json),
        Command::Board { id, svg } => game_info::board(id, svg, profile, json),
        Command::Resign { id, yes } => game_actions::resign(id, yes, profile, json),
        Command::Draw { action, id } => game_actions::draw(action, id, profile, json),
        Command::Wait(args) => wait::run(args, profile, json),
        Command::Claim { id } => claim::run(id, profile, json),
        Command::Vacation { days } => vacation::run(days, profile, json),
        Command::Notifications(args) => notifications::run(&args, profile, json),
        Command::Completions { shell } => completions::run(shell),
        Command::Man => completions::man(),
    }
}
