//! Opening one path: the file (or standard input for `-`), decompressed
//! when its magic bytes say it is compressed (`crate::codec`), its bytes
//! checked before any reader parses them, then its format's reader.

use std::io::{self, Read};

use super::FileError;
use crate::codec::{self, Magic};
use crate::formats::{self, Format, ReadError, ReadOptions};

/// Opens one path: standard input for `-`.
pub fn open<'a>(
    file: &str,
    stdin: Option<&'a mut dyn Read>,
    opts: &ReadOptions,
) -> Result<(Format, formats::Games<'a>), FileError> {
    let reader: Box<dyn Read + 'a> = if file == "-" {
        match stdin {
            Some(s) => Box::new(s),
            None => {
                return Err(FileError::new("-", "standard input given twice"));
            }
        }
    } else {
        match std::fs::File::open(file) {
            Ok(f) if f.metadata().is_ok_and(|m| m.is_dir()) => {
                return Err(FileError::new(file, "cannot read: Is a directory"));
            }
            Ok(f) => Box::new(f),
            Err(e) => {
                return Err(FileError::new(file, format!("cannot read: {e}")));
            }
        }
    };
    let reader =
        check_bytes(file, reader, opts).map_err(|e| FileError::new(file, e.message))?;
    formats::open(file, reader, opts).map_err(|e| FileError::new(file, e.message))
}

/// The first block of `reader` (64 KiB), and the reader with it put back.
/// A reading error after some bytes is left for the reader to meet again
/// (a damaged compressed stream keeps failing where it failed): the games
/// before it are read first.
fn head_of<'a>(
    mut reader: Box<dyn Read + 'a>,
) -> Result<(Vec<u8>, Box<dyn Read + 'a>), ReadError> {
    let mut head = Vec::new();
    let read = (&mut reader)
        .take(crate::source::BLOCK as u64)
        .read_to_end(&mut head);
    match read {
        Err(e) if head.is_empty() => return Err(ReadError::new(format!("cannot read: {e}"))),
        _ => {}
    }
    let whole: Box<dyn Read + 'a> = Box::new(std::io::Cursor::new(head.clone()).chain(reader));
    Ok((head, whole))
}

/// The bytes checked before any reader parses them (spec §1: input is
/// UTF-8), so that wrong bytes get one clear error with the fix instead of
/// a parse error. Compressed data (gzip, zstd, bzip2, xz: told by its magic
/// bytes, on standard input too) is decompressed here, and the checks that
/// follow, and every reader, see the decompressed bytes; a zip archive is
/// refused. Then: binary data on standard input (a WTHOR
/// file wants `--from wthor`); a text file's first block that is not UTF-8
/// (line and column of the first bad byte; `--encoding latin1`). With
/// `--encoding latin1` a text file is decoded from ISO-8859-1 here. Binary
/// WTHOR files and Pentobi files (which name their own charset) are left
/// to their readers. Only the first block (64 KiB) is checked here; a bad
/// byte further on is still the reader's error.
fn check_bytes<'a>(
    file: &str,
    reader: Box<dyn Read + 'a>,
    opts: &ReadOptions,
) -> Result<Box<dyn Read + 'a>, ReadError> {
    let (head, whole) = head_of(reader)?;
    let (head, whole) = match Magic::of(&head) {
        None => (head, whole),
        Some(Magic::Zip) => {
            return Err(ReadError::new(
                "a zip archive: gamerec reads gzip, zstd, bzip2 and xz files, not zip archives; extract its files first",
            ));
        }
        Some(Magic::Codec(codec)) => {
            let decoded = codec::decoder(codec, whole)
                .map_err(|e| {
                ReadError::new(format!("cannot read {}-compressed data: {e}", codec.name()))
            })?;
            head_of(decoded)?
        }
    };
    check_text(file, head, whole, opts)
}

/// [`check_bytes`] past compression: the head (the first block) of the
/// bytes `whole` reads.
fn check_text<'a>(
    file: &str,
    head: Vec<u8>,
    whole: Box<dyn Read + 'a>,
    opts: &ReadOptions,
) -> Result<Box<dyn Read + 'a>, ReadError> {
    if formats::is_wthor(file, opts) {
        return Ok(whole);
    }
    let (format, _) = formats::detect::choose(file, &String::from_utf8_lossy(&head), opts.forced);
    if format == Format::Pentobi {
        return Ok(whole);
    }
    if opts.forced.is_none() && head.iter().take(1024).any(|&b| b == 0) {
        let what = if file == "-" {
            "standard input"
        } else {
            "the file"
        };
        return Err(ReadError::new(format!(
            "binary data, not a text record, in {what}: for a WTHOR database file pass --from wthor"
        )));
    }
    if opts.latin1 {
        return Ok(Box::new(Latin1(whole, Vec::new())));
    }
    if let Err(e) = std::str::from_utf8(&head) {
        // a character cut at the end of the block is not an error
        if e.error_len().is_some() {
            let good = head.get(..e.valid_up_to()).unwrap_or_default();
            let text = String::from_utf8_lossy(good);
            let line = text.matches('\n').count() + 1;
            let start = text.rfind('\n').map_or(0, |i| i + 1);
            let column = text
                .get(start..)
                .unwrap_or_default()
                .trim_start_matches('\u{feff}')
                .chars()
                .count()
                + 1;
            let byte = head.get(e.valid_up_to()).copied().unwrap_or_default();
            return Err(ReadError::new(format!(
                "not UTF-8 text: byte 0x{byte:02X} at line {line}, column {column} is not UTF-8; \
                 for a Latin-1 (ISO-8859-1) file pass --encoding latin1"
            )));
        }
    }
    Ok(whole)
}

/// A reader of ISO-8859-1 bytes giving UTF-8: each byte is the character
/// of its code (spans then count the decoded bytes).
struct Latin1<R>(R, Vec<u8>);

impl<R: Read> Read for Latin1<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.1.is_empty() {
            let mut raw = vec![0u8; out.len().clamp(1, 32 * 1024)];
            let n = self.0.read(&mut raw)?;
            if n == 0 {
                return Ok(0);
            }
            let text: String = raw.iter().take(n).map(|&b| char::from(b)).collect();
            self.1 = text.into_bytes();
            self.1.reverse();
        }
        let mut n = 0;
        while n < out.len() {
            match self.1.pop() {
                Some(b) => {
                    if let Some(slot) = out.get_mut(n) {
                        *slot = b;
                    }
                    n += 1;
                }
                None => break,
            }
        }
        Ok(n)
    }
}
