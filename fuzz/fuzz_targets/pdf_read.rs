//! Fuzz the lazy PDF reader the way the server uses it on uploads: open and walk the pages,
//! extract the text (summaries, anchor search), list the signatures, and prepare a signature
//! (invisible, and visible with a typed name on the last page).
//! Any input must give Ok or a readable Err, never a panic, a hang or unbounded memory.
#![no_main]

use libfuzzer_sys::fuzz_target;
use signet_pdf::{Appearance, BoxSpec, NameStyle, PageSelection, Position, SignOptions, WidgetPlacement};

fuzz_target!(|data: &[u8]| {
    let _ = signet_pdf::inspect(data);
    let _ = signet_pdf::signatures(data);
    if let Ok(doc) = signet_pdf::reader::Document::open(data)
        && let Ok(pages) = doc.pages()
    {
        for page in pages.iter().take(16) {
            for (_, value) in &page.dict.0 {
                let _ = doc.resolve(value);
            }
        }
    }
    let _ = signet_pdf::text::document_text(data, 2_000);
    let _ = signet_pdf::text::find_text(data, "Sign here");
    let invisible = SignOptions { signing_time: Some(std::time::UNIX_EPOCH), ..SignOptions::default() };
    if let Ok(prepared) = signet_pdf::prepare(data, &invisible) {
        // The update must only append, and the stored result must be readable again.
        assert!(prepared.bytes.starts_with(data));
        let again = signet_pdf::Prepared::from_bytes(prepared.bytes.clone())
            .expect("a prepared document must be readable again");
        assert_eq!(again.digest, prepared.digest);
        // Only documents that open are worth the visible appearance (fonts are costly).
        let mut appearance = Appearance::new(WidgetPlacement::Pages {
            pages: PageSelection::Last,
            rect: BoxSpec::Named(Position::BottomRight),
        });
        appearance.typed_name = Some("Fuzz Signer".into());
        appearance.name_style = NameStyle::Plain;
        appearance.show_details = false;
        let visible = SignOptions { appearance: Some(appearance), ..invisible };
        if let Ok(prepared) = signet_pdf::prepare(data, &visible) {
            assert!(prepared.bytes.starts_with(data));
        }
    }
});
