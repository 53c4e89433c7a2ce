use clap::{Parser, Subcommand};

use crate::commands::engine::EngineCommand;

const EXIT_CODES: &str = "\
Exit codes:
  0  done
  1  refused by the rules or the server (illegal move, not your turn, stale ply)
  2  usage or configuration error
  3  network or server failure";

/// Play turnpost games from the shell: correspondence games of Kefren, Kechi, SanQi and
/// Chinese Checkers.
#[derive(Parser, Debug)]
#[command(name = "turnpost", version, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Explore positions offline, without a server: legal moves, perft, board, status.
    #[command(subcommand)]
    Engine(EngineCommand),
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
