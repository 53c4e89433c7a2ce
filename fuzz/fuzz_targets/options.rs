//! The options parser of every game: no panic, and accepted options print to a canonical form
//! that reads back to the same variant.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    turnpost_fuzz::check_options(data);
});
