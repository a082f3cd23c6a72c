//! Stream decoding needed to read xref streams, object streams and page contents (Flate and
//! LZW with PNG predictors, RunLength, ASCII85, ASCIIHex), and Flate encoding for the streams
//! we write. Image codecs (DCT, JPX, CCITT, JBIG2) are never decoded: Signet reads text and
//! structure, and pdftoppm renders the pictures.

use std::io::{Read, Write};

use crate::error::{Error, Result, damaged};
use crate::object::{Dict, Object};

/// Decoded stream data is capped: xref and object streams are small; more is hostile input.
const MAX_DECODED: u64 = 256 * 1024 * 1024;
/// Widest predictor row accepted (real xref streams use a few bytes per row).
const MAX_ROW: usize = 1 << 20;

/// Zlib-compress `data` at the default level.
///
/// A signature writes a handful of small streams (appearance content, ToUnicode maps), and
/// setting up a compressor allocates and zeroes some 300 KB of tables: more work than
/// compressing a few KB. Each thread keeps one compressor and resets it between streams.
pub fn flate_encode(data: &[u8]) -> Vec<u8> {
    use flate2::{Compress, Compression, FlushCompress, Status};
    thread_local! {
        static COMPRESSOR: std::cell::RefCell<Compress> =
            std::cell::RefCell::new(Compress::new(Compression::default(), true));
    }
    let encoded = COMPRESSOR.with_borrow_mut(|compressor| {
        compressor.reset();
        let mut out = Vec::with_capacity(data.len() / 2 + 64);
        loop {
            let consumed = usize::try_from(compressor.total_in()).ok()?;
            match compressor.compress_vec(data.get(consumed..)?, &mut out, FlushCompress::Finish).ok()? {
                Status::StreamEnd => return Some(out),
                Status::Ok | Status::BufError => out.reserve(out.capacity().max(64)),
            }
        }
    });
    encoded.unwrap_or_else(|| {
        // Not reached with a Vec as the output; kept so that a compressor error still yields
        // a valid stream.
        let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), Compression::default());
        let _ = enc.write_all(data);
        enc.finish().unwrap_or_default()
    })
}

/// A bomb (a few KB inflating to gigabytes) stops at `limit` and is refused rather than
/// silently cut.
fn flate_decode(data: &[u8], limit: u64) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut dec = flate2::read::ZlibDecoder::new(data).take(limit.saturating_add(1));
    let read = dec.read_to_end(&mut out);
    if out.len() as u64 > limit {
        return Err(too_large(limit));
    }
    match read {
        Ok(_) => Ok(out),
        // Many producers write streams with a damaged or missing checksum; keep what decoded.
        Err(_) if !out.is_empty() => Ok(out),
        Err(e) => Err(damaged(format!("bad Flate stream: {e}"))),
    }
}

fn too_large(limit: u64) -> Error {
    damaged(format!("a stream decodes to more than {} MB", limit.div_ceil(1 << 20)))
}

/// Decode according to /Filter and /DecodeParms (only what structural streams use).
#[cfg(test)]
pub fn decode_stream(dict: &Dict, raw: &[u8]) -> Result<Vec<u8>> {
    decode_stream_limited(dict, raw, MAX_DECODED)
}

/// Decode with every filter stage's output capped at `limit` bytes.
pub fn decode_stream_limited(dict: &Dict, raw: &[u8], limit: u64) -> Result<Vec<u8>> {
    let limit = limit.min(MAX_DECODED);
    let filters: Vec<&[u8]> = match dict.get("Filter") {
        None => Vec::new(),
        Some(Object::Name(n)) => vec![n.as_slice()],
        Some(Object::Array(a)) => a.iter().filter_map(Object::as_name).collect(),
        Some(_) => return Err(damaged("bad /Filter")),
    };
    let parms: Vec<Option<&Dict>> = match dict.get("DecodeParms") {
        Some(Object::Array(a)) => a.iter().map(Object::as_dict).collect(),
        Some(Object::Dict(d)) => vec![Some(d)],
        _ => Vec::new(),
    };
    let mut data = raw.to_vec();
    for (i, f) in filters.iter().enumerate() {
        data = match *f {
            b"FlateDecode" | b"Fl" => {
                let decoded = flate_decode(&data, limit)?;
                match parms.get(i).copied().flatten() {
                    Some(p) => apply_predictor(p, decoded)?,
                    None => decoded,
                }
            }
            b"LZWDecode" | b"LZW" => {
                let parm = parms.get(i).copied().flatten();
                let early_change = parm.and_then(|p| p.int("EarlyChange")).unwrap_or(1) != 0;
                let decoded = lzw_decode(&data, early_change, limit)?;
                match parm {
                    Some(p) => apply_predictor(p, decoded)?,
                    None => decoded,
                }
            }
            b"RunLengthDecode" | b"RL" => run_length_decode(&data, limit)?,
            b"ASCII85Decode" | b"A85" => ascii85_decode(&data)?,
            b"ASCIIHexDecode" | b"AHx" => ascii_hex_decode(&data),
            other => {
                return Err(Error::Unsupported(format!(
                    "stream filter /{} in a structural stream",
                    String::from_utf8_lossy(other)
                )));
            }
        };
        // ASCII85 `z` quadruples its input; chained filters multiply.
        if data.len() as u64 > limit {
            return Err(too_large(limit));
        }
    }
    Ok(data)
}

/// LZW as PDF 32000-1 §7.4.4 (the TIFF variant: codes of 9 to 12 bits, most significant bit
/// first, 256 clears the table, 257 ends the data). With `early_change` (the default) the code
/// width grows one code early. The table is a flat array of (prefix, byte) pairs, so a hostile
/// stream costs at most 4096 entries and `limit` bytes of output.
fn lzw_decode(data: &[u8], early_change: bool, limit: u64) -> Result<Vec<u8>> {
    const CLEAR: usize = 256;
    const END: usize = 257;
    const MAX_CODES: usize = 4096;
    let mut prefix: Vec<u16> = Vec::with_capacity(MAX_CODES);
    let mut suffix: Vec<u8> = Vec::with_capacity(MAX_CODES);
    let reset = |prefix: &mut Vec<u16>, suffix: &mut Vec<u8>| {
        prefix.clear();
        suffix.clear();
        for b in 0..=255u8 {
            prefix.push(u16::MAX);
            suffix.push(b);
        }
        // 256 and 257 are control codes, never looked up.
        prefix.extend([u16::MAX, u16::MAX]);
        suffix.extend([0, 0]);
    };
    reset(&mut prefix, &mut suffix);
    let mut out: Vec<u8> = Vec::new();
    let (mut entry, mut last): (Vec<u8>, Vec<u8>) = (Vec::new(), Vec::new());
    let mut previous: Option<usize> = None;
    let (mut acc, mut bits, mut pos) = (0u32, 0u32, 0usize);
    loop {
        let width = code_width(prefix.len() + usize::from(early_change));
        while bits < width {
            let Some(&b) = data.get(pos) else {
                // Many writers omit the end code.
                return Ok(out);
            };
            acc = (acc << 8) | u32::from(b);
            bits += 8;
            pos += 1;
        }
        let code = ((acc >> (bits - width)) & ((1 << width) - 1)) as usize;
        bits -= width;
        match code {
            CLEAR => {
                reset(&mut prefix, &mut suffix);
                previous = None;
                continue;
            }
            END => return Ok(out),
            _ => {}
        }
        if code < prefix.len() {
            expand(&prefix, &suffix, code, &mut entry)?;
        } else if code == prefix.len() && previous.is_some() && !last.is_empty() {
            // The one code that may come before it is defined: the last entry + its first byte.
            entry.clear();
            entry.extend_from_slice(&last);
            entry.push(last[0]);
        } else {
            return Err(damaged("bad LZW code"));
        }
        if let Some(p) = previous
            && prefix.len() < MAX_CODES
        {
            prefix.push(p as u16);
            suffix.push(entry[0]);
        }
        out.extend_from_slice(&entry);
        if out.len() as u64 > limit {
            return Err(too_large(limit));
        }
        std::mem::swap(&mut last, &mut entry);
        previous = Some(code);
    }
}

fn code_width(next_code: usize) -> u32 {
    match next_code {
        0..=511 => 9,
        512..=1023 => 10,
        1024..=2047 => 11,
        _ => 12,
    }
}

/// Writes the bytes of `code` into `out` (replacing what it held). Chains are at most 4096
/// long, since every entry points to an earlier one.
fn expand(prefix: &[u16], suffix: &[u8], code: usize, out: &mut Vec<u8>) -> Result<()> {
    out.clear();
    let mut at = code;
    for _ in 0..prefix.len() {
        out.push(suffix[at]);
        match prefix[at] {
            u16::MAX => {
                out.reverse();
                return Ok(());
            }
            p => at = usize::from(p),
        }
    }
    Err(damaged("bad LZW table"))
}

/// RunLength (PDF 32000-1 §7.4.5): a length byte 0-127 copies the next n+1 bytes, 129-255
/// repeats the next byte 257-n times, 128 ends the data.
fn run_length_decode(data: &[u8], limit: u64) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&n) = data.get(i) {
        match n {
            0..=127 => {
                let run = data.get(i + 1..i + 2 + usize::from(n)).ok_or_else(|| damaged("RunLength data cut short"))?;
                out.extend_from_slice(run);
                i += 2 + usize::from(n);
            }
            128 => break,
            _ => {
                let b = *data.get(i + 1).ok_or_else(|| damaged("RunLength data cut short"))?;
                out.extend(std::iter::repeat_n(b, 257 - usize::from(n)));
                i += 2;
            }
        }
        if out.len() as u64 > limit {
            return Err(too_large(limit));
        }
    }
    Ok(out)
}

/// ASCII base-85 (`<~ ... ~>` optional), with `z` for four zero bytes.
fn ascii85_decode(data: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len() * 4 / 5);
    let mut group = [0u8; 5];
    let mut n = 0;
    let body = data.strip_prefix(b"<~").unwrap_or(data);
    for &b in body {
        match b {
            b'~' => break,
            b'z' if n == 0 => out.extend_from_slice(&[0; 4]),
            b'!'..=b'u' => {
                group[n] = b - b'!';
                n += 1;
                if n == 5 {
                    let value = group.iter().fold(0u64, |acc, &d| acc * 85 + u64::from(d));
                    let value = u32::try_from(value).map_err(|_| damaged("bad ASCII85 group"))?;
                    out.extend_from_slice(&value.to_be_bytes());
                    n = 0;
                }
            }
            b if b.is_ascii_whitespace() => {}
            _ => return Err(damaged("bad ASCII85 character")),
        }
    }
    if n > 1 {
        for slot in group.iter_mut().skip(n) {
            *slot = 84;
        }
        let value = group.iter().fold(0u64, |acc, &d| acc * 85 + u64::from(d));
        let value = u32::try_from(value).map_err(|_| damaged("bad ASCII85 tail"))?;
        out.extend_from_slice(&value.to_be_bytes()[..n - 1]);
    }
    Ok(out)
}

fn ascii_hex_decode(data: &[u8]) -> Vec<u8> {
    let digits: Vec<u8> =
        data.iter().take_while(|&&b| b != b'>').filter_map(|&b| (b as char).to_digit(16).map(|d| d as u8)).collect();
    digits.chunks(2).map(|p| p[0] * 16 + p.get(1).copied().unwrap_or(0)).collect()
}

fn apply_predictor(parms: &Dict, data: Vec<u8>) -> Result<Vec<u8>> {
    let predictor = parms.int("Predictor").unwrap_or(1);
    if predictor < 10 {
        if predictor == 1 {
            return Ok(data);
        }
        return Err(Error::Unsupported(format!("predictor {predictor}")));
    }
    let colors = parms.int("Colors").unwrap_or(1).clamp(1, 32) as usize;
    let bpc = parms.int("BitsPerComponent").unwrap_or(8).clamp(1, 16) as usize;
    let columns = parms.int("Columns").unwrap_or(1).clamp(1, 1 << 20) as usize;
    let bpp = (colors * bpc).div_ceil(8);
    let row_len = (colors * bpc * columns).div_ceil(8);
    if row_len > MAX_ROW {
        return Err(damaged(format!("predictor rows of {row_len} bytes")));
    }
    png_unfilter(&data, row_len, bpp)
}

/// Undo PNG row filters (each row: one filter-type byte then `row_len` bytes).
fn png_unfilter(data: &[u8], row_len: usize, bpp: usize) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len());
    let mut prev = vec![0u8; row_len];
    for chunk in data.chunks(row_len + 1) {
        if chunk.len() < 2 {
            break;
        }
        let ftype = chunk[0];
        let mut row = chunk[1..].to_vec();
        row.resize(row_len, 0);
        for i in 0..row_len {
            let left = if i >= bpp { row[i - bpp] } else { 0 };
            let up = prev[i];
            let up_left = if i >= bpp { prev[i - bpp] } else { 0 };
            row[i] = match ftype {
                0 => row[i],
                1 => row[i].wrapping_add(left),
                2 => row[i].wrapping_add(up),
                3 => row[i].wrapping_add(((left as u16 + up as u16) / 2) as u8),
                4 => row[i].wrapping_add(paeth(left, up, up_left)),
                _ => return Err(damaged("bad PNG predictor row")),
            };
        }
        out.extend_from_slice(&row);
        prev = row;
    }
    Ok(out)
}

fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let p = a as i16 + b as i16 - c as i16;
    let (pa, pb, pc) = ((p - a as i16).abs(), (p - b as i16).abs(), (p - c as i16).abs());
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn ascii_encodings() {
        assert_eq!(ascii85_decode(b"87cURD]i,\"Ebo80~>").ok().as_deref(), Some(&b"Hello World!"[..]));
        assert_eq!(ascii85_decode(b"z~>").ok().as_deref(), Some(&[0u8, 0, 0, 0][..]));
        assert!(ascii85_decode(b"\x7f~>").is_err());
        assert_eq!(
            ascii_hex_decode(b"48 65 6C6C6F7>"),
            b"Hello p".iter().take(5).copied().chain([0x70]).collect::<Vec<_>>()
        );
    }

    use super::*;

    #[test]
    fn lzw_decodes_the_example_of_the_pdf_standard() {
        // PDF 32000-1 §7.4.4.2: "-----A---B" encodes to 80 0B 60 50 22 0C 0C 85 01.
        let encoded = [0x80, 0x0B, 0x60, 0x50, 0x22, 0x0C, 0x0C, 0x85, 0x01];
        assert_eq!(lzw_decode(&encoded, true, 1 << 20).expect("decodes"), b"-----A---B");
        let mut d = Dict::new();
        d.set("Filter", Object::name("LZWDecode"));
        assert_eq!(decode_stream(&d, &encoded).expect("decodes"), b"-----A---B");
    }

    #[test]
    fn lzw_refuses_bad_codes_and_stops_at_the_limit() {
        // A first code past the table (9 bits of ones).
        assert!(lzw_decode(&[0xFF, 0x80], true, 1 << 20).is_err());
        let encoded = [0x80, 0x0B, 0x60, 0x50, 0x22, 0x0C, 0x0C, 0x85, 0x01];
        assert!(lzw_decode(&encoded, true, 4).is_err());
        // Garbage never panics, whatever the bytes.
        for seed in 0..2000u32 {
            let bytes: Vec<u8> = (0..64).map(|i| (seed.wrapping_mul(2654435761).rotate_left(i) & 0xFF) as u8).collect();
            let _ = lzw_decode(&bytes, seed % 2 == 0, 1 << 16);
        }
    }

    #[test]
    fn run_length_copies_and_repeats() {
        assert_eq!(run_length_decode(&[2, b'a', b'b', b'c', 254, b'x', 128, 9], 100).expect("decodes"), b"abcxxx");
        assert!(run_length_decode(&[5, b'a'], 100).is_err());
        assert!(run_length_decode(&[129, b'z'], 10).is_err());
    }

    #[test]
    fn one_compressor_encodes_stream_after_stream() {
        // The thread's compressor is reset between streams: each output stands alone.
        let noise: Vec<u8> = (0..3_000_000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
        let inputs: [&[u8]; 5] = [b"", b"BT /F1 12 Tf (Hello) Tj ET", &noise, &noise[..100], &[7u8; 100_000]];
        for input in inputs.into_iter().chain(inputs) {
            let encoded = flate_encode(input);
            assert_eq!(flate_decode(&encoded, 1 << 30).expect("decodes"), input);
        }
    }

    #[test]
    fn flate_round_trip_with_up_predictor() {
        // Two rows of 3 bytes, second row "Up"-filtered.
        let filtered = [0u8, 1, 2, 3, 2, 1, 1, 1];
        let enc = flate_encode(&filtered);
        let mut parms = Dict::new();
        parms.set("Predictor", Object::Int(12));
        parms.set("Columns", Object::Int(3));
        let mut d = Dict::new();
        d.set("Filter", Object::name("FlateDecode"));
        d.set("DecodeParms", Object::Dict(parms));
        assert_eq!(decode_stream(&d, &enc).expect("decodes"), vec![1, 2, 3, 2, 3, 4]);
    }
}
