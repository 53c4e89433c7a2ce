use clap::Subcommand;
use turnpost_shared::api::TokenList;

use crate::failure::Failure;
use crate::output::{print, print_json};
use crate::session::Session;

#[derive(Subcommand, Debug)]
pub enum TokensCommand {
    /// List your API tokens (the default).
    List,
    /// Revoke one of your tokens by id.
    Revoke {
        /// The token's id, from `turnpost tokens`.
        id: i64,
    },
}

/// Runs `turnpost tokens [list|revoke ID]`.
///
/// # Errors
/// Usage failures without a profile; refusals from the server; network failures.
pub fn run(
    command: Option<TokensCommand>,
    profile_flag: Option<&str>,
    json: bool,
) -> Result<(), Failure> {
    let session = Session::open(profile_flag)?;
    match command.unwrap_or(TokensCommand::List) {
        TokensCommand::List => {
            let list: TokenList = session.client.get("/tokens")?;
            if json {
                return Ok(print_json("tokens", &list.tokens)?);
            }
            let mut text = format!(
                "{:>6}  {:<20}  {:<20}  {}\n",
                "ID", "CREATED", "LAST USED", "LABEL"
            );
            for token in &list.tokens {
                text.push_str(&format!(
                    "{:>6}  {:<20}  {:<20}  {}\n",
                    token.id,
                    token.created_at,
                    token.last_used_at.as_deref().unwrap_or("never"),
                    token.label
                ));
            }
            print(&text)?;
        }
        TokensCommand::Revoke { id } => {
            session.client.delete(&format!("/tokens/{id}"))?;
            if json {
                print_json("revoked", &id)?;
            } else {
                print(&format!("Token {id} revoked.\n"))?;
            }
        }
    }
    Ok(())
}
