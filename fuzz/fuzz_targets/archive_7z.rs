//! Fuzz the gateway's 7-zip decompression of `File` (`IsCompressed`): header parsing, LZMA/LZMA2
//! decoding and the size/ratio limits against decompression bombs.
//! Any input must give Ok or a readable 107, never a panic, and never more than the limit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signet_gateway::{ErrorCode, PayloadLimits, decompress_7z};

fuzz_target!(|data: &[u8]| {
    for limits in [PayloadLimits::default(), PayloadLimits { max_file_bytes: 1024, max_ratio: 3 }] {
        match decompress_7z(data, &limits) {
            Ok(bytes) => {
                let limit = limits.max_file_bytes.min(limits.max_ratio.saturating_mul(data.len() as u64));
                assert!(!bytes.is_empty() && bytes.len() as u64 <= limit, "{} bytes, limit {limit}", bytes.len());
            }
            Err(failure) => assert_eq!(failure.code, ErrorCode::InvalidParameters),
        }
    }
});
