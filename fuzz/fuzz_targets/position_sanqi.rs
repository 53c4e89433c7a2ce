//! The position-text reader of one game: no panic on any text, and a text it reads prints back
//! to a text that reads to the same position.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    turnpost_fuzz::check_position_text(turnpost_shared::GameKind::SanQi, data);
});
