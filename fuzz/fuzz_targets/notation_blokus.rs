//! The blokus notation (every variant: classic, Duo, Trigon, through the
//! input's tags), in a gamerec record (tags from the input after the
//! `Game` tag): see the fuzz crate's `lib.rs` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    gamerec_fuzz::notation("blokus", data);
});
