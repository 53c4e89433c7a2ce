//! turnpost-server: for now it answers `GET /v1/health`; the API grows from here.

use actix_web::{get, App, HttpResponse, HttpServer};
use clap::Parser;

/// turnpost's HTTP API server.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Config {
    /// Address to listen on.
    #[arg(long, env = "TURNPOST_LISTEN", default_value = "127.0.0.1:8080")]
    listen: String,
}

#[get("/v1/health")]
async fn health() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "status": "ok" }))
}

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let config = Config::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .init();
    let server = HttpServer::new(|| App::new().service(health))
        .bind(&config.listen)?
        .shutdown_timeout(30);
    for address in server.addrs() {
        tracing::info!("listening on http://{address}");
    }
    // actix stops gracefully on SIGTERM and Ctrl-C.
    server.run().await?;
    Ok(())
}
