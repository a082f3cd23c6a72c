//! Fuzz signature images: the gateway's upload check (name and magic, size bounds) and the
//! embedding of the image into a visible signature appearance by signet-pdf (JPEG header
//! reading, PNG decoding with the alpha channel split into an SMask), on a fixed one-page PDF.
//! Any input must give Ok or a readable Err, never a panic or unbounded memory.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signet_pdf::{Appearance, BoxSpec, PageSelection, Position, SignOptions, WidgetPlacement};

const PDF: &[u8] = include_bytes!("../corpus/pdf_read/minimal.pdf");

fuzz_target!(|data: &[u8]| {
    for name in ["signature.png", "signature.jpg", "Signature.JPEG", "signature.gif"] {
        let _ = signet_gateway::check_signature_image(data, name);
    }
    let mut appearance = Appearance::new(WidgetPlacement::Pages {
        pages: PageSelection::First,
        rect: BoxSpec::Named(Position::BottomRight),
    });
    appearance.image = Some(data.to_vec());
    appearance.show_details = false;
    let opts = SignOptions {
        signing_time: Some(std::time::UNIX_EPOCH),
        appearance: Some(appearance),
        ..SignOptions::default()
    };
    if let Ok(prepared) = signet_pdf::prepare(PDF, &opts) {
        assert!(prepared.bytes.starts_with(PDF));
    }
});
