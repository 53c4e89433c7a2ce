//! turnpost-server: parse the command line, set up logging, run.

use std::io::IsTerminal as _;
use std::process::ExitCode;

use clap::Parser as _;
use tracing_subscriber::EnvFilter;

// Requests allocate and free many small buffers across threads (the HTTP workers, the
// blocking pool, the mail sessions); glibc's allocator spent about a tenth of the server's
// CPU under load consolidating its arenas, mimalloc much less.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = turnpost_server::config::Cli::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    match turnpost_server::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("turnpost-server: {error:#}");
            if error.is::<turnpost_server::cli::TempFail>() {
                ExitCode::from(turnpost_server::inbound::feed::EX_TEMPFAIL)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
