//! turnpost-server: read the command line and configuration, set up logging, run.

use std::io::IsTerminal as _;
use std::process::ExitCode;

use tracing_subscriber::EnvFilter;
use turnpost_server::cli::{exit_code, EX_CONFIG};
use turnpost_server::config::{LoadError, LogFormat};

// Requests allocate and free many small buffers across threads (the HTTP workers, the
// blocking pool, the mail sessions); glibc's allocator spent about a tenth of the server's
// CPU under load consolidating its arenas, mimalloc much less.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let loaded = match turnpost_server::cli::parse(std::env::args_os()) {
        Ok(loaded) => loaded,
        Err(LoadError::Usage(error)) => error.exit(),
        Err(error) => {
            eprintln!("turnpost-server: {error}");
            return ExitCode::from(EX_CONFIG);
        }
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let spans = tracing_subscriber::fmt::format::FmtSpan::CLOSE;
    match loaded.cli.config.log_format {
        LogFormat::Text => tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_ansi(std::io::stderr().is_terminal())
            .with_span_events(spans)
            .with_env_filter(filter)
            .init(),
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .with_writer(std::io::stderr)
            .with_span_events(spans)
            .with_env_filter(filter)
            .init(),
    }
    match turnpost_server::cli::run(loaded) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("turnpost-server: {error:#}");
            ExitCode::from(exit_code(&error))
        }
    }
}
