//! The players' rules texts (`rules_for_players`) cannot rot: every example command in them is
//! played through the engine, every move quoted in them is one of those examples' moves, and
//! every quoted position text is read back.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use turnpost_shared::play::split_move_list;
use turnpost_shared::rules::rules_for_players;
use turnpost_shared::{AnyGame, GameKind, Options};

/// One `turnpost engine show KIND [--option k=v]… [--position "…"] [--moves "…"]` line.
struct Example {
    kind: GameKind,
    options: Vec<String>,
    position: Option<String>,
    moves: Vec<String>,
}

/// Splits a command line into words, honouring double quotes.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    for ch in line.chars() {
        match ch {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            ' ' if !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            _ => {
                word.push(ch);
                started = true;
            }
        }
    }
    assert!(!quoted, "unbalanced quotes in `{line}`");
    if started {
        words.push(word);
    }
    words
}

fn examples(text: &str) -> Vec<Example> {
    let mut found = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if !line.starts_with("turnpost engine ") {
            continue;
        }
        let words = shell_words(line);
        assert_eq!(
            words[2], "show",
            "example commands use `engine show`: {line}"
        );
        let mut example = Example {
            kind: words[3].parse().unwrap(),
            options: Vec::new(),
            position: None,
            moves: Vec::new(),
        };
        let mut rest = words[4..].iter();
        while let Some(flag) = rest.next() {
            let value = rest
                .next()
                .unwrap_or_else(|| panic!("{flag} without value: {line}"));
            match flag.as_str() {
                "--option" => example.options.push(value.clone()),
                "--position" => example.position = Some(value.clone()),
                "--moves" => {
                    example.moves = split_move_list(value);
                }
                other => panic!("unexpected {other} in {line}"),
            }
        }
        found.push(example);
    }
    found
}

/// The texts between backticks.
fn quoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

fn start(kind: GameKind, options: &[String], position: Option<&str>) -> AnyGame {
    let options = Options::from_pairs(options).unwrap();
    match position {
        None => AnyGame::new(kind, &options).unwrap(),
        Some(text) => AnyGame::from_position_text(&options, text).unwrap(),
    }
}

#[test]
fn every_example_command_plays_through_the_engine() {
    for kind in GameKind::ALL {
        let text = rules_for_players(kind);
        let found = examples(text);
        assert!(
            found.len() >= 2,
            "{kind}: at least two examples, found {}",
            found.len()
        );
        for example in &found {
            assert_eq!(example.kind, kind, "{kind}'s text shows another game");
            let game = start(kind, &example.options, example.position.as_deref());
            if let Err(error) = game.replay(&example.moves) {
                panic!("{kind}: example {:?} fails: {error}", example.moves);
            }
        }
        // An opening move from the standard start position.
        assert!(
            found
                .iter()
                .any(|e| e.options.is_empty() && e.position.is_none() && !e.moves.is_empty()),
            "{kind}: no opening move from the standard start"
        );
    }
}

#[test]
fn every_quoted_move_is_a_played_example() {
    for kind in GameKind::ALL {
        let text = rules_for_players(kind);
        let played: Vec<String> = examples(text).into_iter().flat_map(|e| e.moves).collect();
        let probe = AnyGame::new(kind, &Options::new()).unwrap();
        let mut checked = 0;
        for span in quoted(text) {
            // A span that is a move text by syntax (whether or not legal at the start).
            let is_move = match probe.canonical_move(span) {
                Ok(_) => true,
                Err(turnpost_shared::MoveError::Illegal { .. }) => true,
                Err(turnpost_shared::MoveError::Syntax(_)) => false,
            };
            // Word forms (SanQi's `red d4`) cannot stand in a move list, so no example plays them.
            if !is_move || span == "pass" || span.contains(' ') {
                continue;
            }
            checked += 1;
            let split = span.split(',').map(str::trim).collect::<Vec<_>>();
            let listed = played.iter().any(|m| m == span)
                || split
                    .iter()
                    .all(|part| played.iter().any(|m| m.split(',').any(|p| p == *part)));
            assert!(
                listed,
                "{kind}: `{span}` is quoted but played in no example command"
            );
        }
        assert!(checked >= 2, "{kind}: only {checked} quoted moves found");
    }
}

#[test]
fn every_quoted_position_text_reads_back() {
    for kind in GameKind::ALL {
        let text = rules_for_players(kind);
        let prefix = format!("{} ", kind.name());
        let positions: Vec<&str> = quoted(text)
            .into_iter()
            .filter(|span| span.starts_with(&prefix) && span.contains('/'))
            .collect();
        assert!(!positions.is_empty(), "{kind}: no position text quoted");
        for position in positions {
            let game = AnyGame::from_position_text(&Options::new(), position)
                .unwrap_or_else(|error| panic!("{kind}: `{position}`: {error}"));
            assert_eq!(game.position_text(), position);
        }
    }
}

#[test]
fn every_option_is_explained() {
    for kind in GameKind::ALL {
        let text = rules_for_players(kind);
        for spec in AnyGame::option_specs(kind) {
            assert!(
                text.contains(&format!("`{}=", spec.key)),
                "{kind}: option {} is not explained",
                spec.key
            );
        }
    }
}
