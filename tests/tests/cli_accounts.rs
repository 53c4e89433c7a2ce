//! The real `turnpost` CLI against the real server: sign up through the code mailed over SMTP,
//! profiles, tokens, `--json`, and exit codes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::{Command, Output};

use turnpost_tests::{Cli, ClosedPort, ServerProcess};

fn turnpost(config: &Path, args: &[&str]) -> Command {
    Cli::new(config.to_path_buf()).command(args)
}

fn run(config: &Path, args: &[&str]) -> Output {
    turnpost(config, args).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a command that asks for the mailed code on stdin, answering with the code.
fn run_with_code(
    server: &ServerProcess,
    config: &Path,
    email: &str,
    known: usize,
    args: &[&str],
) -> Output {
    Cli::new(config.to_path_buf()).run_with_code(server, email, known, args)
}

#[test]
fn sign_up_log_in_tokens_and_log_out() {
    let server = ServerProcess::start(&[]);
    let url = format!("http://{}", server.address);
    let config = server.data_dir.join("cli-config");

    let out = run_with_code(
        &server,
        &config,
        "anna@example.org",
        0,
        &[
            "signup",
            "--server",
            &url,
            "--name",
            "anna",
            "--email",
            "anna@example.org",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("Signed in as anna"),
        "{}",
        text(&out.stdout)
    );
    // The code came through SMTP: one mail to anna alone, from the server's sender.
    let mails = server.smtp.messages_to("anna@example.org");
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert_eq!(mails[0].to, ["anna@example.org"]);
    assert_eq!(mails[0].header("To"), Some("anna@example.org"));
    assert!(mails[0]
        .header("Subject")
        .unwrap()
        .starts_with("Your turnpost code: "));
    assert!(
        mails[0].header("From").unwrap().contains("turnpost"),
        "{}",
        mails[0].data
    );
    let code = mails[0].code().unwrap().to_string();
    assert!(mails[0].data.contains(&code));

    // The token is kept in a file only its owner can read.
    let token_file = config.join("tokens").join("default");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&token_file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let token = std::fs::read_to_string(&token_file).unwrap();
    assert!(token.starts_with("tp_"));

    let out = run(&config, &["whoami"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("anna <anna@example.org>"));
    let out = run(&config, &["whoami", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["version"], 1);
    assert_eq!(json["account"]["name"], "anna");

    // A second profile for the same account, signed in with a fresh code.
    let out = run_with_code(
        &server,
        &config,
        "anna@example.org",
        1,
        &[
            "login",
            "--server",
            &url,
            "--email",
            "anna@example.org",
            "--profile",
            "laptop",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["signed_in"]["profile"], "laptop");
    // Signing in mailed a second, different code.
    let mails = server.smtp.messages_to("anna@example.org");
    assert_eq!(mails.len(), 2, "{mails:?}");
    assert_ne!(mails[1].code(), mails[0].code());
    // The code is used up: the same code cannot sign in again.
    let out = run(
        &config,
        &[
            "login",
            "--server",
            &url,
            "--email",
            "anna@example.org",
            "--profile",
            "again",
            "--code",
            mails[1].code().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let out = run(&config, &["tokens", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["tokens"].as_array().unwrap().len(), 2);

    // Logging out revokes the token on the server: the old token is refused (exit 1).
    let out = run(&config, &["logout"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&config, &["whoami"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "not signed in is a configuration error"
    );
    let out = turnpost(&config, &["whoami"])
        .env("TURNPOST_SERVER", &url)
        .env("TURNPOST_TOKEN", token.trim())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("turnpost login"),
        "{}",
        text(&out.stderr)
    );
    // The other profile still works.
    let out = run(&config, &["whoami", "--profile", "laptop"]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    // A wrong code is refused with exit 1.
    let out = run(
        &config,
        &[
            "login",
            "--server",
            &url,
            "--email",
            "anna@example.org",
            "--code",
            "WRONGCOD",
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
}

#[test]
fn broken_config_and_unreachable_servers_have_their_exit_codes() {
    let dir = std::env::temp_dir().join(format!("turnpost-cli-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("config.toml"),
        "default = \"x\"\n[profiles.x]\nserver = 5\n",
    )
    .unwrap();
    let out = run(&dir, &["whoami"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("config.toml:3"), "{err}");

    std::fs::remove_file(dir.join("config.toml")).unwrap();
    let closed = ClosedPort::new();
    let out = turnpost(&dir, &["whoami"])
        .env("TURNPOST_SERVER", closed.url())
        .env("TURNPOST_TOKEN", "tp_x")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("cannot reach"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn completions_and_man_page_come_from_the_cli_definition() {
    let dir = std::env::temp_dir();
    for shell in ["bash", "zsh", "fish"] {
        let out = run(&dir, &["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", text(&out.stderr));
        let script = text(&out.stdout);
        assert!(script.contains("whoami"), "{shell}");
        // Moves are completed by the hidden entry point, which is offered nowhere else.
        assert!(script.contains("__complete-moves --current"), "{shell}");
    }
    let out = run(&dir, &["completions", "elvish"]);
    assert!(out.status.success());
    assert!(!text(&out.stdout).contains("complete-moves"));
    let out = run(&dir, &["man"]);
    assert!(out.status.success());
    assert!(text(&out.stdout).starts_with(".ie") || text(&out.stdout).contains(".TH turnpost"));
}
