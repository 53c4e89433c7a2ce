//! The game service and the sweeps are channel-independent: nothing under `src/games/` or
//! `src/sweeps/` names an HTTP type or the HTTP error answer, so a mail reply or a bot can use
//! them without pretending to be HTTP.
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

#[test]
fn game_service_and_sweeps_name_no_http_type() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for dir in ["games", "sweeps", "bots"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 10, "found only {files:?}");
    let mut offences = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (number, line) in text.lines().enumerate() {
            for word in ["actix", "ApiError", "HttpResponse", "StatusCode", "TxError"] {
                if line.contains(word) {
                    offences.push(format!("{}:{}: {word}", file.display(), number + 1));
                }
            }
        }
    }
    assert!(offences.is_empty(), "{offences:#?}");
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
        &["notify", "mail", "mail_context", "background"],
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
