//! `turnpost account engine [on|off]`: show or change whether the signed-in account is an
//! engine account (`PUT /v1/me/engine`), one whose moves an outside program makes through
//! `turnpost bot run`. Its pages say so, so people know whom they play against.

use clap::{Subcommand, ValueEnum};
use serde::{Deserialize, Serialize};

use crate::failure::Failure;
use crate::output::{print, print_json};
use crate::session::Session;

#[derive(Subcommand, Debug)]
pub enum AccountCommand {
    /// Show whether this account is an engine account, or mark it (`on`) or unmark it (`off`).
    ///
    /// `turnpost bot run` plays only for an engine account; the account's pages then say
    /// that a program plays it.
    Engine {
        /// `on`: an outside program plays this account; `off`: a person does. Without it,
        /// shows the setting.
        state: Option<Switch>,
    },
}

/// On or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    On,
    Off,
}

/// The body of `GET`/`PUT /v1/me/engine`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct EngineSetting {
    /// Whether the account is an engine account.
    pub engine: bool,
}

/// Whether the session's account is an engine account.
///
/// # Errors
/// Refusals (a server without engine accounts answers 404); network failures.
pub fn engine_setting(session: &Session) -> Result<EngineSetting, Failure> {
    session.client.get("/me/engine")
}

/// Runs `turnpost account …`.
///
/// # Errors
/// Usage failures without a profile; refusals and network failures.
pub fn run(command: &AccountCommand, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let AccountCommand::Engine { state } = command;
    let setting = match state {
        Some(state) => session.client.put(
            "/me/engine",
            &EngineSetting {
                engine: *state == Switch::On,
            },
        )?,
        None => engine_setting(&session)?,
    };
    if json {
        return Ok(print_json("account", &setting)?);
    }
    let text = if setting.engine {
        "This account is an engine account: `turnpost bot run --engine CMD` plays its games, and \
         its pages say that a program plays it.\n"
    } else {
        "This account is played by a person (`turnpost account engine on` marks it as an engine \
         account, so that `turnpost bot run` may play it).\n"
    };
    Ok(print(text)?)
}
