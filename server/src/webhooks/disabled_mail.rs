//! The mail to a webhook's owner when it is switched off after failing for three days (an
//! account mail, through the outbox like every other).

use crate::db::webhooks::EndpointRow;
use crate::db::{accounts, DbConnection, DbError};
use crate::mail::{self, ComposedMail, MailLane, NewMail};
use crate::mail_context::MailContext;

/// Queues the notice that `endpoint` was switched off, on the caller's connection.
///
/// # Errors
/// Storage failures.
pub fn queue(
    conn: &mut DbConnection,
    ctx: &MailContext,
    endpoint: &EndpointRow,
    last_error: &str,
) -> Result<(), DbError> {
    let Some(owner) = accounts::by_id(conn, endpoint.account_id)? else {
        return Ok(());
    };
    if owner.is_bot() {
        return Ok(());
    }
    let settings = format!("{}/settings#webhooks", ctx.public_url);
    let mail = NewMail {
        to: owner.email.clone(),
        mail: ComposedMail::plain(
            "Your turnpost webhook was switched off".to_owned(),
            format!(
                "Hello {name},\n\n\
                 every delivery to your webhook #{id} has failed for three days, so it is\n\
                 switched off and nothing more is sent to it:\n\n    {url}\n\n\
                 The last attempt: {last_error}\n\n\
                 When it works again, send a test delivery from your settings (it switches the\n\
                 webhook on again), or `turnpost webhooks test {id}`:\n\n    {settings}\n\n\
                 -- \nturnpost\n{site}\n",
                name = owner.name,
                id = endpoint.id,
                url = endpoint.url,
                site = ctx.public_url,
            ),
        ),
    };
    mail::enqueue_in(conn, &ctx.message_id_domain, &mail, MailLane::Account)?;
    Ok(())
}
