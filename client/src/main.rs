//! `turnpost`: play turnpost games from the shell. See `turnpost --help`.

mod cli;
mod commands;
mod failure;
mod output;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => failure.report(),
    }
}
