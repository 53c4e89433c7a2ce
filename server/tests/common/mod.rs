//! Test helpers: a fresh database per test on either backend (dropped after), an in-process
//! SMTP server on port 0, and a running server on port 0 with typed request helpers.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers: a failed set-up should stop the test loudly"
)]

use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use diesel::{Connection, RunQueryDsl};
use serde_json::Value;
use turnpost_server::config::Config;
use turnpost_server::db::{self, DbConnection, Pool};
use turnpost_server::Application;

pub use turnpost_server::db::Backend;

mod template_db;

/// Composes every waiting game event's mail (see `TestApp::game_mail_queued`).
fn compose_game_mail(pool: &Pool, ctx: &turnpost_server::accounts::MailContext) {
    let mut conn = pool.get().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        while turnpost_server::notify::compose_next(&mut conn, ctx).unwrap() {}
        if db::events::waiting(&mut conn).unwrap() == 0 {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "game events still waiting for their mail after 60 s"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Default PostgreSQL for tests.
pub const DEFAULT_PG: &str = "postgres://postgres@127.0.0.1:5432/postgres";

fn unique(prefix: &str) -> String {
    format!(
        "{prefix}_{}",
        turnpost_server::secrets::random_string(12, turnpost_server::secrets::LOWER_ALNUM)
    )
}

/// A fresh, empty database for one test, dropped (PostgreSQL) or deleted (SQLite) on drop.
pub struct TestDb {
    /// `DATABASE_URL` of the fresh database.
    pub url: String,
    /// Temporary directory (SQLite file, .eml files); removed on drop.
    pub dir: PathBuf,
    backend: Backend,
    pg_admin: Option<(String, String)>,
}

impl TestDb {
    /// Creates an empty database (for the tests of migrations themselves).
    pub fn create(backend: Backend) -> Self {
        Self::create_from(backend, false)
    }

    /// Creates a database with every migration applied, copied from a template
    /// (`template_db`).
    pub fn create_migrated(backend: Backend) -> Self {
        Self::create_from(backend, true)
    }

    fn create_from(backend: Backend, migrated: bool) -> Self {
        let dir = std::env::temp_dir().join(unique("turnpost-test"));
        std::fs::create_dir_all(&dir).unwrap();
        match backend {
            Backend::Sqlite => {
                if migrated {
                    std::fs::copy(template_db::sqlite_template(), dir.join("test.db")).unwrap();
                }
                let url = format!("sqlite://{}", dir.join("test.db").display());
                Self {
                    url,
                    dir,
                    backend,
                    pg_admin: None,
                }
            }
            Backend::Postgres => {
                let admin = without_tls_unless_asked(
                    &std::env::var("TURNPOST_TEST_DATABASE_URL")
                        .unwrap_or_else(|_| DEFAULT_PG.to_owned()),
                );
                let mut conn = diesel::PgConnection::establish(&admin).unwrap_or_else(|e| {
                    panic!(
                        "PostgreSQL tests need a server: cannot connect to {admin}: {e}\n\
                         Start PostgreSQL or set TURNPOST_TEST_DATABASE_URL=postgres://USER[:PASSWORD]@HOST:PORT/DB \
                         (a role allowed to CREATE DATABASE); each test creates and drops its own database."
                    )
                });
                let name = unique("turnpost_test");
                let template = if migrated {
                    format!(" TEMPLATE {}", template_db::postgres_template(&admin))
                } else {
                    String::new()
                };
                diesel::sql_query(format!("CREATE DATABASE {name}{template}"))
                    .execute(&mut conn)
                    .unwrap();
                let mut url = url::Url::parse(&admin).unwrap();
                url.set_path(&name);
                Self {
                    url: url.to_string(),
                    dir,
                    backend,
                    pg_admin: Some((admin, name)),
                }
            }
        }
    }

    /// A pool on the database (not migrated).
    pub fn pool(&self) -> Pool {
        let config = self.config();
        db::connect(&config.database_target().unwrap(), 4).unwrap()
    }

    /// Test configuration using this database and directory.
    pub fn config(&self) -> Config {
        let mut config = Config::for_tests(self.dir.clone());
        config.database_url = Some(self.url.clone());
        config
    }

    /// The backend.
    pub fn backend(&self) -> Backend {
        self.backend
    }
}

/// `url` with `sslmode=disable` unless it names an `sslmode`. Debian's PostgreSQL turns TLS
/// on, and libpq (`sslmode=prefer`) then speaks OpenSSL even on loopback: when a test process
/// exits, OpenSSL's exit handler (`OPENSSL_cleanup`) runs while the server's worker threads
/// may be mid-handshake, and the process dies (SIGSEGV, or SIGABRT "free(): invalid pointer")
/// after its tests passed (issue 48, point 14). Without TLS, libpq never starts OpenSSL.
fn without_tls_unless_asked(url: &str) -> String {
    let Ok(mut parsed) = url::Url::parse(url) else {
        return url.to_owned();
    };
    if !parsed.query_pairs().any(|(key, _)| key == "sslmode") {
        parsed.query_pairs_mut().append_pair("sslmode", "disable");
    }
    parsed.to_string()
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some((admin, name)) = &self.pg_admin {
            if let Ok(mut conn) = diesel::PgConnection::establish(admin) {
                let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                    .execute(&mut conn);
            }
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One message received by [`SmtpSink`].
#[derive(Debug, Clone)]
pub struct Received {
    /// Envelope recipients.
    pub to: Vec<String>,
    /// The raw message.
    pub data: String,
}

impl Received {
    /// The value of a header (first occurrence, unfolded).
    pub fn header(&self, name: &str) -> Option<String> {
        let prefix = format!("{}:", name.to_ascii_lowercase());
        self.data
            .lines()
            .take_while(|l| !l.is_empty())
            .find(|l| l.to_ascii_lowercase().starts_with(&prefix))
            .map(|l| l[prefix.len()..].trim().to_owned())
    }
}

#[derive(Clone)]
struct SinkHandler {
    store: Arc<Mutex<Vec<Received>>>,
    started: Arc<std::sync::atomic::AtomicUsize>,
    delay: Duration,
    to: Vec<String>,
    buffer: Vec<u8>,
}

impl mailin_embedded::Handler for SinkHandler {
    /// Addresses containing `reject` are refused for good (550), like an unknown mailbox.
    fn rcpt(&mut self, to: &str) -> mailin_embedded::Response {
        if to.to_ascii_lowercase().contains("reject") {
            mailin_embedded::response::NO_MAILBOX
        } else {
            mailin_embedded::response::OK
        }
    }

    fn data_start(
        &mut self,
        _domain: &str,
        _from: &str,
        _is8bit: bool,
        to: &[String],
    ) -> mailin_embedded::Response {
        self.to = to.to_vec();
        self.buffer.clear();
        self.started
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        mailin_embedded::response::OK
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.buffer.extend_from_slice(buf);
        Ok(())
    }

    fn data_end(&mut self) -> mailin_embedded::Response {
        std::thread::sleep(self.delay);
        let data = String::from_utf8_lossy(&self.buffer).into_owned();
        self.store.lock().unwrap().push(Received {
            to: std::mem::take(&mut self.to),
            data,
        });
        self.buffer.clear();
        mailin_embedded::response::OK
    }
}

/// An SMTP server in this process (mailin-embedded), speaking real SMTP on a loopback port.
/// It answers 550 at RCPT for any address containing `reject`.
#[derive(Clone)]
pub struct SmtpSink {
    /// Its port.
    pub port: u16,
    store: Arc<Mutex<Vec<Received>>>,
    started: Arc<std::sync::atomic::AtomicUsize>,
}

impl SmtpSink {
    /// Starts on a free port.
    pub fn start() -> Self {
        Self::start_slow(Duration::ZERO)
    }

    /// Starts on a free port; each message is acknowledged only after `delay`.
    pub fn start_slow(delay: Duration) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        Self::serve(listener, port, delay)
    }

    /// Starts on `held`'s port, which the test held closed until now (a relay that was down
    /// and comes back).
    pub fn start_on(held: HeldPort) -> Self {
        let port = held.port;
        Self::serve(held.listen(), port, Duration::ZERO)
    }

    /// How many message transfers have begun (DATA).
    pub fn started(&self) -> usize {
        self.started.load(std::sync::atomic::Ordering::SeqCst)
    }

    fn serve(listener: TcpListener, port: u16, delay: Duration) -> Self {
        let store = Arc::new(Mutex::new(Vec::new()));
        let started = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let handler = SinkHandler {
            store: store.clone(),
            started: started.clone(),
            delay,
            to: Vec::new(),
            buffer: Vec::new(),
        };
        let mut server = mailin_embedded::Server::new(handler);
        server
            .with_name("sink.test")
            .with_num_threads(8)
            .with_tcp_listener(listener);
        // The listener is listening already: connections queue until the thread accepts them.
        std::thread::spawn(move || {
            let _ = server.serve();
        });
        Self {
            port,
            store,
            started,
        }
    }

    /// `SMTP_URL` for this server.
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Everything received so far.
    pub fn messages(&self) -> Vec<Received> {
        self.store.lock().unwrap().clone()
    }

    /// Messages to `to`.
    pub fn messages_to(&self, to: &str) -> Vec<Received> {
        self.messages()
            .into_iter()
            .filter(|m| m.to.iter().any(|t| t.eq_ignore_ascii_case(to)))
            .collect()
    }

    /// Waits until `n` messages went to `to`; returns them.
    pub async fn wait_for(&self, to: &str, n: usize) -> Vec<Received> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let got = self.messages_to(to);
            if got.len() >= n {
                return got;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {n} mail(s) to {to}; got {}",
                got.len()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// The code in a sign-in mail.
pub fn code_in(message: &str) -> String {
    let subject = message
        .lines()
        .find_map(|l| l.strip_prefix("Subject: Your turnpost code: "))
        .unwrap_or_else(|| panic!("no code in mail:\n{message}"));
    subject.trim().to_owned()
}

/// A loopback port the test holds bound but not listening, so connections to it are refused
/// (a relay that is down) and no other test can be given it, unlike a port bound and released.
/// [`HeldPort::listen`] opens it (the relay comes back) without letting go of it in between.
pub struct HeldPort {
    socket: socket2::Socket,
    /// The port.
    pub port: u16,
}

impl HeldPort {
    /// Binds a fresh loopback port without listening on it.
    pub fn new() -> Self {
        let socket =
            socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
        let address: std::net::SocketAddr = ([127, 0, 0, 1], 0).into();
        socket.bind(&address.into()).unwrap();
        let port = socket.local_addr().unwrap().as_socket().unwrap().port();
        Self { socket, port }
    }

    /// `smtp://` URL of the port.
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    /// Starts listening: the same socket, now a listener.
    pub fn listen(self) -> TcpListener {
        self.socket.listen(128).unwrap();
        self.socket.into()
    }
}

/// An HTTP answer.
#[derive(Debug)]
pub struct Answer {
    /// Status code.
    pub status: u16,
    /// JSON body (Null if empty or not JSON).
    pub body: Value,
    /// Headers.
    pub headers: reqwest::header::HeaderMap,
}

impl Answer {
    /// `error.code` of an error body.
    pub fn error_code(&self) -> &str {
        self.body["error"]["code"].as_str().unwrap_or("")
    }
}

/// A running server on port 0 with its own database and SMTP sink.
pub struct TestApp {
    /// Base URL, e.g. `http://127.0.0.1:41234`.
    pub base: String,
    /// The SMTP server the app sends to.
    pub smtp: SmtpSink,
    /// The app's pool (to inspect rows).
    pub pool: Pool,
    /// HTTP client.
    pub http: reqwest::Client,
    /// The configuration used.
    pub config: Config,
    handle: actix_web::dev::ServerHandle,
    task: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
    /// The database (dropped last).
    pub db: TestDb,
}

impl TestApp {
    /// A server on `backend` with default test settings.
    pub async fn spawn(backend: Backend) -> Self {
        Self::spawn_with(backend, |_| {}).await
    }

    /// A server on `backend`; `adjust` changes the configuration first.
    pub async fn spawn_with(backend: Backend, adjust: impl FnOnce(&mut Config)) -> Self {
        let smtp = SmtpSink::start();
        let db = TestDb::create_migrated(backend);
        let mut config = db.config();
        config.smtp_url = Some(smtp.url());
        adjust(&mut config);
        Self::start(db, smtp, config).await
    }

    /// Starts a server with a prepared database, sink and configuration.
    pub async fn start(db: TestDb, smtp: SmtpSink, config: Config) -> Self {
        let app = Application::build(config.clone()).await.unwrap();
        let base = format!("http://127.0.0.1:{}", app.port());
        let pool = app.pool().clone();
        let handle = app.handle();
        let task = Some(actix_web::rt::spawn(app.run_until_stopped()));
        // Idle connections are dropped before the server's keep-alive (5 s) ends them, so a
        // request never goes out on a connection the server is closing.
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(20))
            .pool_idle_timeout(Duration::from_secs(2))
            .build()
            .unwrap();
        Self {
            base,
            smtp,
            pool,
            http,
            config,
            handle,
            task,
            db,
        }
    }

    /// Sends a request; `body` as raw JSON text when given.
    pub async fn request(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<&str>,
    ) -> Answer {
        // actix answers 408 with an empty body when a connection's first request head has not
        // arrived within 5 s of the connection being accepted: on a loaded CI machine the
        // request then never reached a handler, and may be sent again (RFC 9110, 15.5.9).
        let mut tries = 0;
        let (status, headers, text) = loop {
            tries += 1;
            let mut req = self
                .http
                .request(method.clone(), format!("{}{path}", self.base));
            if let Some(token) = token {
                req = req.bearer_auth(token);
            }
            if let Some(body) = body {
                req = req
                    .header("content-type", "application/json")
                    .body(body.to_owned());
            }
            let resp = req.send().await.unwrap();
            let status = resp.status().as_u16();
            let headers = resp.headers().clone();
            let text = resp.text().await.unwrap();
            if status == 408 && text.is_empty() && tries < 3 {
                eprintln!("{path}: 408 before the request was read; sending it again");
                continue;
            }
            break (status, headers, text);
        };
        let body = serde_json::from_str(&text).unwrap_or(Value::Null);
        assert_ne!(status, 500, "server answered 500: {text}");
        Answer {
            status,
            body,
            headers,
        }
    }

    /// POST JSON.
    pub async fn post(&self, path: &str, body: &Value) -> Answer {
        self.request(reqwest::Method::POST, path, None, Some(&body.to_string()))
            .await
    }

    /// GET with a token.
    pub async fn get(&self, path: &str, token: Option<&str>) -> Answer {
        self.request(reqwest::Method::GET, path, token, None).await
    }

    /// DELETE with a token.
    pub async fn delete(&self, path: &str, token: Option<&str>) -> Answer {
        self.request(reqwest::Method::DELETE, path, token, None)
            .await
    }

    /// Signs up, reads the code from the SMTP sink, verifies; returns the token.
    pub async fn sign_up_and_verify(&self, name: &str, email: &str) -> String {
        let before = self.smtp.messages_to(email).len();
        let answer = self
            .post(
                "/v1/accounts",
                &serde_json::json!({"name": name, "email": email}),
            )
            .await;
        assert_eq!(answer.status, 202, "{answer:?}");
        let mails = self.smtp.wait_for(email, before + 1).await;
        let code = code_in(&mails[before].data);
        let answer = self
            .post(
                "/v1/sessions/verify",
                &serde_json::json!({"email": email, "code": code, "label": "test"}),
            )
            .await;
        assert_eq!(answer.status, 201, "{answer:?}");
        answer.body["token"].as_str().unwrap().to_owned()
    }

    /// A connection from the app's pool.
    pub fn conn(&self) -> Conn {
        Conn(self.pool.get().unwrap())
    }

    /// What the server composes mail with: its links, link key and Message-ID domain.
    pub fn mail_context(&self) -> turnpost_server::accounts::MailContext {
        let mut conn = self.conn();
        turnpost_server::accounts::MailContext {
            message_id_domain: self.config.message_id_domain(),
            public_url: self.config.public_base_url().unwrap(),
            wake: Arc::new(tokio::sync::Notify::new()),
            link_key: turnpost_server::preferences::unsubscribe::load_key(&mut conn)
                .unwrap()
                .into(),
            reply: turnpost_server::inbound::ReplyKeys::load(&mut conn, &self.config).unwrap(),
        }
    }

    /// Returns once every game event recorded so far has its mail in the outbox: composes the
    /// waiting events itself, as the server's mail worker does (so a test that blocks its
    /// runtime does not wait on the worker), and waits for those the worker is composing.
    /// Blocks the test's runtime meanwhile: after many moves use [`Self::game_mail_composed`].
    pub fn game_mail_queued(&self) {
        compose_game_mail(&self.pool, &self.mail_context());
    }

    /// [`Self::game_mail_queued`] on a blocking thread, so the server keeps answering.
    pub async fn game_mail_composed(&self) {
        let pool = self.pool.clone();
        let ctx = self.mail_context();
        tokio::task::spawn_blocking(move || compose_game_mail(&pool, &ctx))
            .await
            .unwrap();
    }

    /// Stops gracefully (as on SIGTERM) and waits until the HTTP server and the mail worker are
    /// done.
    ///
    /// A test that ends without it leaves the server's threads running while its database is
    /// dropped: the mail threads wait on the pool, whose workers (and any listener) keep
    /// reconnecting to the dropped database over TLS (libpq, `sslmode=prefer`). When the
    /// process exits right after (the last or only test of a binary), OpenSSL's exit handler
    /// (`OPENSSL_cleanup`) runs under those threads, a crash (SIGSEGV) when it meets one
    /// mid-handshake. So a binary's last test on PostgreSQL ends with this.
    pub async fn shutdown(&mut self) {
        self.handle.stop(true).await;
        if let Some(task) = self.task.take() {
            task.await.unwrap().unwrap();
        }
    }
}

/// A request as the player holding `token`, with an optional JSON body.
pub async fn call(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> Answer {
    let body = body.map(|b| b.to_string());
    app.request(method, path, Some(token), body.as_deref())
        .await
}

/// POST JSON as the player holding `token`.
pub async fn post(app: &TestApp, path: &str, token: &str, body: Value) -> Answer {
    call(app, reqwest::Method::POST, path, token, Some(body)).await
}

/// Follows the play link at `path` (a turn card's `/games/{id}/play/…`) with `client` (one
/// that does not follow redirects): the game's cookie (`name=value`) it sets, and the game
/// page with it.
pub async fn follow_play_link(
    app: &TestApp,
    client: &reqwest::Client,
    path: &str,
    id: i64,
) -> (String, String) {
    let followed = client
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(followed.status(), 303);
    let cookie = followed.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let page = client
        .get(format!("{}/games/{id}", app.base))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    (cookie, page)
}

/// GET as the player holding `token`.
pub async fn get(app: &TestApp, path: &str, token: &str) -> Answer {
    call(app, reqwest::Method::GET, path, token, None).await
}

/// PATCH JSON as the player holding `token`.
pub async fn patch(app: &TestApp, path: &str, token: &str, body: Value) -> Answer {
    call(app, reqwest::Method::PATCH, path, token, Some(body)).await
}

/// Runs a test body on both backends: `both_backends!(name, async fn body(backend))`.
#[macro_export]
macro_rules! both_backends {
    ($($name:ident),* $(,)?) => {
        mod postgres {
            $(
                #[actix_web::test]
                async fn $name() {
                    super::$name(super::common::Backend::Postgres).await;
                }
            )*
        }
        mod sqlite {
            $(
                #[actix_web::test]
                async fn $name() {
                    super::$name(super::common::Backend::Sqlite).await;
                }
            )*
        }
    };
}

/// A migrated connection on a fresh database (for storage-level tests).
pub fn migrated(db: &TestDb) -> (Pool, DbConnection) {
    let pool = db.pool();
    let config = db.config();
    let mut conn = DbConnection::establish(&match config.database_target().unwrap() {
        turnpost_server::config::DatabaseTarget::Postgres(url) => url,
        turnpost_server::config::DatabaseTarget::Sqlite(path) => {
            format!("sqlite://{}", path.display())
        }
    })
    .unwrap();
    db::run_migrations(&mut conn).unwrap();
    (pool, conn)
}

/// A pooled connection that derefs straight to the connection, so diesel's generic query
/// methods take `&mut *app.conn()`.
pub struct Conn(db::PooledConn);

impl std::ops::Deref for Conn {
    type Target = db::DbConnection;

    fn deref(&self) -> &db::DbConnection {
        &self.0
    }
}

impl std::ops::DerefMut for Conn {
    fn deref_mut(&mut self) -> &mut db::DbConnection {
        &mut self.0
    }
}
