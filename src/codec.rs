//! Compressed files: gzip (multi-member too), zstd, bzip2 and xz, read and
//! written as a stream.
//!
//! Input is told by its magic bytes ([`Magic::of`]): `pipeline::open` wraps a
//! compressed file in [`decoder`] before any reader sees it, so spans, line
//! numbers and columns are those of the decompressed text, the same as the
//! plain file's. A decoder's error (a truncated or corrupt stream) names the
//! codec and the compressed bytes the decoder had taken when it failed.
//! Names are told by their last extension ([`Codec::of_name`]): format
//! detection and directory scans look through it ([`inner_name`]:
//! `WTH_1990.wtb.gz` is a `.wtb` file), and `convert -o FILE.gz` and `fix`
//! write through an [`Encoder`].
//!
//! The codecs' crates: flate2 on zlib-rs and bzip2 on libbz2-rs-sys (pure
//! Rust), zstd and liblzma (the reference C libraries); a small gzip file
//! of one member is inflated whole by libdeflate ([`WHOLE_GZIP_MAX`]).

use std::cell::Cell;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::rc::Rc;

/// A compression format gamerec reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// gzip (RFC 1952), several members read one after the other.
    Gzip,
    /// Zstandard, several frames read one after the other.
    Zstd,
    /// bzip2, several streams read one after the other.
    Bzip2,
    /// xz, several streams read one after the other.
    Xz,
}

/// What a file's first bytes say it is compressed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Magic {
    /// A codec gamerec decodes.
    Codec(Codec),
    /// A zip archive (several files: not read).
    Zip,
}

impl Magic {
    /// The compression a file's first bytes name, if any.
    pub fn of(head: &[u8]) -> Option<Magic> {
        const MAGIC: [(&[u8], Magic); 5] = [
            (b"\x1f\x8b", Magic::Codec(Codec::Gzip)),
            (b"BZh", Magic::Codec(Codec::Bzip2)),
            (b"\xfd7zXZ\x00", Magic::Codec(Codec::Xz)),
            (b"\x28\xb5\x2f\xfd", Magic::Codec(Codec::Zstd)),
            (b"PK\x03\x04", Magic::Zip),
        ];
        MAGIC
            .iter()
            .find(|(m, _)| head.starts_with(m))
            .map(|&(_, magic)| magic)
    }
}

/// The extensions of the compressed files, lower case, with their codec.
const EXTENSIONS: [(&str, Codec); 4] = [
    ("gz", Codec::Gzip),
    ("zst", Codec::Zstd),
    ("bz2", Codec::Bzip2),
    ("xz", Codec::Xz),
];

impl Codec {
    /// Every codec.
    pub const ALL: [Codec; 4] = [Codec::Gzip, Codec::Zstd, Codec::Bzip2, Codec::Xz];

    /// The codec's name, as its users say it.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Gzip => "gzip",
            Codec::Zstd => "zstd",
            Codec::Bzip2 => "bzip2",
            Codec::Xz => "xz",
        }
    }

    /// The extension of the codec's files (without the dot).
    pub fn extension(self) -> &'static str {
        match self {
            Codec::Gzip => "gz",
            Codec::Zstd => "zst",
            Codec::Bzip2 => "bz2",
            Codec::Xz => "xz",
        }
    }

    /// The codec a file name's last extension names (any case), if any.
    pub fn of_name(name: &str) -> Option<Codec> {
        let (_, ext) = name.rsplit_once('.')?;
        if ext.contains(['/', '\\']) {
            return None;
        }
        EXTENSIONS
            .iter()
            .find(|(e, _)| e.eq_ignore_ascii_case(ext))
            .map(|&(_, c)| c)
    }
}

/// A file name without its compression extension (`WTH_1990.wtb.gz` →
/// `WTH_1990.wtb`); the name itself when it has none.
pub fn inner_name(name: &str) -> &str {
    match Codec::of_name(name) {
        Some(c) => name
            .get(..name.len() - c.extension().len() - 1)
            .unwrap_or(name),
        None => name,
    }
}

/// A reader of the compressed bytes that counts those the decoder takes.
struct Counted<R> {
    inner: R,
    taken: Rc<Cell<u64>>,
}

impl<R: BufRead> Read for Counted<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(out)?;
        self.taken.set(self.taken.get() + n as u64);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counted<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.taken.set(self.taken.get() + amt as u64);
        self.inner.consume(amt);
    }
}

/// A decoder whose errors name the codec and the compressed bytes taken.
/// An error sticks: every read after it gives it again (a reader that
/// stops at an error and reads on meets it where it stopped).
struct Decoded<'a> {
    decoder: Box<dyn Read + 'a>,
    codec: Codec,
    taken: Rc<Cell<u64>>,
    failed: Option<String>,
}

impl Read for Decoded<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if let Some(why) = &self.failed {
            return Err(io::Error::new(io::ErrorKind::InvalidData, why.clone()));
        }
        self.decoder.read(out).map_err(|e| {
            if e.kind() == io::ErrorKind::Interrupted {
                return e;
            }
            let at = self.taken.get();
            let what = if e.kind() == io::ErrorKind::UnexpectedEof {
                "ends early (truncated)".to_string()
            } else if e.to_string().to_ascii_lowercase().contains("memory") {
                format!("needs more memory to decode than gamerec allows ({e})")
            } else {
                format!("is damaged ({e})")
            };
            let why = format!(
                "{} data {what} after {at} compressed bytes read",
                self.codec.name()
            );
            self.failed = Some(why.clone());
            io::Error::new(io::ErrorKind::InvalidData, why)
        })
    }
}

/// The largest zstd window decoded (2^25 bytes, 32 MiB: every level up to
/// `--ultra -20`); a frame that asks for more (`--long=26` and up, `-21`,
/// `-22`) is refused, so that no input makes the decoder take more memory.
const ZSTD_WINDOW_LOG_MAX: u32 = 25;

/// The most memory the xz decoder may take (96 MiB: `xz -9`'s 64 MiB
/// dictionary, the largest of xz's levels); a stream that asks for more is
/// refused.
const XZ_MEMORY: u64 = 96 << 20;

/// The decompressed bytes of `raw`, compressed with `codec`: a stream, the
/// decoder's errors naming the codec and the compressed bytes read. The
/// decoders' memory is bounded whatever the input: gzip's window is 32 KiB,
/// bzip2's blocks under 4 MiB, and zstd and xz streams that ask for more
/// than [`ZSTD_WINDOW_LOG_MAX`] and [`XZ_MEMORY`] allow are refused.
///
/// A gzip file of one member whose compressed and decompressed sizes are at
/// most [`WHOLE_GZIP_MAX`] is inflated whole, at once (libdeflate, 1.5
/// times the stream's speed); anything else (several members, larger, or
/// damaged) goes through the stream, which finds the same games and the
/// same error.
pub fn decoder<'a>(codec: Codec, raw: Box<dyn Read + 'a>) -> io::Result<Box<dyn Read + 'a>> {
    if codec != Codec::Gzip {
        return stream(codec, raw);
    }
    match whole_gzip(raw) {
        Ok(inflated) => Ok(Box::new(io::Cursor::new(inflated))),
        Err(raw) => stream(codec, raw),
    }
}

/// [`decoder`] as a stream, whatever the size: what a look at a file's
/// first bytes takes.
fn stream<'a>(codec: Codec, raw: Box<dyn Read + 'a>) -> io::Result<Box<dyn Read + 'a>> {
    let taken = Rc::new(Cell::new(0));
    let input = Counted {
        inner: BufReader::with_capacity(64 * 1024, raw),
        taken: Rc::clone(&taken),
    };
    let decoder: Box<dyn Read + 'a> = match codec {
        Codec::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(input)),
        Codec::Zstd => {
            let mut d = zstd::stream::read::Decoder::with_buffer(input)?;
            d.window_log_max(ZSTD_WINDOW_LOG_MAX)?;
            Box::new(d)
        }
        Codec::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(input)),
        Codec::Xz => {
            let stream =
                liblzma::stream::Stream::new_stream_decoder(XZ_MEMORY, liblzma::stream::CONCATENATED)
                    .map_err(io::Error::other)?;
            Box::new(liblzma::bufread::XzDecoder::new_stream(input, stream))
        }
    };
    Ok(Box::new(Decoded {
        decoder,
        codec,
        taken,
        failed: None,
    }))
}

/// The largest gzip file inflated whole, compressed and decompressed (8
/// MiB each: a WTHOR year is under 1 MiB); memory then holds both for the
/// time of the call, and the decompressed bytes while they are read.
pub const WHOLE_GZIP_MAX: usize = 8 << 20;

/// A gzip file of one member, read and inflated whole; or, when it is not
/// one (larger than [`WHOLE_GZIP_MAX`], several members, damaged, or a
/// reading error), a reader of the same bytes from the start.
fn whole_gzip<'a>(mut raw: Box<dyn Read + 'a>) -> Result<Vec<u8>, Box<dyn Read + 'a>> {
    let mut packed = Vec::new();
    let read = (&mut raw)
        .take(WHOLE_GZIP_MAX as u64 + 1)
        .read_to_end(&mut packed);
    let ended = read.is_ok() && packed.len() <= WHOLE_GZIP_MAX;
    let inflated = if ended { inflate_member(&packed) } else { None };
    match inflated {
        Some(out) => Ok(out),
        None => Err(Box::new(io::Cursor::new(packed).chain(raw))),
    }
}

/// The bytes of `packed` when it is exactly one gzip member (its trailer's
/// size at most [`WHOLE_GZIP_MAX`], CRC and size checked by libdeflate).
fn inflate_member(packed: &[u8]) -> Option<Vec<u8>> {
    let trailer: [u8; 4] = packed.get(packed.len().checked_sub(4)?..)?.try_into().ok()?;
    let size = usize::try_from(u32::from_le_bytes(trailer)).ok()?;
    if size > WHOLE_GZIP_MAX {
        return None;
    }
    let mut out = vec![0u8; size];
    let (mut taken, mut made) = (0usize, 0usize);
    // SAFETY: the decompressor is allocated and freed here, never shared;
    // libdeflate reads `packed.len()` bytes of `packed`, writes at most
    // `out.len()` bytes into `out`, and sets the two counts.
    let result = unsafe {
        let d = libdeflate_sys::libdeflate_alloc_decompressor();
        if d.is_null() {
            return None;
        }
        let r = libdeflate_sys::libdeflate_gzip_decompress_ex(
            d,
            packed.as_ptr().cast(),
            packed.len(),
            out.as_mut_ptr().cast(),
            out.len(),
            &mut taken,
            &mut made,
        );
        libdeflate_sys::libdeflate_free_decompressor(d);
        r
    };
    // one member, the whole file, as large as its trailer says
    let one = result == libdeflate_sys::libdeflate_result_LIBDEFLATE_SUCCESS
        && taken == packed.len()
        && made == size;
    one.then_some(out)
}

/// The first `n` bytes of a file, decompressed when it is compressed (for a
/// directory scan's look at a file's content). Reading errors give what was
/// read before them.
pub fn head_of(path: &std::path::Path, n: usize) -> io::Result<Vec<u8>> {
    let mut raw = Vec::new();
    std::fs::File::open(path)?
        .take(n as u64)
        .read_to_end(&mut raw)?;
    let Some(Magic::Codec(codec)) = Magic::of(&raw) else {
        return Ok(raw);
    };
    let file = std::fs::File::open(path)?;
    let mut head = Vec::new();
    let mut decoded = stream(codec, Box::new(file))?.take(n as u64);
    // what was decoded before a damaged part still says what the file is
    let mut block = [0u8; 8192];
    loop {
        match decoded.read(&mut block) {
            Ok(0) => break,
            Ok(k) => head.extend_from_slice(block.get(..k).unwrap_or_default()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    Ok(head)
}

/// A writer compressing into `W` with a codec, or passing bytes through.
pub enum Encoder<W: Write> {
    /// No compression.
    Plain(W),
    /// gzip, one member.
    Gzip(flate2::write::GzEncoder<W>),
    /// Zstandard, one frame.
    Zstd(zstd::stream::write::Encoder<'static, W>),
    /// bzip2.
    Bzip2(bzip2::write::BzEncoder<W>),
    /// xz.
    Xz(liblzma::write::XzEncoder<W>),
}

impl<W: Write> Encoder<W> {
    /// A writer into `out`, compressing with `codec` when there is one (at
    /// the codecs' usual levels: gzip 6, zstd 3, bzip2 9, xz 6).
    pub fn new(codec: Option<Codec>, out: W) -> io::Result<Encoder<W>> {
        Ok(match codec {
            None => Encoder::Plain(out),
            Some(Codec::Gzip) => {
                Encoder::Gzip(flate2::write::GzEncoder::new(out, flate2::Compression::default()))
            }
            Some(Codec::Zstd) => Encoder::Zstd(zstd::stream::write::Encoder::new(out, 3)?),
            Some(Codec::Bzip2) => {
                Encoder::Bzip2(bzip2::write::BzEncoder::new(out, bzip2::Compression::best()))
            }
            Some(Codec::Xz) => Encoder::Xz(liblzma::write::XzEncoder::new(out, 6)),
        })
    }

    /// Ends the compressed stream and gives the writer back.
    pub fn finish(self) -> io::Result<W> {
        match self {
            Encoder::Plain(w) => Ok(w),
            Encoder::Gzip(e) => e.finish(),
            Encoder::Zstd(e) => e.finish(),
            Encoder::Bzip2(e) => e.finish(),
            Encoder::Xz(e) => e.finish(),
        }
    }

    fn inner(&mut self) -> &mut dyn Write {
        match self {
            Encoder::Plain(w) => w,
            Encoder::Gzip(e) => e,
            Encoder::Zstd(e) => e,
            Encoder::Bzip2(e) => e,
            Encoder::Xz(e) => e,
        }
    }
}

impl<W: Write> Write for Encoder<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner().flush()
    }
}

/// Copies `input` into `out` compressed with `codec`, and gives `out` back.
pub fn compress_into<W: Write>(codec: Codec, input: &mut dyn Read, out: W) -> io::Result<W> {
    let mut enc = Encoder::new(Some(codec), out)?;
    io::copy(input, &mut enc)?;
    enc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_looked_through() {
        assert_eq!(inner_name("WTH_1990.wtb.gz"), "WTH_1990.wtb");
        assert_eq!(inner_name("club.gamerec.ZST"), "club.gamerec");
        assert_eq!(inner_name("a.b/c"), "a.b/c");
        assert_eq!(inner_name("x.xz"), "x");
        assert_eq!(inner_name("plain.gamerec"), "plain.gamerec");
        assert_eq!(Codec::of_name("dir.gz/file"), None);
    }

    #[test]
    fn every_codec_round_trips() {
        let text = b"[Game \"reversi\"]\nf5 d6\n".repeat(1000);
        for codec in Codec::ALL {
            let packed = compress_into(codec, &mut &text[..], Vec::new()).unwrap();
            assert_eq!(Magic::of(&packed), Some(Magic::Codec(codec)));
            let mut back = Vec::new();
            decoder(codec, Box::new(io::Cursor::new(packed)))
                .unwrap()
                .read_to_end(&mut back)
                .unwrap();
            assert_eq!(back, text, "{codec:?}");
        }
    }

    #[test]
    fn gzip_is_inflated_whole_only_when_it_is_one_member() {
        let read = |packed: Vec<u8>| {
            let mut back = Vec::new();
            let r = decoder(Codec::Gzip, Box::new(io::Cursor::new(packed)))
                .unwrap()
                .read_to_end(&mut back);
            (r.map_err(|e| e.to_string()), back)
        };
        let text = b"[Game \"reversi\"]\nf5 d6\n".repeat(1000);
        let one = compress_into(Codec::Gzip, &mut &text[..], Vec::new()).unwrap();
        assert!(inflate_member(&one).is_some());
        // the same member twice: its trailer is the last member's too, but
        // the first member does not take the whole file
        let twice = [one.clone(), one.clone()].concat();
        assert!(inflate_member(&twice).is_none());
        assert_eq!(read(twice).1, [text.clone(), text.clone()].concat());
        // a damaged member: the stream's error, after what it decoded
        let mut bad = one.clone();
        let n = bad.len();
        bad[n - 6] ^= 0xff;
        assert!(inflate_member(&bad).is_none());
        let (r, _) = read(bad);
        assert!(r.unwrap_err().starts_with("gzip data is damaged"));
        // larger than the whole-file limit: read as a stream
        let big: Vec<u8> = (0..(WHOLE_GZIP_MAX as u32 / 4 + 1000))
            .flat_map(|i| i.wrapping_mul(2_654_435_761).to_le_bytes())
            .collect();
        let packed = compress_into(Codec::Gzip, &mut &big[..], Vec::new()).unwrap();
        assert!(packed.len() > WHOLE_GZIP_MAX);
        assert_eq!(read(packed).1, big);
    }

    #[test]
    fn a_truncated_stream_is_an_error_naming_the_codec() {
        let text: Vec<u8> = (0..200_000u32)
            .flat_map(|i| (i.wrapping_mul(2_654_435_761)).to_le_bytes())
            .collect();
        for codec in Codec::ALL {
            let mut packed = compress_into(codec, &mut &text[..], Vec::new()).unwrap();
            packed.truncate(packed.len() / 2);
            let mut back = Vec::new();
            let e = decoder(codec, Box::new(io::Cursor::new(packed)))
                .unwrap()
                .read_to_end(&mut back)
                .unwrap_err()
                .to_string();
            assert!(e.starts_with(codec.name()), "{e}");
            assert!(e.contains("compressed bytes read"), "{e}");
        }
    }
}
