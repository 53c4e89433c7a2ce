//! `turnpost`: play turnpost games from the shell. See `turnpost --help`.
//!
//! Modules point one way: `commands` (each subcommand's arguments and run) below `cli` (the
//! command line made of them) below `shell` (completions and the man page, made from the
//! whole command line); `main` parses and runs.

mod api_client;
mod cli;
mod clock_display;
mod commands;
mod config_dir;
mod event_stream;
mod failure;
mod game_display;
mod interrupt;
mod machine_time_zone;
mod move_listing;
mod output;
mod profiles;
mod session;
mod shell;
mod terminal_text;

use std::process::ExitCode;

use clap::Parser;

use cli::{BotCommand, Cli, Command};
use commands::game_actions::{self, Action};
use commands::{
    account, bot_run, claim, conditional, engine, game_info, list, login, logout, mutes, new,
    notifications, open_challenges, play, ratings, rules, signup, tokens, tournament, vacation,
    wait, watch, webhooks, whoami,
};
use failure::Failure;

fn main() -> ExitCode {
    // The entry point of the completion scripts is no command of the CLI, so that neither
    // `--help` nor the completions generated from the CLI definition offer it.
    if std::env::args_os()
        .nth(1)
        .is_some_and(|arg| arg == shell::COMPLETE_MOVES)
    {
        shell::complete_moves(std::env::args_os().skip(1));
        return ExitCode::SUCCESS;
    }
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}

/// Runs the parsed command line.
///
/// # Errors
/// A [`Failure`] carrying the message and exit code.
fn run(cli: Cli) -> Result<(), Failure> {
    let profile = cli.profile.as_deref();
    let json = cli.json;
    match cli.command {
        Command::Engine(command) => engine::run(command, json),
        Command::Rules { kind } => rules::run(kind, json),
        Command::Signup(args) => signup::run(args, profile, json),
        Command::Login(args) => login::run(args, profile, json),
        Command::Logout => logout::run(profile, json),
        Command::Whoami => whoami::run(profile, json),
        Command::Account { command } => account::run(&command, profile, json),
        Command::Bot {
            command: BotCommand::Run(args),
        } => bot_run::run(args, profile, json),
        Command::Tokens { command } => tokens::run(command, profile, json),
        Command::Webhooks { command } => webhooks::run(command, profile, json),
        Command::New(args) => new::run(args, profile, json),
        Command::Invites => list::invites(profile, json),
        Command::Accept { id, message } => {
            game_actions::act(Action::Accept, id, message.as_deref(), profile, json)
        }
        Command::Decline { id } => game_actions::act(Action::Decline, id, None, profile, json),
        Command::Seek(args) => open_challenges::seek(args, profile, json),
        Command::Challenges { kind, before } => open_challenges::list(kind, before, profile, json),
        Command::Join { id } => open_challenges::join(id, false, profile, json),
        Command::Leave { id } => open_challenges::join(id, true, profile, json),
        Command::Rematch { id } => open_challenges::rematch(id, profile, json),
        Command::Tournament { command } => tournament::run(command, profile, json),
        Command::Games(args) => list::run(args, profile, json),
        Command::Next => wait::next(profile, json),
        Command::Show { id } => game_actions::show(id, profile, json),
        Command::Moves { id, all } => game_info::moves(id, all, profile, json),
        Command::Move(args) => play::run(args, profile, json),
        Command::If(args) => conditional::run(args, profile, json),
        Command::History { id } => game_info::history(id, profile, json),
        Command::Record { id } => game_info::record(id, profile, json),
        Command::Board { id, svg } => game_info::board(id, svg, profile, json),
        Command::Resign { id, yes, message } => {
            game_actions::resign(id, yes, message.as_deref(), profile, json)
        }
        Command::Draw {
            action,
            id,
            message,
        } => game_actions::draw(action, id, message.as_deref(), profile, json),
        Command::Mute(args) => mutes::run(&args, true, profile, json),
        Command::Unmute(args) => mutes::run(&args, false, profile, json),
        Command::Wait(args) => wait::run(args, profile, json),
        Command::Watch(args) => watch::run(&args, profile, json),
        Command::Claim { id } => claim::run(id, profile, json),
        Command::Vacation { days } => vacation::run(days, profile, json),
        Command::Ratings { kind, player, page } => ratings::run(
            kind.as_deref(),
            player.as_deref(),
            page.unwrap_or(1),
            profile,
            json,
        ),
        Command::Notifications(args) => notifications::run(&args, profile, json),
        Command::Completions { shell } => shell::completions(shell),
        Command::Man => shell::man(),
    }
}
