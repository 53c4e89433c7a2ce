//! Start-up: configuration → database (migrated) → mail transport → HTTP server, mail composer
//! and delivery worker, sweeper and bot worker.
//! Tests build an [`Application`] on port 0 and talk to it over real HTTP.

mod access_log;
mod connection_budget;
mod json_or_page;
pub mod openapi;
pub mod request_body;
mod request_metrics;
mod security_headers;

use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::{Server, ServerHandle};
use actix_web::{web, App, HttpServer};
use anyhow::Context as _;
use tokio::sync::{watch, Notify};

use crate::bots::BotWorker;
use crate::config::{describe_database, Config};
use crate::db::{self, Backend, Pool};
use crate::http::ratelimit::{LimitSettings, Limits};
use crate::http::state::AppState;
use crate::mail::{OutboxWorker, Transport};
use crate::mail_context::MailContext;
use crate::notify::Composer;
use crate::sweeps::SweepWorker;
use crate::worker_threads::overdue_catch_up::CatchUp;

/// Largest JSON body accepted, in bytes.
pub const JSON_LIMIT: usize = 16 * 1024;

/// Opens the configured database, runs pending migrations, and reads the key that signs
/// unsubscribe links (made on first use).
///
/// # Errors
/// Unusable configuration, unreachable database, failed migration.
pub fn open_database(config: &Config) -> anyhow::Result<(Pool, Backend, Vec<u8>)> {
    open_database_with(config, db::migrate::Policy::default())
}

/// [`open_database`], treating migrations as `policy` asks (`--no-migrate`,
/// `--allow-newer-database`).
///
/// # Errors
/// As [`open_database`]; a database a newer binary migrated; migrations due with
/// `--no-migrate`.
pub fn open_database_with(
    config: &Config,
    policy: db::migrate::Policy,
) -> anyhow::Result<(Pool, Backend, Vec<u8>)> {
    let target = config.database_target()?;
    let pool = db::connect(&target, config.db_pool_size)
        .with_context(|| format!("cannot open the database {}", describe_database(&target)))?;
    make_private(config, &target)?;
    // One direct connection first: fails at once with the backend's own message.
    let mut conn = db::establish(&target).with_context(|| {
        format!(
            "cannot connect to the database {}",
            describe_database(&target)
        )
    })?;
    let backend = conn.backend();
    // Processes starting together on a new SQLite file: a step can still meet "database is
    // locked" at once, past the busy timeout (SQLite does not wait where waiting could
    // deadlock, as when switching to WAL; seen once in five starting together). Each step is
    // safe to take again: the pragmas, migrations (each in its own transaction) and the keys
    // (made by whoever inserts first).
    let mut tries = 0;
    let link_key = loop {
        tries += 1;
        match prepare(&mut conn, policy) {
            Err(error) if tries < 20 && is_locked(&error) => {
                tracing::debug!(tries, "database locked while starting; trying again");
                std::thread::sleep(std::time::Duration::from_millis(100 * tries));
            }
            other => break other?,
        }
    };
    Ok((pool, backend, link_key))
}

/// The start-up steps on the first connection: SQLite's pragmas, migrations, the link key.
fn prepare(conn: &mut db::DbConnection, policy: db::migrate::Policy) -> anyhow::Result<Vec<u8>> {
    if let db::DbConnection::Sqlite(sqlite) = conn {
        use diesel::connection::SimpleConnection as _;
        // The busy timeout first: switching to WAL takes a lock that another process starting
        // on the same file may hold.
        sqlite.batch_execute(
            "PRAGMA busy_timeout = 10000; PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;",
        )?;
    }
    let ran = db::migrate::apply(conn, policy)?;
    if ran > 0 {
        tracing::info!(migrations = ran, "database migrated");
    }
    Ok(crate::preferences::unsubscribe::load_key(conn)?)
}

/// Whether `error` is SQLite's "database is locked" (`SQLITE_BUSY`), anywhere in its chain.
fn is_locked(error: &anyhow::Error) -> bool {
    error
        .chain()
        .any(|cause| cause.to_string().contains("database is locked"))
}

/// Takes from other users what they could read of turnpost's files (see
/// [`crate::private_files::tighten`]), saying so in the log.
fn make_private(config: &Config, target: &crate::config::DatabaseTarget) -> anyhow::Result<()> {
    let database = match target {
        crate::config::DatabaseTarget::Sqlite(path) => Some(path.as_path()),
        crate::config::DatabaseTarget::Postgres(_) => None,
    };
    for changed in crate::private_files::tighten(&config.data_dir, database)? {
        tracing::warn!(
            path = %changed.path.display(),
            was = format!("{:o}", changed.was & 0o777),
            "made private: other users could read it, and it holds secrets"
        );
    }
    Ok(())
}

/// The mail transport the configuration asks for.
///
/// # Errors
/// A refused `SMTP_URL`.
pub fn mail_transport(config: &Config) -> anyhow::Result<Transport> {
    Ok(match &config.smtp_url {
        Some(url) => Transport::smtp(url, config.smtp_allow_plain)?,
        None => Transport::Files(config.data_dir.join("mail")),
    })
}

/// A running server: HTTP API plus mail worker.
pub struct Application {
    port: u16,
    server: Server,
    pool: Pool,
    backend: Backend,
    worker: tokio::task::JoinHandle<()>,
    composer: tokio::task::JoinHandle<()>,
    log_tail: tokio::task::JoinHandle<()>,
    webhooks: tokio::task::JoinHandle<()>,
    push: tokio::task::JoinHandle<()>,
    stop_streams: watch::Sender<bool>,
    sweeper: Option<tokio::task::JoinHandle<()>>,
    bots: Option<tokio::task::JoinHandle<()>>,
    imap: Option<std::thread::JoinHandle<()>>,
    lmtp: Option<tokio::task::JoinHandle<()>>,
    commit_listener: Option<std::thread::JoinHandle<()>>,
    stop_threads: Arc<AtomicBool>,
    stop_worker: watch::Sender<bool>,
    signals: StopSignals,
}

/// SIGTERM and SIGINT (Ctrl-C), registered at start-up.
struct StopSignals {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
}

impl StopSignals {
    fn install() -> std::io::Result<Self> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            Ok(Self {
                term: signal(SignalKind::terminate())?,
                int: signal(SignalKind::interrupt())?,
            })
        }
        #[cfg(not(unix))]
        {
            Ok(Self {})
        }
    }

    async fn recv(mut self) {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.term.recv() => {}
                _ = self.int.recv() => {}
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

impl Application {
    /// Validates `config`, migrates the database, binds the listener (port 0 picks one) and
    /// starts the mail worker. Call inside an actix system (`#[actix_web::main]` /
    /// `#[actix_web::test]`); the HTTP server runs once [`Application::run_until_stopped`] is
    /// awaited (or spawned).
    ///
    /// # Errors
    /// Invalid configuration, unreachable database, failed migration, address in use.
    pub async fn build(config: Config) -> anyhow::Result<Self> {
        Self::build_with(config, db::migrate::Policy::default()).await
    }

    /// [`Application::build`], treating migrations as `policy` asks.
    ///
    /// # Errors
    /// As [`Application::build`]; a database a newer binary migrated; migrations due with
    /// `--no-migrate`.
    pub async fn build_with(config: Config, policy: db::migrate::Policy) -> anyhow::Result<Self> {
        config.validate()?;
        crate::inbound::settings::check(&config)?;
        let cfg = config.clone();
        let (pool, backend, link_key, reply, vapid) = tokio::task::spawn_blocking(move || {
            let (pool, backend, link_key) = open_database_with(&cfg, policy)?;
            let mut conn = pool.get().context("cannot connect to the database")?;
            let reply = crate::reply_address::ReplyKeys::load(&mut conn, &cfg)?;
            // Web push's key pair: made on the first start, then the same for every process.
            let vapid = crate::push::VapidKey::load(&mut conn).context("the VAPID key")?;
            anyhow::Ok((pool, backend, link_key, reply, vapid))
        })
        .await
        .context("database start-up task failed")??;
        let transport = Arc::new(mail_transport(&config)?);
        let from: lettre::message::Mailbox =
            config.mail_from.parse().context("TURNPOST_MAIL_FROM")?;
        let wake = Arc::new(Notify::new());
        let openapi = crate::app::openapi::document();
        let live = Arc::new(crate::live::Hub::new(crate::live::StreamCaps {
            per_owner: config.streams_per_account,
            per_process: config.streams_per_process,
        }));
        let (stop_streams, live_stopping) = watch::channel(false);
        // The server is gone once nothing holds its streams' hub.
        let server_alive = Arc::downgrade(&live);
        let listener = TcpListener::bind(&config.listen)
            .with_context(|| format!("cannot listen on {}", config.listen))?;
        let address = listener.local_addr()?;
        // Webhooks never reach this server itself (nor private networks) unless allowed.
        let outbound = Arc::new(crate::webhooks::OutboundPolicy {
            allow: config.outbound_allow.clone(),
            allow_http: config.outbound_allow_http,
            own: Some(address),
        });
        let state = web::Data::new(AppState {
            pool: pool.clone(),
            backend,
            open_signup: config.open_signup,
            smtp_utf8: config.smtp_utf8,
            mail: MailContext {
                message_id_domain: config.message_id_domain(),
                public_url: config.public_base_url()?,
                wake,
                link_key: link_key.into(),
                reply,
            },
            limits: Limits::new(LimitSettings {
                per_email: config.rate_limit_per_email,
                per_client: config.rate_limit_per_client,
                challenges_per_account: config.challenges_per_hour,
                challenges_per_recipient: config.challenges_received_per_hour,
                proxies: config.trusted_proxies.clone(),
                proxy_header: config.proxy_header,
            }),
            bot_games_cap: crate::games::challenge::BotGamesCap(config.bot_games_per_account),
            openapi_json: openapi
                .to_json()
                .context("serialising the OpenAPI document")?,
            docs_html: crate::web::docs_html(&openapi),
            metrics: config.metrics,
            live: live.clone(),
            live_stopping,
            outbound: outbound.clone(),
            vapid: Arc::new(vapid),
        });

        let sweep_mail = state.mail.clone();
        let bot_mail = state.mail.clone();
        let composer_mail = state.mail.clone();
        let inbound_mail = state.mail.clone();
        let webhook_mail = state.mail.clone();
        let push_worker = crate::push::PushWorker {
            pool: pool.clone(),
            policy: outbound.clone(),
            vapid: state.vapid.clone(),
            // The push service's way to reach the operator (RFC 8292 `sub`).
            contact: format!("mailto:{}", from.email),
            site: state.mail.public_url.clone(),
            retry: config.outbox_settings(),
            poll: config
                .outbox_settings()
                .poll_interval
                .max(Duration::from_millis(200)),
        };
        // The notifying channels' consumers take their place in the log before the first
        // request: a first read after the server's first events would start past them.
        {
            let mut conn = pool.get().map_err(db::DbError::from)?;
            for name in [
                crate::push::PUSH_CONSUMER,
                crate::webhooks::WEBHOOKS_CONSUMER,
            ] {
                db::events::LogConsumer::new(name).take_place(&mut conn)?;
            }
        }
        let lmtp_mail = state.mail.clone();
        let body_deadline = Duration::from_millis(config.request_body_timeout_ms);
        let workers = std::thread::available_parallelism().map_or(1, usize::from);
        let open_files = crate::app::connection_budget::raise_open_files_limit();
        let per_worker = crate::app::connection_budget::per_worker(open_files, workers);
        tracing::debug!(?open_files, workers, ?per_worker, "connections per worker");
        let server = HttpServer::new(move || {
            App::new()
                .wrap(actix_web::middleware::from_fn(crate::web::resolve_viewer))
                .wrap(actix_web::middleware::from_fn(move |req, next| {
                    crate::app::request_body::read_within(body_deadline, req, next)
                }))
                .wrap(actix_web::middleware::from_fn(
                    crate::app::security_headers::security_headers,
                ))
                .wrap(actix_web::middleware::from_fn(
                    crate::app::access_log::access_log,
                ))
                .wrap(actix_web::middleware::from_fn(
                    crate::app::request_metrics::request_metrics,
                ))
                .app_data(state.clone())
                .app_data(
                    web::JsonConfig::default()
                        .limit(JSON_LIMIT)
                        .error_handler(crate::http::error::json_error),
                )
                .app_data(web::PathConfig::default().error_handler(crate::http::error::path_error))
                .app_data(web::QueryConfig::default().error_handler(json_or_page::query_error))
                .app_data(
                    web::FormConfig::default()
                        .limit(JSON_LIMIT)
                        .error_handler(crate::web::form_error),
                )
                .configure(crate::routes::configure)
                .configure(crate::web::configure)
                .default_service(web::to(json_or_page::not_found))
        })
        .shutdown_timeout(30)
        .workers(workers);
        let server = match per_worker {
            Some(connections) => server.max_connections(connections),
            None => server,
        }
        .disable_signals()
        .listen(listener)?
        .run();

        // Installed before the start-up line, so a SIGTERM right after it is already graceful.
        let signals = StopSignals::install()?;
        let (stop_worker, stop_rx) = watch::channel(false);
        let settings = config.outbox_settings();
        // The composer waits on the wake of every commit that leaves mail; delivery on its own
        // wake, which the composer rings once the mail is composed.
        let deliver = Arc::new(Notify::new());
        let composer = Composer {
            pool: pool.clone(),
            ctx: composer_mail,
            deliver: deliver.clone(),
            poll_interval: settings.poll_interval,
            threads: config.composer_threads(),
            catch_up: CatchUp::after(config.mail_catch_up()),
        };
        let worker = OutboxWorker {
            pool: pool.clone(),
            transport: transport.clone(),
            from,
            settings,
            wake: deliver,
            catch_up: CatchUp::after(config.mail_catch_up()),
        };
        let sweeper = (config.sweep_interval_ms > 0).then(|| {
            let sweeper = SweepWorker {
                pool: pool.clone(),
                mail: sweep_mail,
                interval: Duration::from_millis(config.sweep_interval_ms),
                event_retention: Duration::from_secs(
                    u64::from(config.event_retention_hours) * 3600,
                ),
            };
            tokio::spawn(sweeper.run(stop_rx.clone()))
        });
        let bots = if config.bot_poll_ms > 0 {
            let bots = BotWorker::start(
                pool.clone(),
                bot_mail,
                Duration::from_millis(config.bot_poll_ms),
            )?;
            Some(tokio::spawn(bots.run(stop_rx.clone())))
        } else {
            None
        };
        let composer = tokio::spawn(composer.run(stop_rx.clone()));
        let log_tail = tokio::spawn(crate::live::run_log_tail(
            live,
            pool.clone(),
            stop_rx.clone(),
        ));
        let lmtp = match &config.lmtp_listen {
            Some(listen) => {
                let listener = std::net::TcpListener::bind(listen)
                    .with_context(|| format!("cannot listen for LMTP on {listen}"))?;
                listener.set_nonblocking(true)?;
                let listener = tokio::net::TcpListener::from_std(listener)?;
                tracing::info!("LMTP listening on {}", listener.local_addr()?);
                let lmtp = crate::lmtp::Lmtp {
                    pool: pool.clone(),
                    hostname: lmtp_mail.message_id_domain.clone(),
                    ctx: lmtp_mail,
                    settings: crate::inbound::settings::handler_settings(&config)?,
                };
                Some(tokio::spawn(crate::lmtp::run(
                    listener,
                    lmtp,
                    stop_rx.clone(),
                )))
            }
            None => None,
        };
        let webhooks = tokio::spawn(
            crate::webhooks::WebhookWorker {
                pool: pool.clone(),
                policy: outbound,
                mail: webhook_mail,
                retry: settings,
                poll: settings.poll_interval.max(Duration::from_millis(200)),
            }
            .run(stop_rx.clone()),
        );
        let push = tokio::spawn(push_worker.run(stop_rx.clone()));
        let worker = tokio::spawn(worker.run(stop_rx));
        let stop_threads = Arc::new(AtomicBool::new(false));
        let commit_listener = crate::worker_threads::commit_listener::start(
            &config.database_target()?,
            stop_threads.clone(),
            server_alive,
        )
        .context("cannot start the commit listener")?;
        let imap = match crate::inbound::settings::imap_watch(&config)? {
            Some(watch) => {
                let pool = pool.clone();
                let stop = stop_threads.clone();
                let settings = crate::inbound::settings::handler_settings(&config)?;
                Some(
                    std::thread::Builder::new()
                        .name("imap-watch".into())
                        .spawn(move || {
                            crate::inbound::feed::watch_mailbox(
                                &watch,
                                &pool,
                                &inbound_mail,
                                &settings,
                                &stop,
                            );
                        })
                        .context("cannot start the IMAP watcher")?,
                )
            }
            None => None,
        };

        tracing::info!(
            "turnpost-server listening on http://{address}; database: {}; mail: {}",
            describe_database(&config.database_target()?),
            transport.describe()
        );
        Ok(Self {
            port: address.port(),
            server,
            pool,
            backend,
            worker,
            composer,
            log_tail,
            webhooks,
            push,
            stop_streams,
            sweeper,
            bots,
            imap,
            lmtp,
            commit_listener,
            stop_threads,
            stop_worker,
            signals,
        })
    }

    /// The bound port.
    #[must_use]
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The database pool (tests inspect the outbox through it).
    #[must_use]
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// The database backend.
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// A handle to stop the HTTP server gracefully.
    #[must_use]
    pub fn handle(&self) -> ServerHandle {
        self.server.handle()
    }

    /// Serves until SIGINT/SIGTERM or [`ServerHandle::stop`]: in-flight requests finish (up to
    /// 30 s), then the mail worker finishes the send in progress and stops.
    ///
    /// # Errors
    /// An I/O error of the HTTP server.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let handle = self.server.handle();
        let stop_streams = self.stop_streams;
        let on_signal = actix_web::rt::spawn(async move {
            self.signals.recv().await;
            tracing::info!("stop signal received; finishing in-flight requests");
            // Open streams are requests that never finish by themselves.
            let _ = stop_streams.send(true);
            handle.stop(true).await;
        });
        let result = self.server.await;
        on_signal.abort();
        tracing::info!("HTTP server stopped; waiting for the mail worker");
        let _ = self.stop_worker.send(true);
        self.stop_threads.store(true, Ordering::SeqCst);
        if let Some(imap) = self.imap {
            // The watcher notices the stop within one IDLE slice.
            if tokio::task::spawn_blocking(move || imap.join())
                .await
                .is_err()
            {
                tracing::error!("IMAP watcher ended abnormally");
            }
        }
        if let Some(lmtp) = self.lmtp {
            if let Err(error) = lmtp.await {
                tracing::error!(%error, "LMTP listener ended abnormally");
            }
        }
        if let Some(listener) = self.commit_listener {
            // It notices the stop within one round.
            if tokio::task::spawn_blocking(move || listener.join())
                .await
                .is_err()
            {
                tracing::error!("commit listener ended abnormally");
            }
        }
        if let Some(sweeper) = self.sweeper {
            if let Err(error) = sweeper.await {
                tracing::error!(%error, "sweeper ended abnormally");
            }
        }
        if let Some(bots) = self.bots {
            if let Err(error) = bots.await {
                tracing::error!(%error, "bot worker ended abnormally");
            }
        }
        if let Err(error) = self.webhooks.await {
            tracing::error!(%error, "webhook worker ended abnormally");
        }
        if let Err(error) = self.push.await {
            tracing::error!(%error, "push worker ended abnormally");
        }
        if let Err(error) = self.log_tail.await {
            tracing::error!(%error, "stream log reader ended abnormally");
        }
        if let Err(error) = self.composer.await {
            tracing::error!(%error, "mail composer ended abnormally");
        }
        if let Err(error) = self.worker.await {
            tracing::error!(%error, "mail worker ended abnormally");
        }
        result
    }
}
