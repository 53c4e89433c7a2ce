//! The hand-written pieces against the maintained crates that could replace them, side by side
//! in one run on the same inputs: the palette PNG writer against the `png` crate, the Markdown
//! renderer against `pulldown-cmark`, the HTML mail reader against `nanohtml2text`, the rate
//! limiter against `governor`. Prints the time a call (best of a few rounds, one thread) and
//! what each produces, so a module's doc can say why it is kept.
//!
//! `cargo bench -p turnpost-server --bench hand_written` (no database needed).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_precision_loss,
    reason = "a benchmark binary: a failed set-up should stop it loudly"
)]

mod support;

use std::hint::black_box;
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

use turnpost_server::http::ratelimit::RateLimiter;
use turnpost_server::mail::picture::{svg_png, PictureError};
use turnpost_shared::render::render_svg;
use turnpost_shared::rules::rules_for_players;
use turnpost_shared::{AnyGame, GameKind, Options, Status};

/// The palette PNG writer, compiled from its source: it is private to the crate, and this way
/// the bench runs exactly its code (its errors are the crate's [`PictureError`]).
#[allow(
    dead_code,
    unused_imports,
    reason = "only the encoder is measured; its tests' imports without its tests"
)]
#[path = "../src/mail/picture/indexed_png.rs"]
mod indexed_png;

/// The Markdown renderer, compiled from its source (private to the crate).
#[allow(
    dead_code,
    unused_imports,
    reason = "only the page renderer is measured; its tests' imports without its tests"
)]
#[path = "../src/web/markdown.rs"]
mod markdown;

/// The HTML mail reader, compiled from its source (private to the crate).
#[allow(
    dead_code,
    unused_imports,
    reason = "only the whole reading is measured; its tests' imports without its tests"
)]
#[path = "../src/inbound/html_text.rs"]
mod html_text;

/// Rounds of each measurement; the best is printed (the least disturbed by the machine).
const ROUNDS: usize = 5;

fn main() {
    png_writer();
    markdown_renderer();
    html_reader();
    rate_limiter();
}

/// The best time of [`ROUNDS`] runs of `work`.
fn best(mut work: impl FnMut()) -> Duration {
    (0..ROUNDS)
        .map(|_| {
            let started = Instant::now();
            work();
            started.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn micros(time: Duration, calls: usize) -> f64 {
    time.as_secs_f64() * 1e6 / calls as f64
}

// ---------------------------------------------------------------------------------------------
// PNG

/// A card's picture as the mail worker hands it to the encoder.
struct IndexedImage {
    width: u32,
    height: u32,
    palette: Vec<[u8; 4]>,
    indices: Vec<u8>,
}

fn png_writer() {
    let images = card_images();
    let n = images.len();
    println!("\n== palette PNG writer: {n} turn-card pictures (9 boards, 20 positions each)");
    println!("{:<44} {:>10} {:>10}", "encoder", "µs a card", "kB a card");
    let ours = |image: &IndexedImage| {
        indexed_png::encode_indexed(&image.indices, image.width, image.height, &image.palette)
            .unwrap()
    };
    let crate_with = |filter: png::Filter, compression: png::Compression| {
        move |image: &IndexedImage| crate_png(image, filter, compression)
    };
    let encoders: [(&str, Box<Encoder>); 4] = [
        ("ours: filter Up, fdeflate", Box::new(ours)),
        (
            "png: Filter::Up, Compression::Fast",
            Box::new(crate_with(png::Filter::Up, png::Compression::Fast)),
        ),
        (
            "png: Filter::Adaptive, Compression::Fast",
            Box::new(crate_with(png::Filter::Adaptive, png::Compression::Fast)),
        ),
        (
            "png: Filter::Up, Compression::Balanced",
            Box::new(crate_with(png::Filter::Up, png::Compression::Balanced)),
        ),
    ];
    for (name, encode) in &encoders {
        let mut bytes = 0;
        for image in &images {
            let png = encode(image);
            assert_eq!(
                decode_indexed(&png).unwrap().indices,
                image.indices,
                "{name}"
            );
            bytes += png.len();
        }
        let time = best(|| {
            for image in &images {
                black_box(encode(black_box(image)));
            }
        });
        println!(
            "{name:<44} {:>10.1} {:>10.2}",
            micros(time, n),
            bytes as f64 / n as f64 / 1000.0
        );
    }
}

/// A way of writing a card's picture as a PNG file.
type Encoder = dyn Fn(&IndexedImage) -> Vec<u8>;

/// `image` written by the `png` crate with `filter` and `compression`.
fn crate_png(image: &IndexedImage, filter: png::Filter, compression: png::Compression) -> Vec<u8> {
    let rgb: Vec<u8> = image
        .palette
        .iter()
        .flat_map(|c| [c[0], c[1], c[2]])
        .collect();
    let translucent = image
        .palette
        .iter()
        .rposition(|c| c[3] < u8::MAX)
        .map_or(0, |at| at + 1);
    let opacities: Vec<u8> = image.palette[..translucent].iter().map(|c| c[3]).collect();
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, image.width, image.height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(rgb);
    if !opacities.is_empty() {
        encoder.set_trns(opacities);
    }
    // After the compression: it sets a filter of its own.
    encoder.set_compression(compression);
    encoder.set_filter(filter);
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(&image.indices).unwrap();
    writer.finish().unwrap();
    out
}

/// The palette image in `png`, or `None` for another colour type.
fn decode_indexed(png: &[u8]) -> Option<IndexedImage> {
    let mut reader = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .unwrap();
    let info = reader.info();
    if info.color_type != png::ColorType::Indexed {
        return None;
    }
    let rgb = info.palette.as_deref().unwrap_or_default().to_vec();
    let alpha = info.trns.as_deref().unwrap_or_default().to_vec();
    let palette = rgb
        .chunks(3)
        .enumerate()
        .map(|(i, c)| [c[0], c[1], c[2], alpha.get(i).copied().unwrap_or(u8::MAX)])
        .collect();
    let mut indices = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut indices).unwrap();
    indices.truncate(frame.buffer_size());
    Some(IndexedImage {
        width: frame.width,
        height: frame.height,
        palette,
        indices,
    })
}

/// The turn cards' pictures of every board (20 positions of a game each, a move from the middle
/// of the sorted legal moves each time), drawn as the mail worker draws them and read back.
fn card_images() -> Vec<IndexedImage> {
    let boards = support::CARD_BOARDS;
    let mut images = Vec::new();
    for (kind, pairs) in boards {
        let mut options = Options::new();
        for (key, value) in pairs {
            options.set(key, *value);
        }
        let mut game = AnyGame::new(kind, &options).unwrap();
        for ply in 0..20 {
            let Status::Ongoing { .. } = game.status() else {
                break;
            };
            let moves = game.legal_moves();
            let Some(text) = moves.get((moves.len() / 2 + ply) % moves.len().max(1)) else {
                break;
            };
            game = game.play(text).unwrap().0;
            let png = svg_png(&render_svg(&game.board_view())).unwrap();
            images.extend(decode_indexed(&png.bytes));
        }
    }
    images
}

// ---------------------------------------------------------------------------------------------
// Markdown

fn markdown_renderer() {
    let mut inputs: Vec<(String, String)> = GameKind::ALL
        .iter()
        .map(|kind| {
            (
                format!("rules of {}", kind.name()),
                rules_for_players(*kind).to_owned(),
            )
        })
        .collect();
    inputs.push((
        "hostile: 4 000 `code` spans in a paragraph".to_owned(),
        "`F3:E4` <script>x</script> ".repeat(4_000),
    ));
    inputs.push((
        "hostile: 20 000 unclosed `**` and backticks".to_owned(),
        "** ` ".repeat(20_000),
    ));
    println!("\n== Markdown renderer (raw HTML escaped by both)");
    println!(
        "{:<44} {:>9} {:>12} {:>12} {:>14}",
        "input", "kB", "ours µs", "pulldown µs", "same HTML"
    );
    for (name, text) in &inputs {
        let ours = markdown::render(text).into_string();
        let theirs = pulldown_html(text);
        assert!(!ours.contains("<script>") && !theirs.contains("<script>"));
        let ours_time = best(|| {
            black_box(markdown::render(black_box(text)).into_string());
        });
        let theirs_time = best(|| {
            black_box(pulldown_html(black_box(text)));
        });
        println!(
            "{name:<44} {:>9.1} {:>12.1} {:>12.1} {:>14}",
            text.len() as f64 / 1000.0,
            micros(ours_time, 1),
            micros(theirs_time, 1),
            if ours == theirs { "yes" } else { "no" }
        );
    }
}

/// `text` rendered by `pulldown-cmark`, raw HTML shown as text (as ours shows it).
fn pulldown_html(text: &str) -> String {
    use pulldown_cmark::{Event, Parser};
    let events = Parser::new(text).map(|event| match event {
        Event::Html(html) | Event::InlineHtml(html) => Event::Text(html),
        other => other,
    });
    let mut html = String::with_capacity(text.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

// ---------------------------------------------------------------------------------------------
// HTML mail parts

fn html_reader() {
    let mut inputs: Vec<(String, String)> = [
        (
            "Gmail reply",
            include_bytes!("../tests/fixtures/messages/gmail.eml").as_slice(),
        ),
        (
            "HTML-only reply",
            include_bytes!("../tests/fixtures/messages/html_only.eml").as_slice(),
        ),
        (
            "HTML-only reply, Latin-1",
            include_bytes!("../tests/fixtures/inbound/html_only_latin1.eml").as_slice(),
        ),
    ]
    .into_iter()
    .map(|(name, eml)| (name.to_owned(), html_part(eml)))
    .collect();
    let (quote, quoted_card) = ("<blockquote type=\"cite\">", "</blockquote>");
    inputs.push((
        "Apple-style reply quoting a 30 kB card".to_owned(),
        format!(
            "<html><body><div>F3:E4:E7</div><div>good luck</div><br>{quote}{}{quoted_card}</body></html>",
            "<div><table><tr><td>A</td><td>b&amp;c</td></tr></table><img src=\"cid:x\"></div>"
                .repeat(400)
        ),
    ));
    inputs.push((
        "hostile: 78 000 </blockquote>".to_owned(),
        format!("F3-E4<br>{}resign<br>", "</blockquote>".repeat(78_000)),
    ));
    inputs.push((
        "hostile: 39 000 nested blockquotes".to_owned(),
        format!(
            "draw offer<br>{}quoted{}E2-E3<br>",
            "<blockquote>".repeat(39_000),
            "</Blockquote >".repeat(39_000)
        ),
    ));
    // Twice as many tags: a reader linear in its input takes twice as long.
    for count in [4_000, 8_000] {
        inputs.push((
            format!("hostile: {count} unclosed <blockquote"),
            format!("resign<br>{}", "<blockquote".repeat(count)),
        ));
    }
    inputs.push((
        "hostile: 20 000 nested <div>".to_owned(),
        format!(
            "F3-E4{}x{}",
            "<div>".repeat(20_000),
            "</div>".repeat(20_000)
        ),
    ));
    println!(
        "\n== HTML mail reader (ours: blockquotes out, <div> as lines, mail-parser's html_to_text)"
    );
    println!(
        "{:<44} {:>9} {:>12} {:>15} {:>16}",
        "input", "kB", "ours µs", "nanohtml2text µs", "same lines"
    );
    for (name, html) in &inputs {
        let ours = html_text::html_body_text(html);
        let theirs = nanohtml2text::html2text(html);
        let ours_time = best(|| {
            black_box(html_text::html_body_text(black_box(html)));
        });
        let theirs_time = best(|| {
            black_box(nanohtml2text::html2text(black_box(html)));
        });
        let same = written(&ours) == written(&theirs);
        println!(
            "{name:<44} {:>9.1} {:>12.1} {:>15.1} {:>16}",
            html.len() as f64 / 1000.0,
            micros(ours_time, 1),
            micros(theirs_time, 1),
            if same {
                "yes".to_owned()
            } else {
                format!(
                    "no ({} vs {})",
                    written(&ours).len(),
                    written(&theirs).len()
                )
            }
        );
    }
}

/// The HTML part of a mail.
fn html_part(eml: &[u8]) -> String {
    let message = mail_parser::MessageParser::default().parse(eml).unwrap();
    message
        .parts
        .iter()
        .find_map(|part| match &part.body {
            mail_parser::PartType::Html(html) => Some(html.to_string()),
            _ => None,
        })
        .unwrap()
}

/// The non-empty lines of `text`, trimmed: what the mail reader looks at.
fn written(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Rate limiter

/// Sign-up's budget by default: 10 requests per client a quarter of an hour.
const CAPACITY: u32 = 10;
const WINDOW: Duration = Duration::from_secs(15 * 60);

fn rate_limiter() {
    println!("\n== rate limiter ({CAPACITY} per 15 min a key; ns a check)");
    println!("{:<52} {:>10} {:>10}", "pattern", "ours", "governor");
    let hot = vec!["sign-up|198.51.100.7".to_owned()];
    let clients = |count: usize| -> Vec<String> {
        (0..count)
            .map(|i| format!("sign-up|2001:db8:{:x}:{:x}::/64", i / 65_536, i % 65_536))
            .collect()
    };
    let patterns: [(&str, Vec<String>, usize); 4] = [
        (
            "one client, 100 000 checks (refused after 10)",
            hot,
            100_000,
        ),
        (
            "1 000 clients in turn, 100 000 checks",
            clients(1_000),
            100_000,
        ),
        ("9 000 new clients, one check each", clients(9_000), 9_000),
        (
            "30 000 new clients, one check each",
            clients(30_000),
            30_000,
        ),
    ];
    for (name, keys, checks) in &patterns {
        let ours = best(|| {
            let limiter = RateLimiter::new(CAPACITY, WINDOW);
            for key in keys.iter().cycle().take(*checks) {
                black_box(limiter.check(key).is_ok());
            }
        });
        let theirs = best(|| {
            let limiter = governor_limiter();
            let clock = governor::clock::DefaultClock::default();
            for key in keys.iter().cycle().take(*checks) {
                black_box(check_with_wait(&limiter, &clock, key).is_ok());
            }
        });
        println!(
            "{name:<52} {:>10.0} {:>10.0}",
            micros(ours, *checks) * 1000.0,
            micros(theirs, *checks) * 1000.0
        );
    }
    let keys = clients(30_000);
    let limiter = governor_limiter();
    for key in &keys {
        black_box(limiter.check_key(key).is_ok());
    }
    let started = Instant::now();
    limiter.retain_recent();
    println!(
        "governor's retain_recent over 30 000 keys (its eviction, called by the user): {:.0} µs",
        micros(started.elapsed(), 1)
    );
}

type KeyedLimiter = governor::DefaultKeyedRateLimiter<String>;

/// `governor`'s keyed limiter with the same budget: a burst of [`CAPACITY`], refilled evenly
/// over [`WINDOW`].
fn governor_limiter() -> KeyedLimiter {
    let quota = governor::Quota::with_period(WINDOW / CAPACITY)
        .unwrap()
        .allow_burst(NonZeroU32::new(CAPACITY).unwrap());
    governor::RateLimiter::dashmap(quota)
}

/// One check, with the seconds to wait when refused (as ours answers).
fn check_with_wait(
    limiter: &KeyedLimiter,
    clock: &governor::clock::DefaultClock,
    key: &String,
) -> Result<(), u64> {
    use governor::clock::Clock;
    limiter
        .check_key(key)
        .map_err(|not_until| not_until.wait_time_from(clock.now()).as_secs().max(1))
}
