//! `turnpost`: play turnpost games from the shell. See `turnpost --help`.

mod api_client;
mod cli;
mod commands;
mod config_dir;
mod failure;
mod game_display;
mod output;
mod profiles;
mod session;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
