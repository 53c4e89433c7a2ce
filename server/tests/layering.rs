//! Layers: everything below the HTTP glue (the game service, sweeps, bots, clocks, mail,
//! accounts, validation, rate limits, transactions, preferences) is channel-independent and
//! names no HTTP type or HTTP error answer; pages write nothing themselves.
#![allow(clippy::unwrap_used, reason = "tests")]

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The modules that speak HTTP, relative to `src`: the HTTP layer itself (`http/`: extractors,
/// the error answer, the state, the route table), the channels above it (`routes/`, `web/`),
/// the application that starts them with its per-request wrappers (`app/`), and the crate root,
/// the binary and the command line that start the server. Every other module is below them.
const HTTP_GLUE: [&str; 7] = [
    "http",
    "routes",
    "web",
    "app",
    "lib.rs",
    "main.rs",
    "cli/mod.rs",
];

/// What names HTTP: the framework, its request and answer types, and the error answers.
const HTTP_WORDS: [&str; 6] = [
    "actix",
    "ApiError",
    "WebError",
    "HttpResponse",
    "HttpRequest",
    "StatusCode",
];

/// The lines of `files` that name an HTTP word.
fn http_names(files: &[std::path::PathBuf]) -> Vec<String> {
    let mut offences = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        for (number, line) in text.lines().enumerate() {
            for word in HTTP_WORDS {
                if line.contains(word) {
                    offences.push(format!("{}:{}: {word}", file.display(), number + 1));
                }
            }
        }
    }
    offences
}

/// Every source file outside [`HTTP_GLUE`].
fn files_below_http() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    rust_files(&root, &mut all);
    all.retain(|file| {
        let relative = file.strip_prefix(&root).unwrap();
        !HTTP_GLUE.iter().any(|glue| relative.starts_with(glue))
    });
    all
}

#[test]
fn modules_below_the_channels_name_no_http_type() {
    // The game service, the sweeps, bots, clocks, mail in and out, accounts, validation, rate
    // limits, transactions and preferences answer domain errors; only the HTTP glue turns them
    // into answers (`crate::http::error`), so a mail reply or a bot uses them without pretending to
    // be HTTP.
    let files = files_below_http();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for module in [
        "games",
        "sweeps",
        "bots",
        "clocks",
        "inbound",
        "preferences",
        "accounts.rs",
        "validate.rs",
        "db/transaction.rs",
        "cli/check.rs",
        "worker_threads",
    ] {
        let path = root.join(module);
        assert!(
            files.iter().any(|file| file.starts_with(&path)),
            "{module} is not checked: {files:?}"
        );
    }
    let offences = http_names(&files);
    assert!(offences.is_empty(), "{offences:#?}");
}

#[test]
fn the_http_check_finds_a_planted_name() {
    // The check itself: a domain file that names the HTTP error answer is caught.
    let dir = std::env::temp_dir().join(format!("turnpost-layering-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let planted = dir.join("accounts.rs");
    std::fs::write(
        &planted,
        "pub fn sign_in() -> Result<(), crate::http::error::ApiError> { Ok(()) }\n",
    )
    .unwrap();
    let clean = dir.join("validate.rs");
    std::fs::write(
        &clean,
        "pub fn name() -> Result<(), ValidationError> { Ok(()) }\n",
    )
    .unwrap();
    let offences = http_names(&[planted, clean]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(offences.len(), 1, "{offences:?}");
    assert!(
        offences[0].ends_with("accounts.rs:1: ApiError"),
        "{offences:?}"
    );
}

#[test]
fn pages_write_nothing_themselves() {
    // The web channel only translates: it reads and writes games through the game service
    // (`crate::games`), never through queries or diesel of its own.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root.join("web"), &mut files);
    assert!(files.len() > 5, "found only {files:?}");
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (number, line) in text.lines().enumerate() {
            for word in [
                "diesel",
                "db::games",
                "db::accounts",
                "db::tokens",
                "sql_query",
            ] {
                if line.contains(word) {
                    offences.push(format!("{}:{}: {word}", file.display(), number + 1));
                }
            }
        }
    }
    assert!(offences.is_empty(), "{offences:#?}");
}

/// Code lines (comments aside) of the Rust files under `dirs` (relative to `src/`) that contain
/// one of `words`.
fn offences(dirs: &[&str], words: &[&str]) -> (usize, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for dir in dirs {
        let path = root.join(dir);
        if path.is_dir() {
            rust_files(&path, &mut files);
        } else {
            files.push(path.with_extension("rs"));
        }
    }
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (number, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for word in words {
                if line.contains(word) {
                    found.push(format!("{}:{}: {word}", file.display(), number + 1));
                }
            }
        }
    }
    (files.len(), found)
}

#[test]
fn mail_delivery_decides_and_composes_nothing() {
    // Every mail is decided and composed in `notify`; `mail` only delivers what is queued.
    let (files, found) = offences(&["mail"], &["crate::notify", "crate::games", "accounts"]);
    assert!(files > 5, "found only {files} files");
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn mail_decisions_name_no_http_type() {
    let (files, found) = offences(
        &["notify", "mail", "mail_context", "worker_threads"],
        &[
            "actix",
            "ApiError",
            "HttpResponse",
            "StatusCode",
            "WebError",
        ],
    );
    assert!(files > 15, "found only {files} files");
    assert!(found.is_empty(), "{found:#?}");
}
