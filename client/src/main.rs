//! `turnpost`: play turnpost games from the shell. See `turnpost --help`.

mod api_client;
mod cli;
mod clock_display;
mod commands;
mod config_dir;
mod failure;
mod game_display;
mod machine_time_zone;
mod output;
mod profiles;
mod session;
mod terminal_text;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // The entry point of the completion scripts is no command of the CLI, so that neither
    // `--help` nor the completions generated from the CLI definition offer it.
    if std::env::args_os()
        .nth(1)
        .is_some_and(|arg| arg == commands::COMPLETE_MOVES)
    {
        commands::complete_moves(std::env::args_os().skip(1));
        return ExitCode::SUCCESS;
    }
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
