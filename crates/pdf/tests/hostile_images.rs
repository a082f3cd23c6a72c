//! Signature images from outside: a PNG whose palette is not whole three-byte entries made the
//! `png` decoder panic (found by the `images` fuzz target); it is refused with a readable error.

use signet_pdf::{Appearance, BoxSpec, PageSelection, Position, SignOptions, WidgetPlacement};

const PDF: &[u8] = include_bytes!("../../../fuzz/corpus/pdf_read/minimal.pdf");
const BAD_PALETTE: &[u8] = include_bytes!("../../../fuzz/corpus/images/png-palette-not-a-multiple-of-3.png");

fn sign_with_image(image: &[u8]) -> Result<signet_pdf::Prepared, signet_pdf::Error> {
    let mut appearance = Appearance::new(WidgetPlacement::Pages {
        pages: PageSelection::First,
        rect: BoxSpec::Named(Position::BottomRight),
    });
    appearance.image = Some(image.to_vec());
    appearance.show_details = false;
    let opts = SignOptions {
        signing_time: Some(std::time::UNIX_EPOCH),
        appearance: Some(appearance),
        ..SignOptions::default()
    };
    signet_pdf::prepare(PDF, &opts)
}

#[test]
fn a_png_with_a_broken_palette_is_refused_not_a_panic() {
    let Err(refused) = sign_with_image(BAD_PALETTE) else { panic!("a broken palette must be refused") };
    assert!(refused.to_string().contains("palette"), "{refused}");
    // Cut anywhere, it is still an error and never a panic.
    for cut in 8..BAD_PALETTE.len() {
        let _ = sign_with_image(&BAD_PALETTE[..cut]);
    }
}
