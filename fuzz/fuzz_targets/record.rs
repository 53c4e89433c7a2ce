//! The game-record reader: no panic, a record read prints back to the same record, and
//! replaying it never panics.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    turnpost_fuzz::check_record(data);
});
