//! Perft benchmarks: `cargo bench -p turnpost-shared --bench perft [filter]`.
//! Prints nodes, seconds and nodes per second for each case (best of a few runs, one thread).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use turnpost_shared::{AnyGame, GameKind, Options};

struct Case {
    name: &'static str,
    kind: GameKind,
    options: &'static [&'static str],
    depth: u32,
    nodes: u64,
}

const CASES: &[Case] = &[
    Case {
        name: "kefren-start-perft-5",
        kind: GameKind::Kefren,
        options: &[],
        depth: 5,
        nodes: 0,
    },
    Case {
        name: "sanqi-start-perft-4",
        kind: GameKind::SanQi,
        options: &[],
        depth: 4,
        nodes: 128_400_480,
    },
    Case {
        name: "kechi-start-perft-2",
        kind: GameKind::Kechi,
        options: &[],
        depth: 2,
        nodes: 978_121,
    },
    Case {
        name: "kechi-lines-5-perft-2",
        kind: GameKind::Kechi,
        options: &["lines=5"],
        depth: 2,
        nodes: 17_606_416,
    },
    Case {
        name: "chinese-checkers-2p-start-perft-5",
        kind: GameKind::ChineseCheckers,
        options: &[],
        depth: 5,
        nodes: 3_188_520,
    },
    Case {
        name: "chinese-checkers-2p-start-perft-6",
        kind: GameKind::ChineseCheckers,
        options: &[],
        depth: 6,
        nodes: 87_946_884,
    },
];

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with("--"))
        .collect();
    for case in CASES {
        if !filter.is_empty() && !filter.iter().any(|f| case.name.contains(f.as_str())) {
            continue;
        }
        let game = AnyGame::new(case.kind, &Options::from_pairs(case.options).unwrap()).unwrap();
        let mut best = Duration::MAX;
        let mut nodes = 0;
        for _ in 0..3 {
            let started = Instant::now();
            nodes = game.perft(case.depth);
            best = best.min(started.elapsed());
        }
        if case.nodes != 0 {
            assert_eq!(nodes, case.nodes, "{}", case.name);
        }
        let seconds = best.as_secs_f64();
        println!(
            "{:<36} {:>12} nodes {:>8.3} s {:>8.2} M nodes/s",
            case.name,
            nodes,
            seconds,
            nodes as f64 / seconds / 1e6
        );
    }
}
