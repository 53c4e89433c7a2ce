//! Board picture benchmark: the turn card's picture drawn whole with resvg (every element
//! every time, RGBA PNG: how it was drawn before) and in layers (board and cell drawings from
//! the cache, palette PNG: how the mail worker draws it now), for games of every variant and
//! board size played `TURNPOST_BENCH_PLIES` moves in (default 40), one picture per position,
//! the last moves highlighted as on a card. Prints the CPU time per picture (one thread) and
//! the PNG size, for the first pass of the layered drawing (the cache filling) and a second.
//!
//! `cargo bench -p turnpost-server --bench card_picture`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_precision_loss,
    reason = "a benchmark binary: a failed set-up should stop it loudly"
)]

mod support;

use std::time::{Duration, Instant};

use turnpost_server::mail::picture::{has_fonts, svg_png, svg_png_whole, PictureError, Png};
use turnpost_shared::render::render_svg;
use turnpost_shared::{AnyGame, GameKind, Options, Seat, Status};

fn main() {
    let plies: usize = std::env::var("TURNPOST_BENCH_PLIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40);
    let boards = support::CARD_BOARDS;
    println!(
        "board pictures, {plies} positions a board, fonts found: {}",
        has_fonts()
    );
    println!(
        "{:<36} {:>10} {:>10} {:>10} {:>10} {:>9} {:>9}",
        "board", "whole ms", "first ms", "cached ms", "speed-up", "whole kB", "layer kB"
    );
    let mut totals = [Duration::ZERO; 3];
    let mut bytes = [0usize; 2];
    let mut count = 0usize;
    for (kind, pairs) in boards {
        let svgs = positions(kind, pairs, plies);
        let n = svgs.len() as f64;
        let (whole, whole_bytes) = timed(&svgs, svg_png_whole);
        let (first, _) = timed(&svgs, svg_png);
        let (cached, layer_bytes) = timed(&svgs, svg_png);
        println!(
            "{:<36} {:>10.3} {:>10.3} {:>10.3} {:>9.1}x {:>9.1} {:>9.1}",
            format!("{} {pairs:?}", kind.name()),
            ms(whole) / n,
            ms(first) / n,
            ms(cached) / n,
            whole.as_secs_f64() / cached.as_secs_f64(),
            whole_bytes as f64 / n / 1000.0,
            layer_bytes as f64 / n / 1000.0,
        );
        for (total, time) in totals.iter_mut().zip([whole, first, cached]) {
            *total += time;
        }
        bytes[0] += whole_bytes;
        bytes[1] += layer_bytes;
        count += svgs.len();
    }
    let n = count as f64;
    println!(
        "{:<36} {:>10.3} {:>10.3} {:>10.3} {:>9.1}x {:>9.1} {:>9.1}",
        format!("all ({count} pictures)"),
        ms(totals[0]) / n,
        ms(totals[1]) / n,
        ms(totals[2]) / n,
        totals[0].as_secs_f64() / totals[2].as_secs_f64(),
        bytes[0] as f64 / n / 1000.0,
        bytes[1] as f64 / n / 1000.0,
    );
}

fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1000.0
}

/// Draws every SVG with `draw`: the time taken and the PNG bytes made.
fn timed(svgs: &[String], draw: fn(&str) -> Result<Png, PictureError>) -> (Duration, usize) {
    let started = Instant::now();
    let mut bytes = 0;
    for svg in svgs {
        bytes += draw(svg).unwrap().bytes.len();
    }
    (started.elapsed(), bytes)
}

/// The card pictures of a game of `kind` played `plies` moves in (a move from the middle of
/// the sorted legal moves each time): one SVG a position, its last two moves highlighted.
fn positions(kind: GameKind, pairs: &[(&str, &str)], plies: usize) -> Vec<String> {
    let mut options = Options::new();
    for (key, value) in pairs {
        options.set(key, *value);
    }
    let mut game = AnyGame::new(kind, &options).unwrap();
    let mut played: Vec<(Seat, String)> = Vec::new();
    let mut svgs = Vec::new();
    for ply in 0..plies {
        let Status::Ongoing { to_move } = game.status() else {
            break;
        };
        let moves = game.legal_moves();
        let Some(text) = moves.get((moves.len() / 2 + ply) % moves.len().max(1)) else {
            break;
        };
        let (next, canonical) = game.play(text).unwrap();
        played.push((to_move, canonical));
        game = next;
        let last = played.len().saturating_sub(2);
        let view = game.board_view_with_moves(
            played[last..]
                .iter()
                .map(|(seat, text)| (*seat, text.as_str())),
        );
        svgs.push(render_svg(&view));
    }
    svgs
}
