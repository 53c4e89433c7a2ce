//! Completion of `turnpost move ID <TAB>` against the real server: the hidden
//! `turnpost __complete-moves` entry point, and bash running the script of
//! `turnpost completions bash`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::net::TcpListener;
use std::path::Path;
use std::process::Output;
use std::time::{Duration, Instant};

use turnpost_tests::{binary, Cli, ServerProcess};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn lines(out: &Output) -> Vec<String> {
    text(&out.stdout).lines().map(str::to_string).collect()
}

/// What `turnpost moves ID --json` lists for `player`.
fn listed_moves(player: &Cli, id: &str) -> Vec<String> {
    player.json(&["moves", id])["moves"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|mv| mv.as_str().unwrap().to_string())
        .collect()
}

/// Runs the completion entry point as the scripts do; it must succeed and say nothing on
/// stderr whatever happens.
fn complete(player: &Cli, current: &str, words: &[&str], env: &[(&str, &str)]) -> Vec<String> {
    let mut args = vec!["__complete-moves", "--current", current, "--"];
    args.extend_from_slice(words);
    let out = player
        .command(&args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "", "{args:?}");
    lines(&out)
}

/// Two signed-up players and a Kefren game between them that anna (Black) is to open.
fn kefren_game() -> (ServerProcess, Cli, Cli, String) {
    let server = ServerProcess::start(&[]);
    let anna = Cli::new(server.data_dir.join("anna"));
    let bob = Cli::new(server.data_dir.join("bob"));
    anna.sign_up(&server, "anna");
    bob.sign_up(&server, "bob");
    let id = anna.json(&["new", "kefren", "--with", "bob"])["game"]["id"]
        .as_i64()
        .unwrap()
        .to_string();
    assert_eq!(bob.json(&["accept", &id])["game"]["status"], "active");
    (server, anna, bob, id)
}

#[test]
fn the_completion_entry_point_lists_the_legal_moves_of_the_player_to_move() {
    let (_server, anna, bob, id) = kefren_game();

    let opening = listed_moves(&anna, &id);
    assert_eq!(opening.len(), 25, "{opening:?}");
    assert_eq!(complete(&anna, "", &["move", &id], &[]), opening);
    // Options before and after the id, and the profile named on the line.
    assert_eq!(
        complete(
            &anna,
            "",
            &["--profile", "default", "move", "--dry-run", &id],
            &[]
        ),
        opening
    );

    // What is typed filters: exactly, or ignoring case spelled as typed.
    let f2: Vec<String> = opening
        .iter()
        .filter(|mv| mv.starts_with("F2"))
        .cloned()
        .collect();
    assert!(!f2.is_empty() && f2.len() < opening.len());
    assert_eq!(complete(&anna, "F2", &["move", &id], &[]), f2);
    let lower: Vec<String> = f2.iter().map(|mv| format!("f2{}", &mv[2..])).collect();
    assert_eq!(complete(&anna, "f2", &["move", &id], &[]), lower);
    assert!(complete(&anna, "Z9", &["move", &id], &[]).is_empty());

    // Anywhere else on the line it completes nothing: the static script does.
    for words in [
        &["move"][..],
        &["move", &id, "--ply"],
        &["move", &id, "F2-F3"],
        &["show", &id],
    ] {
        assert!(complete(&anna, "", words, &[]).is_empty(), "{words:?}");
    }
    assert!(complete(&anna, "--", &["move", &id], &[]).is_empty());

    // After anna's move, the moves are bob's.
    anna.json(&["move", &id, "--ply", "0", "F2-F3"]);
    let reply = listed_moves(&bob, &id);
    assert_ne!(reply, opening);
    assert!(reply
        .iter()
        .all(|mv| mv.contains("18") || mv.contains("19")));
    assert_eq!(complete(&bob, "", &["move", &id], &[]), reply);
}

#[test]
fn move_completion_uses_the_active_profile_and_gives_up_quietly_and_quickly() {
    let (server, anna, _bob, id) = kefren_game();
    let url = format!("http://{}", server.address);

    // A profile that does not exist, by flag or by environment: nothing, silently.
    assert!(complete(&anna, "", &["--profile", "club", "move", &id], &[]).is_empty());
    assert!(complete(&anna, "", &["move", &id], &[("TURNPOST_PROFILE", "club")]).is_empty());
    // TURNPOST_SERVER and TURNPOST_TOKEN override the profile: with a stranger's token the
    // server refuses, which completes nothing.
    assert!(complete(
        &anna,
        "",
        &["move", &id],
        &[
            ("TURNPOST_SERVER", &url),
            ("TURNPOST_TOKEN", "tp_not_a_token")
        ]
    )
    .is_empty());

    // A server that accepts connections and never answers: given up after about 2 s.
    let hanging = TcpListener::bind("127.0.0.1:0").unwrap();
    let hanging_url = format!("http://{}", hanging.local_addr().unwrap());
    let started = Instant::now();
    let out = complete(
        &anna,
        "",
        &["move", &id],
        &[("TURNPOST_SERVER", &hanging_url)],
    );
    let waited = started.elapsed();
    assert!(out.is_empty());
    assert!(
        waited >= Duration::from_millis(1500) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
    drop(hanging);

    // No server at all.
    let closed = turnpost_tests::ClosedPort::new();
    assert!(complete(
        &anna,
        "",
        &["move", &id],
        &[("TURNPOST_SERVER", &closed.url())]
    )
    .is_empty());
}

/// Runs `bash` with the script of `turnpost completions bash` sourced, as bash would call the
/// completion function registered for `turnpost` with the cursor at the end of `line`;
/// returns COMPREPLY.
fn bash_complete(player: &Cli, script: &Path, line: &str) -> Vec<String> {
    let bin_dir = binary("turnpost-client", "turnpost")
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let program = r#"
        source "$1"
        COMP_LINE=$2
        COMP_POINT=${#COMP_LINE}
        read -ra COMP_WORDS <<<"$COMP_LINE"
        [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        spec=$(complete -p turnpost)
        function=${spec#*-F }
        function=${function%% *}
        "$function" turnpost "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s\n' "${COMPREPLY[@]}"
    "#;
    let out = player
        .program(
            Path::new("bash"),
            &[
                "--norc",
                "--noprofile",
                "-c",
                program,
                "bash",
                script.to_str().unwrap(),
                line,
            ],
        )
        .env("PATH", path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{line}: {}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "", "{line}");
    lines(&out)
        .into_iter()
        .filter(|reply| !reply.is_empty())
        .collect()
}

#[test]
fn bash_completes_the_legal_moves_after_turnpost_move_id() {
    let (server, anna, _bob, id) = kefren_game();
    let out = anna.run(&["completions", "bash"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let script = server.data_dir.join("turnpost.bash");
    std::fs::write(&script, &out.stdout).unwrap();

    let opening = listed_moves(&anna, &id);
    assert_eq!(
        bash_complete(&anna, &script, &format!("turnpost move {id} ")),
        opening
    );
    let f2: Vec<String> = opening
        .iter()
        .filter(|mv| mv.starts_with("F2"))
        .cloned()
        .collect();
    assert!(!f2.is_empty());
    assert_eq!(
        bash_complete(&anna, &script, &format!("turnpost move {id} F2")),
        f2
    );
    assert_eq!(
        bash_complete(
            &anna,
            &script,
            &format!("turnpost --profile default move {id} ")
        ),
        opening
    );

    // Elsewhere, clap's static completion answers: commands and options.
    let commands = bash_complete(&anna, &script, "turnpost who");
    assert_eq!(commands, ["whoami"]);
    let options = bash_complete(&anna, &script, &format!("turnpost move {id} --dr"));
    assert_eq!(options, ["--dry-run"]);
}

#[test]
fn bash_replaces_only_what_follows_the_last_colon_typed() {
    // bash splits words at `:`, so a reply must not repeat the `F3:` already on the line. A
    // stand-in `turnpost` answers with captures, which a new game has none of.
    let dir = std::env::temp_dir().join(format!("turnpost-colon-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Cli::new(dir.clone()).run(&["completions", "bash"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let script = dir.join("turnpost.bash");
    std::fs::write(&script, &out.stdout).unwrap();
    let stand_in = dir.join("turnpost");
    std::fs::write(
        &stand_in,
        "#!/bin/sh\n[ \"$1 $2 $3 $4 $5 $6\" = '__complete-moves --current F3:E -- move 1' ] \
         && printf 'F3:E4:E7\\nF3:E4:G5\\n'\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&stand_in, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let program = r#"
        source "$1"
        COMP_LINE="turnpost move 1 F3:E"
        COMP_POINT=${#COMP_LINE}
        COMP_WORDS=(turnpost move 1 F3 : E)
        COMP_CWORD=5
        _turnpost_moves turnpost E :
        printf '%s\n' "${COMPREPLY[@]}"
    "#;
    let out = std::process::Command::new("bash")
        .args(["--norc", "--noprofile", "-c", program, "bash"])
        .arg(&script)
        .env(
            "PATH",
            format!("{}:{}", dir.display(), std::env::var("PATH").unwrap()),
        )
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(lines(&out), ["E4:E7", "E4:G5"]);
}

#[test]
fn bash_replaces_only_what_follows_the_at_sign_typed() {
    // bash also splits words at `@` (COMP_WORDBREAKS), so `R@<TAB>` must not become `RR@d4`.
    let dir = std::env::temp_dir().join(format!("turnpost-at-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = Cli::new(dir.clone()).run(&["completions", "bash"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let script = dir.join("turnpost.bash");
    std::fs::write(&script, &out.stdout).unwrap();
    let stand_in = dir.join("turnpost");
    std::fs::write(
        &stand_in,
        "#!/bin/sh\n[ \"$1 $2 $3 $4 $5 $6\" = '__complete-moves --current R@ -- move 4' ] \
         && printf 'R@a1\\nR@d4\\n'\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&stand_in, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let program = r#"
        source "$1"
        COMP_LINE="turnpost move 4 R@"
        COMP_POINT=${#COMP_LINE}
        COMP_WORDS=(turnpost move 4 R @ "")
        COMP_CWORD=5
        _turnpost_moves turnpost "" @
        printf '%s\n' "${COMPREPLY[@]}"
    "#;
    let out = std::process::Command::new("bash")
        .args(["--norc", "--noprofile", "-c", program, "bash"])
        .arg(&script)
        .env(
            "PATH",
            format!("{}:{}", dir.display(), std::env::var("PATH").unwrap()),
        )
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    // What bash puts after `R@` on the line: with the default word breaks, just the cell.
    assert_eq!(lines(&out), ["a1", "d4"]);
}
