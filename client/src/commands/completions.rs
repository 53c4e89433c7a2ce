use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;
use crate::failure::Failure;

/// Runs `turnpost completions SHELL`: the completion script on stdout.
///
/// # Errors
/// Output errors.
pub fn run(shell: Shell) -> Result<(), Failure> {
    let mut command = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "turnpost", &mut out);
    crate::output::print(&String::from_utf8_lossy(&out))?;
    Ok(())
}

/// Runs `turnpost man`: the man page (roff) on stdout.
///
/// # Errors
/// Output errors.
pub fn man() -> Result<(), Failure> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    crate::output::print(&String::from_utf8_lossy(&out))?;
    Ok(())
}
