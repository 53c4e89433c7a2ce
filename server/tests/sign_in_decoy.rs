//! Sign-in for an address without an account (issue 48, point 11): the request does the work
//! of a real one (`turnpost_server::accounts::sign_in`: a mail composed, its outbox row written
//! and deleted in the same transaction) so it takes as long — and leaves nothing behind: no
//! outbox row, no code, no mail. The timing itself is measured by
//! `benches/sign_in_timing.rs`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;

use common::{Backend, TestApp};
use serde_json::json;
use turnpost_server::db::outbox;

both_backends!(an_unknown_address_leaves_no_row_and_gets_no_mail,);

async fn an_unknown_address_leaves_no_row_and_gets_no_mail(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    for _ in 0..3 {
        let unknown = app
            .post("/v1/sessions", &json!({"email": "nobody@example.org"}))
            .await;
        assert_eq!(unknown.status, 202, "{unknown:?}");
    }
    assert!(
        outbox::all(&mut app.conn()).unwrap().is_empty(),
        "the decoy's outbox row must not outlive its transaction"
    );
    // Nor its code row (written and undone on SQLite), and the transaction went on after it.
    let codes: i64 = diesel::RunQueryDsl::get_result(
        diesel::QueryDsl::count(turnpost_server::db::schema::sign_in_codes::table),
        &mut *app.conn(),
    )
    .unwrap();
    assert_eq!(codes, 0, "a decoy left a code row");
    // A known address still gets its code, after the decoys, and only it is mailed.
    app.sign_up_and_verify("carol", "carol@example.org").await;
    let known = app
        .post("/v1/sessions", &json!({"email": "carol@example.org"}))
        .await;
    assert_eq!(known.status, 202);
    app.smtp.wait_for("carol@example.org", 2).await;
    let rows = outbox::all(&mut app.conn()).unwrap();
    assert!(
        rows.iter().all(|row| row.recipient == "carol@example.org"),
        "{:?}",
        rows.iter().map(|r| &r.recipient).collect::<Vec<_>>()
    );
    assert!(app.smtp.messages_to("nobody@example.org").is_empty());
}
