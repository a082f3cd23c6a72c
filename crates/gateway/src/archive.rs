//! `IsCompressed`: `File` is a 7-zip archive holding the document. Decompression is bounded in
//! size and ratio so that a small request cannot expand into gigabytes (a "zip bomb"); a bomb
//! is refused with 107 (the `File` parameter is invalid), not 109 (the envelope was fine).

use std::io::{Cursor, Read};

use sevenz_rust2::{ArchiveReader, Password};

use crate::{ErrorCode, GatewayFailure};

/// Default largest decompressed file: 50 MB.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 50 * 1024 * 1024;
/// Default largest decompressed/compressed ratio.
pub const DEFAULT_MAX_RATIO: u64 = 200;

/// Limits on `File` (declared here, beside the decompression they bound, and used by the
/// payload reader for plain files too).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PayloadLimits {
    /// Largest decoded (and decompressed) file, bytes. Default 50 MB.
    pub max_file_bytes: u64,
    /// Largest decompressed/compressed ratio for `IsCompressed`. Default 200.
    pub max_ratio: u64,
}

impl Default for PayloadLimits {
    fn default() -> Self {
        Self { max_file_bytes: DEFAULT_MAX_FILE_BYTES, max_ratio: DEFAULT_MAX_RATIO }
    }
}

fn invalid(detail: impl Into<String>) -> GatewayFailure {
    GatewayFailure::new(ErrorCode::InvalidParameters, detail)
}

/// The first file of a 7-zip archive, at most `min(max_file_bytes, max_ratio × archive size)`
/// bytes. The declared sizes are checked first, then the real output is counted while
/// decoding (headers can lie).
pub fn decompress_7z(archive: &[u8], limits: &PayloadLimits) -> Result<Vec<u8>, GatewayFailure> {
    let limit = limits.max_file_bytes.min(limits.max_ratio.saturating_mul(archive.len() as u64));
    let mut reader = ArchiveReader::new(Cursor::new(archive), Password::empty())
        .map_err(|_| invalid("File is not a 7-zip archive (IsCompressed is true)"))?;
    let declared = reader.archive().files.iter().filter(|f| f.has_stream()).map(|f| f.size()).max().unwrap_or(0);
    if declared > limit {
        return Err(too_large(limit));
    }
    let mut out: Option<Vec<u8>> = None;
    let mut over = false;
    let result = reader.for_each_entries(|entry, data| {
        if entry.is_directory() || !entry.has_stream() {
            return Ok(true);
        }
        let mut buf = Vec::new();
        data.take(limit + 1).read_to_end(&mut buf)?;
        over = buf.len() as u64 > limit;
        out = Some(buf);
        // Only the first file counts; stop decoding.
        Ok(false)
    });
    if over {
        return Err(too_large(limit));
    }
    result.map_err(|_| invalid("File: the 7-zip archive is damaged or uses an unsupported method"))?;
    match out {
        Some(bytes) if !bytes.is_empty() => Ok(bytes),
        _ => Err(invalid("File: the 7-zip archive holds no file")),
    }
}

fn too_large(limit: u64) -> GatewayFailure {
    invalid(format!("File: the 7-zip archive expands beyond {limit} bytes (size or compression ratio limit)"))
}
