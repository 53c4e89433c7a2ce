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

/// Dependencies whose debug and trace lines carry request paths or heads.
const QUIET_BELOW_INFO: [&str; 3] = ["actix_web", "actix_http", "actix_server"];

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let parsed = turnpost_server::cli::parse(args.clone());
    // An MTA's pipe: its own log, exit codes and one line on stderr, even when the command
    // line or the configuration is refused.
    if turnpost_server::cli::mail_in::asked(&parsed, &args) {
        return ExitCode::from(turnpost_server::cli::mail_in::main(parsed));
    }
    let loaded = match parsed {
        Ok(loaded) => loaded,
        Err(LoadError::Usage(error)) => error.exit(),
        Err(error) => {
            eprintln!("turnpost-server: {error}");
            return ExitCode::from(EX_CONFIG);
        }
    };
    let mut filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    // Below info, actix logs what the client sent (a refused path parameter with the whole
    // path, request heads): a sign-in or play link's secret. Whatever RUST_LOG asks, they stay
    // at info; the access line says what was asked without the secrets.
    for quiet in QUIET_BELOW_INFO {
        if let Ok(directive) = format!("{quiet}=info").parse() {
            filter = filter.add_directive(directive);
        }
    }
    let spans = tracing_subscriber::fmt::format::FmtSpan::CLOSE;
    // A log line that cannot be written (stderr closed: `serve 2>&1 | head -2`) is dropped:
    // tracing's own report of it would go to stderr with `eprintln!`, which panics there.
    match loaded.cli.config.log_format {
        LogFormat::Text => tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_ansi(std::io::stderr().is_terminal())
            .with_span_events(spans)
            .with_env_filter(filter)
            .log_internal_errors(false)
            .init(),
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .with_writer(std::io::stderr)
            .with_span_events(spans)
            .with_env_filter(filter)
            .log_internal_errors(false)
            .init(),
    }
    match turnpost_server::cli::run(loaded) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!(
                "turnpost-server: {}",
                turnpost_server::cli::error_text(&error)
            );
            ExitCode::from(exit_code(&error))
        }
    }
}
