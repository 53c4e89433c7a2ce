use std::fmt;
use std::process::ExitCode;

/// Why a command did not do what was asked, and the exit code that says so
/// (documented in `turnpost --help`).
#[derive(Debug)]
pub struct Failure {
    pub kind: FailureKind,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// Refused by the rules or the server (illegal move, not your turn, stale): exit 1.
    Refused,
    /// Bad usage or configuration: exit 2.
    Usage,
    /// The output stream closed early (e.g. `| head`): not an error, exit 0.
    BrokenPipe,
}

impl Failure {
    pub fn refused(message: impl fmt::Display) -> Failure {
        Failure {
            kind: FailureKind::Refused,
            message: message.to_string(),
        }
    }

    pub fn usage(message: impl fmt::Display) -> Failure {
        Failure {
            kind: FailureKind::Usage,
            message: message.to_string(),
        }
    }

    /// Prints the message to stderr and gives the exit code.
    pub fn report(self) -> ExitCode {
        let code = match self.kind {
            FailureKind::BrokenPipe => return ExitCode::SUCCESS,
            FailureKind::Refused => 1,
            FailureKind::Usage => 2,
        };
        eprintln!("turnpost: {}", self.message);
        ExitCode::from(code)
    }
}

impl From<std::io::Error> for Failure {
    fn from(error: std::io::Error) -> Failure {
        if error.kind() == std::io::ErrorKind::BrokenPipe {
            Failure {
                kind: FailureKind::BrokenPipe,
                message: String::new(),
            }
        } else {
            Failure::usage(format!("cannot write output: {error}"))
        }
    }
}
