//! The properties the fuzz targets check, one function per parser. Each takes the fuzzer's
//! bytes, never panics on its own, and panics (a finding) only when a property fails.

mod inbound;
pub use inbound::check_inbound_message;

use turnpost_shared::rules::{OptionValues, ParseMoveError};
use turnpost_shared::{AnyGame, GameKind, GameRecord, MoveError, Options};

/// Splits off the first byte (0 when there is none).
fn take_byte(data: &[u8]) -> (u8, &[u8]) {
    match data.split_first() {
        Some((first, rest)) => (*first, rest),
        None => (0, data),
    }
}

/// How many leading bytes choose the variant: one per option, always this many, so a
/// corpus entry means the same whatever the game.
const VARIANT_BYTES: usize = 8;

/// A variant of `kind` chosen by the first [`VARIANT_BYTES`] bytes, one per option: 0 is the
/// option's default, any other byte picks a value. Combinations the game refuses fall back to
/// the standard game. Returns the bytes after the variant's.
fn variant(kind: GameKind, data: &[u8]) -> (Options, AnyGame, &[u8]) {
    let (choice, rest) = data.split_at(VARIANT_BYTES.min(data.len()));
    let mut options = Options::new();
    for (index, spec) in AnyGame::option_specs(kind).iter().enumerate() {
        let byte = choice.get(index).copied().unwrap_or(0);
        let value = match (byte, spec.values) {
            (0, _) => spec.default.to_string(),
            (_, OptionValues::OneOf(values)) => values
                .get(usize::from(byte - 1) % values.len().max(1))
                .map_or(spec.default.to_string(), |v| (*v).to_string()),
            (_, OptionValues::U64) => byte.to_string(),
        };
        options.set(spec.key, value);
    }
    match AnyGame::new(kind, &options) {
        Ok(game) => (options, game, rest),
        Err(_) => {
            let standard = Options::new();
            match AnyGame::new(kind, &standard) {
                Ok(game) => (standard, game, rest),
                Err(error) => panic!("the standard {kind:?} game cannot start: {error}"),
            }
        }
    }
}

/// A syntax error must point at a character boundary inside the text (or its end).
fn check_offset(text: &str, error: &ParseMoveError) {
    assert!(
        error.offset <= text.len() && text.is_char_boundary(error.offset),
        "offset {} outside {text:?}",
        error.offset
    );
}

/// Move text: bytes = variant, then a position text line (the start position when it does not
/// read), then the move text.
pub fn check_move_text(kind: GameKind, data: &[u8]) {
    let (options, start, rest) = variant(kind, data);
    let Ok(rest) = std::str::from_utf8(rest) else {
        return;
    };
    let (position, text) = rest.split_once('\n').unwrap_or(("", rest));
    let game = AnyGame::from_position_text(&options, position).unwrap_or(start);
    match game.canonical_move(text) {
        Ok(canonical) => {
            assert!(
                game.legal_moves().contains(&canonical),
                "{text:?} read as {canonical}, which is not a legal move"
            );
            assert_eq!(
                game.canonical_move(&canonical).as_ref(),
                Ok(&canonical),
                "canonical text {canonical} does not read back to itself"
            );
            if let Err(error) = game.play(&canonical) {
                panic!("{canonical} is legal but does not play: {error}");
            }
        }
        Err(MoveError::Syntax(error)) => check_offset(text, &error),
        Err(MoveError::Illegal { .. }) => {}
    }
}

/// Position text: bytes = variant, then the text.
pub fn check_position_text(kind: GameKind, data: &[u8]) {
    let (options, _, text) = variant(kind, data);
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let Ok(game) = AnyGame::from_position_text(&options, text) else {
        return;
    };
    let printed = game.position_text();
    let again = match AnyGame::from_position_text(&options, &printed) {
        Ok(again) => again,
        Err(error) => panic!("{printed:?} (printed from {text:?}) does not read: {error}"),
    };
    assert_eq!(again.position_text(), printed, "read from {text:?}");
    let moves = game.legal_moves();
    assert_eq!(game.perft(1), moves.len() as u64);
    let _ = (game.status(), game.scores(), game.board_view());
}

/// Options: bytes = kind, then `key=value` pairs separated by whitespace.
pub fn check_options(data: &[u8]) {
    let (selector, text) = take_byte(data);
    let kinds = [
        GameKind::Kefren,
        GameKind::Kechi,
        GameKind::SanQi,
        GameKind::ChineseCheckers,
    ];
    let Some(kind) = kinds.get(usize::from(selector) % kinds.len()).copied() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    let Ok(options) = Options::from_pairs(text.split_whitespace()) else {
        return;
    };
    let Ok(game) = AnyGame::new(kind, &options) else {
        return;
    };
    let canonical = game.options();
    let again = match AnyGame::new(kind, &canonical) {
        Ok(again) => again,
        Err(error) => panic!("canonical options {canonical:?} refused: {error}"),
    };
    assert_eq!(again.options(), canonical);
    assert_eq!(again.position_text(), game.position_text());
}

/// A game record: the text as it comes.
pub fn check_record(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(record) = GameRecord::parse(text) else {
        return;
    };
    let printed = record.to_text();
    match GameRecord::parse(&printed) {
        Ok(again) => assert_eq!(again, record, "{printed:?}"),
        Err(error) => panic!("{printed:?} (printed from {text:?}) does not read: {error}"),
    }
    let _ = record.replay();
}
