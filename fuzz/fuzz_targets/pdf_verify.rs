//! Fuzz PDF signature verification: the structural helpers of signet-pdf
//! (`signatures`: ByteRange, /Contents, later revisions and their changes) and the full
//! verification report of signet-signing (`verify_file`, which also reads CMS and XML), as the
//! server and the CLI run them on uploaded files.
//! Any input must give Ok or a readable Err, never a panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// A fixed validation time (2026-01-01), so that runs do not depend on the clock.
const AT: u64 = 1_767_225_600;

fuzz_target!(|data: &[u8]| {
    if let Ok(sigs) = signet_pdf::signatures(data) {
        for s in &sigs {
            // A ByteRange declared good is four offsets inside the file.
            if s.byte_range_ok {
                let [a, b, c, d] = s.byte_range[..] else { panic!("byte range {:?} declared good", s.byte_range) };
                assert!(a >= 0 && b >= 0 && c >= 0 && d >= 0, "negative byte range {:?}", s.byte_range);
                assert!(c.saturating_add(d) <= data.len() as i64, "byte range outside the file: {:?}", s.byte_range);
            }
        }
    }
    let _ = signet_signing::verify_file_with(data, None, &[], Some(AT));
    let _ = signet_signing::verify_file_with(data, Some(b"detached content"), &[], Some(AT));
});
