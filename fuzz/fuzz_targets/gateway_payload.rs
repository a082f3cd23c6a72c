//! Fuzz reading a decrypted gateway payload: JSON parsing and every field rule (`FileType`,
//! `File` base64 and PDF check, `IsCompressed` 7-zip, pages, positions, URLs, `DocumentDetails`
//! for Hash), as the server does after opening the envelope.
//! Any input must give Ok or a readable Err (with the right error code), never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signet_gateway::{ErrorCode, PayloadLimits, parse_payload, parse_payload_with};

fuzz_target!(|data: &[u8]| {
    let _ = parse_payload(data);
    // Small limits, so that size and ratio refusals are reached too.
    let small = PayloadLimits { max_file_bytes: 4096, max_ratio: 4 };
    if let Err(failure) = parse_payload_with(data, &small) {
        // Failures are the spec's request/payload codes, never a server error.
        assert!(
            matches!(
                failure.code,
                ErrorCode::InvalidRequest | ErrorCode::InvalidParameters | ErrorCode::ESignatureNotApplicable
            ),
            "unexpected code {:?}",
            failure.code
        );
        let _ = failure.error_message();
    }
});
