//! The blokus3d notation, in a gamerec record (tags from the input after the
//! `Game` tag): see the fuzz crate's `lib.rs` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    gamerec_fuzz::notation("blokus3d", data);
});
