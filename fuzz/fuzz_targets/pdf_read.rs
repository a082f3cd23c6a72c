//! Fuzz the lazy PDF reader, the signer's preparation and the verification helpers:
//! any input must give Ok or a readable Err, never a panic, a hang or unbounded memory.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = signet_pdf::inspect(data);
    let _ = signet_pdf::signatures(data);
    if let Ok(prepared) = signet_pdf::prepare(data, &signet_pdf::SignOptions::default()) {
        // The update must only append.
        assert!(prepared.bytes.starts_with(data));
    }
});
