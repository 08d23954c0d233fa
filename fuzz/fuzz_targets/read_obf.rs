//! The `.obf` reader: see the fuzz crate's `lib.rs` for what is checked.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    gamerec_fuzz::read(gamerec::formats::Format::Obf, data);
});
