//! The command line: `serve` (default), `migrate`, `account create`, `account token`,
//! `mail list`, `mail retry`.

use anyhow::Context as _;

use crate::config::{AccountCommand, Cli, Command, Config, MailCommand};
use crate::db::outbox::OutboxStatus;
use crate::mail::operator::{self, RetryTarget};
use crate::{accounts, app, validate};

/// Runs the parsed command line.
///
/// # Errors
/// Whatever the command fails with, with context.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    let config = cli.config;
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => serve(config),
        Command::Migrate => {
            config.validate()?;
            let (_pool, backend, _) = app::open_database(&config)?;
            eprintln!("database ({}) is up to date", backend.name());
            Ok(())
        }
        Command::Account(command) => account(&config, command),
        Command::Mail(command) => mail(&config, command),
    }
}

fn mail(config: &Config, command: MailCommand) -> anyhow::Result<()> {
    config.validate()?;
    let (pool, _, _) = app::open_database(config)?;
    let mut conn = pool.get().context("cannot connect to the database")?;
    match command {
        MailCommand::List { dead, pending } => {
            let status = match (dead, pending) {
                (true, _) => Some(OutboxStatus::Dead),
                (false, true) => Some(OutboxStatus::Pending),
                (false, false) => None,
            };
            print!("{}", operator::list(&mut conn, status)?);
        }
        MailCommand::Retry { id, all_dead } => {
            let target = match (id, all_dead) {
                (_, true) => RetryTarget::AllDead,
                (Some(id), false) => RetryTarget::One(id),
                (None, false) => anyhow::bail!("give a mail id or --all-dead"),
            };
            let queued = operator::retry(&mut conn, target)?;
            eprintln!(
                "{queued} mail(s) queued again; a running server sends them within its poll interval"
            );
        }
    }
    Ok(())
}

fn serve(config: Config) -> anyhow::Result<()> {
    actix_web::rt::System::new().block_on(async move {
        let application = app::Application::build(config).await?;
        application
            .run_until_stopped()
            .await
            .context("HTTP server failed")
    })
}

fn account(config: &Config, command: AccountCommand) -> anyhow::Result<()> {
    config.validate()?;
    let (pool, _, _) = app::open_database(config)?;
    let mut conn = pool.get().context("cannot connect to the database")?;
    let (secret, account) = match command {
        AccountCommand::Create { name, email, label } => {
            let name = validate::account_name(&name)?;
            let email = validate::email(&email)?;
            validate::deliverable_email(&email, config.smtp_utf8)?;
            let label = validate::token_label(Some(&label))?;
            let (secret, _, account) = accounts::create_verified(&mut conn, &name, &email, &label)?;
            (secret, account)
        }
        AccountCommand::Token { name, label } => {
            let label = validate::token_label(Some(&label))?;
            let (secret, _, account) =
                accounts::issue_token_for_name(&mut conn, &name.to_ascii_lowercase(), &label)?;
            (secret, account)
        }
    };
    eprintln!(
        "token for account {} (id {}), shown once:",
        account.name, account.id
    );
    println!("{secret}");
    Ok(())
}
