//! signet-pdf: PDF reading and incremental signing (PAdES placeholders, ByteRange digest,
//! CMS embedding), visible signature appearances, and structure-level verification helpers.
//!
//! Bytes in, bytes out: no network and no CMS creation. The two-phase flow is
//! [`prepare`] (adds a signature field and reserved `/Contents`, returns the ByteRange digest)
//! then [`embed`] (hex-patches the CMS produced elsewhere into the reserved space).
//! [`prepare_file`] / [`embed_file`] do the same on files without loading them.

mod appearance;
pub mod assemble;
mod ber;
mod cmap;
pub mod compose;
mod coverage;
mod date;
mod error;
mod filters;
mod fonts;
pub mod forms;
mod images;
mod layout;
mod lexer;
pub mod object;
pub mod overlay;
mod parser;
pub mod reader;
mod sign;
pub mod source;
pub mod text;
mod verify;
mod writer;

pub use appearance::{Appearance, FieldMark, MarkContent, NameStyle, WidgetPlacement};
pub use assemble::{MergePart, Merged, append_documents, prepend_pages};
pub use coverage::Covering;
pub use error::{Error, Result};
pub use layout::{BoxSpec, PageSelection, Position, parse_page_boxes};
pub use overlay::{QrMark, draw_qr_codes};
pub use sign::{
    DEFAULT_CONTENTS_SIZE, DssData, EmptyField, MarkField, Prepared, PreparedFile, PreparedUpdate, SignOptions,
    SignatureKind, SubFilter, add_dss, add_dss_file, add_mark_fields, add_signature_fields, embed, embed_file,
    embed_into, hash_ranges, prepare, prepare_append, prepare_file, prepare_source, read_dss,
};
pub use verify::{Modifications, SignatureInfo, is_damage, signatures, signatures_in_file, signatures_of_damaged};

/// Open and check a PDF without signing it (header, xref, catalog, pages, every object a
/// page needs; refuses encryption).
pub fn inspect(input: &[u8]) -> Result<DocumentSummary> {
    let doc = reader::Document::open(input)?;
    // What cannot be shown in full is not a document anyone should be asked to sign.
    doc.check_displayable()?;
    summarize(&doc, input)
}

/// [`inspect`], and every page's content streams decoded within the document's work budget:
/// an upload whose pages would blow up whatever later renders or reads them (a flate bomb, a
/// stream that never ends) is refused when it arrives, not when a signer opens it.
pub fn inspect_upload(input: &[u8]) -> Result<DocumentSummary> {
    let doc = reader::Document::open(input)?;
    doc.check_displayable()?;
    doc.decode_page_contents()?;
    summarize(&doc, input)
}

/// Each page's size as shown (its crop box, turned by its rotation): width and height in
/// points, for screens that place boxes on rendered pages.
pub fn page_sizes(input: &[u8]) -> Result<Vec<(f64, f64)>> {
    let doc = reader::Document::open(input)?;
    Ok(doc
        .pages()?
        .iter()
        .map(|page| {
            let [x0, y0, x1, y1] = page.crop_box;
            let (width, height) = ((x1 - x0).abs(), (y1 - y0).abs());
            if page.rotate % 180 == 0 { (width, height) } else { (height, width) }
        })
        .collect())
}

fn summarize(doc: &reader::Document<'_>, input: &[u8]) -> Result<DocumentSummary> {
    Ok(DocumentSummary {
        pages: doc.pages()?.len(),
        revisions: doc.sections.len().max(1),
        xref_recovered: doc.recovered,
        signatures: verify::signatures(input)?.len(),
    })
}

/// A few facts about a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentSummary {
    pub pages: usize,
    pub revisions: usize,
    /// The xref was unusable and was rebuilt by scanning for objects.
    pub xref_recovered: bool,
    pub signatures: usize,
}
