//! The move parser of one game, on positions read from the input (the corpus holds real
//! ones): no panic,
//! syntax errors point inside the text, and a move read is legal and round-trips through its
//! canonical text.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    turnpost_fuzz::check_move_text(turnpost_shared::GameKind::Kefren, data);
});
