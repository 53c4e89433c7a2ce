//! The server binary starts, answers `/v1/health` with JSON and stops cleanly on SIGTERM.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use turnpost_tests::ServerProcess;

#[test]
fn health_answers_json_and_sigterm_stops_cleanly() {
    let mut server = ServerProcess::start(&[]);
    let (status, body) = server.get("/v1/health").unwrap();
    assert_eq!(status, 200);
    let json: serde_json::Value = serde_json::from_str(body.trim()).unwrap();
    assert_eq!(json["status"], "ok", "{body}");
    assert!(
        server.terminate(),
        "exit status after SIGTERM is not success"
    );
}
