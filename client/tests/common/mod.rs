//! Running the real `turnpost` binary in tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use assert_cmd::assert::Assert;
use assert_cmd::Command;

/// Runs `turnpost` with `args` (colour settings from the environment removed).
pub fn turnpost(args: &[&str]) -> Assert {
    Command::cargo_bin("turnpost")
        .unwrap()
        .env_remove("NO_COLOR")
        .args(args)
        .assert()
}

pub fn stdout(assert: &Assert) -> String {
    String::from_utf8(assert.get_output().stdout.clone()).unwrap()
}

pub fn stderr(assert: &Assert) -> String {
    String::from_utf8(assert.get_output().stderr.clone()).unwrap()
}
