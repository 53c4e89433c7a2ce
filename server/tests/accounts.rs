//! Accounts and tokens over HTTP, with codes delivered over real SMTP, on both backends.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;

use common::{code_in, Backend, TestApp};
use serde_json::json;

both_backends!(
    tokens_of_another_account_are_out_of_reach,
    sign_up_verify_use_revoke,
    wrong_code_five_times_locks_the_code,
    sign_in_sends_a_new_code_and_retires_the_old,
    names_and_emails_are_unique_case_insensitively,
    a_pending_sign_up_does_not_block_the_address_owner,
    closed_sign_up_is_forbidden,
    operator_commands_create_accounts_and_tokens,
);

#[test]
fn help_documents_every_setting() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_turnpost-server"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for name in [
        "TURNPOST_LISTEN",
        "127.0.0.1:8080",
        "TURNPOST_DATA_DIR",
        "./turnpost-data",
        "DATABASE_URL",
        "SMTP_URL",
        "TURNPOST_MAIL_FROM",
        "TURNPOST_PUBLIC_URL",
        "TURNPOST_OPEN_SIGNUP",
        "TURNPOST_OUTBOX_MAX_ATTEMPTS",
        "TURNPOST_OUTBOX_RETRY_BASE_MS",
        "TURNPOST_OUTBOX_RETRY_MAX_MS",
        "TURNPOST_RATE_LIMIT_PER_EMAIL",
        "serve",
        "migrate",
        "account",
    ] {
        assert!(help.contains(name), "--help does not mention {name}");
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_turnpost-server"))
        .args(["account", "create", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(
        help.contains("--name") && help.contains("--email"),
        "{help}"
    );
}

async fn sign_up_verify_use_revoke(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let answer = app
        .post(
            "/v1/accounts",
            &json!({"name": "Anna", "email": "anna@example.org"}),
        )
        .await;
    assert_eq!(answer.status, 202, "{answer:?}");
    assert_eq!(answer.body["status"], "code_sent");

    let mails = app.smtp.wait_for("anna@example.org", 1).await;
    let mail = &mails[0];
    let message_id = mail.header("Message-ID").unwrap();
    assert!(
        message_id.starts_with('<') && message_id.ends_with('>'),
        "{message_id}"
    );
    let code = code_in(&mail.data);
    assert_eq!(code.len(), 8);

    // Lower case with a dash is accepted.
    let typed = format!("{}-{}", &code[..4], &code[4..]).to_lowercase();
    let answer = app
        .post(
            "/v1/sessions/verify",
            &json!({"email": "ANNA@example.org", "code": typed, "label": "laptop"}),
        )
        .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let token = answer.body["token"].as_str().unwrap().to_owned();
    assert!(token.starts_with("tp_") && token.len() == 35);
    assert_eq!(answer.body["account"]["name"], "Anna");
    assert_eq!(answer.body["info"]["label"], "laptop");

    // The code is used up.
    let again = app
        .post(
            "/v1/sessions/verify",
            &json!({"email": "anna@example.org", "code": code}),
        )
        .await;
    assert_eq!(again.status, 401);
    assert_eq!(again.error_code(), "invalid_code");

    let me = app.get("/v1/me", Some(&token)).await;
    assert_eq!(me.status, 200, "{me:?}");
    assert_eq!(me.body["name"], "Anna");
    assert_eq!(me.body["email"], "anna@example.org");

    // Only the hash is stored.
    {
        use diesel::prelude::*;
        use turnpost_server::db::schema::api_tokens;
        let hashes: Vec<String> = api_tokens::table
            .select(api_tokens::token_hash)
            .load(&mut *app.conn())
            .unwrap();
        assert_eq!(hashes, vec![turnpost_server::secrets::sha256_hex(&token)]);
    }

    let list = app.get("/v1/tokens", Some(&token)).await;
    assert_eq!(list.status, 200);
    let tokens = list.body["tokens"].as_array().unwrap();
    assert_eq!(tokens.len(), 1);
    let id = tokens[0]["id"].as_i64().unwrap();
    assert!(tokens[0].get("token").is_none() && !list.body.to_string().contains(&token));

    assert_eq!(
        app.delete(&format!("/v1/tokens/{}", id + 1000), Some(&token))
            .await
            .status,
        404
    );
    assert_eq!(
        app.delete(&format!("/v1/tokens/{id}"), Some(&token))
            .await
            .status,
        204
    );
    let refused = app.get("/v1/me", Some(&token)).await;
    assert_eq!(refused.status, 401);
    assert_eq!(refused.error_code(), "unauthorized");
    assert_eq!(refused.headers.get("www-authenticate").unwrap(), "Bearer");
}

async fn wrong_code_five_times_locks_the_code(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.post(
        "/v1/accounts",
        &json!({"name": "bob", "email": "bob@example.org"}),
    )
    .await;
    let code = code_in(&app.smtp.wait_for("bob@example.org", 1).await[0].data);
    let wrong = if code == "22222222" {
        "33333333"
    } else {
        "22222222"
    };
    for attempt in 1..=5 {
        let answer = app
            .post(
                "/v1/sessions/verify",
                &json!({"email": "bob@example.org", "code": wrong}),
            )
            .await;
        assert_eq!(answer.status, 401, "{answer:?}");
        let expected = if attempt < 5 {
            "wrong_code"
        } else {
            "code_locked"
        };
        assert_eq!(
            answer.error_code(),
            expected,
            "attempt {attempt}: {answer:?}"
        );
    }
    let answer = app
        .post(
            "/v1/sessions/verify",
            &json!({"email": "bob@example.org", "code": code}),
        )
        .await;
    assert_eq!(answer.status, 401);
    assert_eq!(answer.error_code(), "code_locked");

    // A new code works.
    assert_eq!(
        app.post("/v1/sessions", &json!({"email": "bob@example.org"}))
            .await
            .status,
        202
    );
    let code = code_in(&app.smtp.wait_for("bob@example.org", 2).await[1].data);
    let answer = app
        .post(
            "/v1/sessions/verify",
            &json!({"email": "bob@example.org", "code": code}),
        )
        .await;
    assert_eq!(answer.status, 201, "{answer:?}");
}

async fn sign_in_sends_a_new_code_and_retires_the_old(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let token = app.sign_up_and_verify("carol", "carol@example.org").await;
    // An unknown address gets the same answer and no mail.
    let unknown = app
        .post("/v1/sessions", &json!({"email": "nobody@example.org"}))
        .await;
    assert_eq!(unknown.status, 202);
    assert_eq!(
        app.post("/v1/sessions", &json!({"email": "carol@example.org"}))
            .await
            .status,
        202
    );
    assert_eq!(
        app.post("/v1/sessions", &json!({"email": "carol@example.org"}))
            .await
            .status,
        202
    );
    let mails = app.smtp.wait_for("carol@example.org", 3).await;
    let (old, new) = (code_in(&mails[1].data), code_in(&mails[2].data));
    if old != new {
        let answer = app
            .post(
                "/v1/sessions/verify",
                &json!({"email": "carol@example.org", "code": old}),
            )
            .await;
        assert_eq!(answer.status, 401, "a superseded code must not work");
    }
    let answer = app
        .post(
            "/v1/sessions/verify",
            &json!({"email": "carol@example.org", "code": new}),
        )
        .await;
    assert_eq!(answer.status, 201);
    let second = answer.body["token"].as_str().unwrap();
    let list = app.get("/v1/tokens", Some(second)).await;
    assert_eq!(list.body["tokens"].as_array().unwrap().len(), 2);
    assert_eq!(app.get("/v1/me", Some(&token)).await.status, 200);
    assert!(app.smtp.messages_to("nobody@example.org").is_empty());
    // Every mail has its own Message-ID.
    let mut ids: Vec<String> = mails
        .iter()
        .map(|m| m.header("Message-ID").unwrap())
        .collect();
    ids.dedup();
    assert_eq!(ids.len(), 3);
}

async fn names_and_emails_are_unique_case_insensitively(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.sign_up_and_verify("dave", "dave@example.org").await;
    let taken = app
        .post(
            "/v1/accounts",
            &json!({"name": "DAVE", "email": "other@example.org"}),
        )
        .await;
    assert_eq!(taken.status, 409);
    assert_eq!(taken.error_code(), "name_taken");
    // A taken address answers exactly as a new one would; its owner is told by mail, and no
    // account or code is made.
    let fresh = app
        .post(
            "/v1/accounts",
            &json!({"name": "dave3", "email": "new-dave@example.org"}),
        )
        .await;
    let taken = app
        .post(
            "/v1/accounts",
            &json!({"name": "dave2", "email": "Dave@Example.org"}),
        )
        .await;
    assert_eq!((taken.status, &taken.body), (fresh.status, &fresh.body));
    assert_eq!(taken.status, 202);
    let mails = app.smtp.wait_for("dave@example.org", 2).await;
    assert_eq!(
        mails[1].header("Subject").unwrap(),
        "Someone tried to sign up with your address"
    );
    assert!(mails[1].data.contains("turnpost login --email"));
    assert!(!mails[1].data.contains("sign-in code"), "{}", mails[1].data);
    let answer = app
        .post(
            "/v1/sessions/verify",
            &json!({"email": "dave@example.org", "code": "AAAAAAAA"}),
        )
        .await;
    assert_eq!(answer.status, 401, "no live code for a taken address");
    // An unverified sign-up can be repeated (a fresh code is sent) but holds its name meanwhile.
    assert_eq!(
        app.post(
            "/v1/accounts",
            &json!({"name": "erin", "email": "erin@example.org"})
        )
        .await
        .status,
        202
    );
    assert_eq!(
        app.post(
            "/v1/accounts",
            &json!({"name": "erin", "email": "erin@example.org"})
        )
        .await
        .status,
        202
    );
    let answer = app
        .post(
            "/v1/accounts",
            &json!({"name": "Erin", "email": "x@example.org"}),
        )
        .await;
    assert_eq!(answer.status, 409);
    app.smtp.wait_for("erin@example.org", 2).await;
    // Once its codes have expired, an unverified sign-up no longer holds its name or email.
    {
        use diesel::prelude::*;
        use turnpost_server::db::schema::sign_in_codes;
        diesel::update(sign_in_codes::table)
            .set(
                sign_in_codes::expires_at
                    .eq(turnpost_server::db::now() - chrono::Duration::minutes(1)),
            )
            .execute(&mut *app.conn())
            .unwrap();
    }
    let answer = app
        .post(
            "/v1/accounts",
            &json!({"name": "Erin", "email": "erin2@example.org"}),
        )
        .await;
    assert_eq!(answer.status, 202, "{answer:?}");
    let answer = app
        .post(
            "/v1/accounts",
            &json!({"name": "erin3", "email": "erin@example.org"}),
        )
        .await;
    assert_eq!(answer.status, 202, "{answer:?}");
    // The new sign-up for Erin has a live code, so it holds the name.
    let answer = app
        .post(
            "/v1/accounts",
            &json!({"name": "ERIN", "email": "erin4@example.org"}),
        )
        .await;
    assert_eq!(answer.status, 409, "{answer:?}");
}

/// A stranger's pending sign-up with somebody else's address does not block the owner: the
/// owner's own sign-up replaces it, and only the owner's code works.
async fn a_pending_sign_up_does_not_block_the_address_owner(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let squat = app
        .post(
            "/v1/accounts",
            &json!({"name": "squatter", "email": "gina@example.org"}),
        )
        .await;
    assert_eq!(squat.status, 202);
    app.smtp.wait_for("gina@example.org", 1).await;
    let token = app.sign_up_and_verify("gina", "gina@example.org").await;
    let me = app.get("/v1/me", Some(&token)).await;
    assert_eq!(me.body["name"], "gina", "{me:?}");
    // The squatter's name is free again: its sign-up was replaced.
    let answer = app
        .post(
            "/v1/accounts",
            &json!({"name": "squatter", "email": "someone@example.org"}),
        )
        .await;
    assert_eq!(answer.status, 202, "{answer:?}");
}

async fn closed_sign_up_is_forbidden(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.open_signup = false).await;
    let answer = app
        .post(
            "/v1/accounts",
            &json!({"name": "frank", "email": "frank@example.org"}),
        )
        .await;
    assert_eq!(answer.status, 403);
    assert_eq!(answer.error_code(), "signup_closed");
}

async fn operator_commands_create_accounts_and_tokens(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_turnpost-server"))
            .args(args)
            .env("DATABASE_URL", &app.db.url)
            .env("TURNPOST_DATA_DIR", &app.db.dir)
            .env_remove("SMTP_URL")
            .output()
            .unwrap()
    };
    let out = run(&[
        "account",
        "create",
        "--name",
        "Gina",
        "--email",
        "gina@example.org",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let token = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    assert!(token.starts_with("tp_"), "{token}");
    let me = app.get("/v1/me", Some(&token)).await;
    assert_eq!(me.status, 200);
    assert_eq!(me.body["name"], "Gina");

    let out = run(&["account", "token", "--name", "gina", "--label", "phone"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let second = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    let list = app.get("/v1/tokens", Some(&second)).await;
    assert_eq!(list.body["tokens"].as_array().unwrap().len(), 2);

    let dup = run(&[
        "account",
        "create",
        "--name",
        "GINA",
        "--email",
        "g2@example.org",
    ]);
    assert!(!dup.status.success());
    assert!(String::from_utf8_lossy(&dup.stderr).contains("exists"));
    let missing = run(&["account", "token", "--name", "nobody"]);
    assert!(!missing.status.success());
    let bad = run(&[
        "account",
        "create",
        "--name",
        "x",
        "--email",
        "x@example.org",
    ]);
    assert!(!bad.status.success());
    assert!(
        app.smtp.messages().is_empty(),
        "operator commands send no mail"
    );
}

async fn tokens_of_another_account_are_out_of_reach(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let olga = app.sign_up_and_verify("olga", "olga@example.org").await;
    let piet = app.sign_up_and_verify("piet", "piet@example.org").await;
    let olga_tokens = app.get("/v1/tokens", Some(&olga)).await;
    let olga_id = olga_tokens.body["tokens"][0]["id"].as_i64().unwrap();
    let answer = app
        .delete(&format!("/v1/tokens/{olga_id}"), Some(&piet))
        .await;
    assert_eq!(answer.status, 404, "{answer:?}");
    assert_eq!(app.get("/v1/me", Some(&olga)).await.body["name"], "olga");
    let piet_tokens = app.get("/v1/tokens", Some(&piet)).await;
    assert_eq!(piet_tokens.body["tokens"].as_array().unwrap().len(), 1);
    assert_ne!(
        piet_tokens.body["tokens"][0]["id"].as_i64().unwrap(),
        olga_id
    );
}
