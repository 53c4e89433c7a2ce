//! The inbound mail reader (replies to game mails): any bytes, no panic; what it reads as the
//! player's lines and reply keys is consistent.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    turnpost_fuzz::check_inbound_message(data);
});
