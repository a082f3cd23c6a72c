//! Putting pages of one PDF in front of another (a stamp certificate before the agreement it
//! pays the duty of), as an incremental update of the document: its bytes stay as they are,
//! the update adds copies of the front pages' objects under new numbers and a page tree root
//! whose kids list them first. Done before anyone signs: adding pages to a signed document
//! would make its signatures cover a different document, so a signed one is refused.

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::object::{Dict, ObjRef, Object, Stream, StreamData};
use crate::reader::Document;
use crate::writer::Writer;

/// Most pages that may be put in front of a document at once.
pub const MAX_FRONT_PAGES: usize = 50;
/// Most objects copied from the front document (its pages and everything they use).
const MAX_COPIED_OBJECTS: usize = 50_000;
/// Deepest nesting of direct objects followed while copying.
const MAX_DEPTH: usize = 64;

/// Page keys that tie a page to the rest of its own document (annotations and form fields,
/// structure tree, article threads) and are not carried over: the copied page shows the same
/// content, on its own.
const DROPPED_PAGE_KEYS: [&str; 7] = ["Parent", "Annots", "StructParents", "B", "Tabs", "Metadata", "PieceInfo"];

/// `document` with every page of each of `fronts` (in order) before its own pages. Refuses a
/// document that carries signatures.
pub fn prepend_pages(fronts: &[&[u8]], document: &[u8]) -> Result<Vec<u8>> {
    let doc = Document::open(document)?;
    if !crate::verify::signatures(document)?.is_empty() {
        return Err(Error::Unsupported("the document is signed; pages cannot be put in front of it".into()));
    }
    let (_, catalog) = doc.catalog()?;
    let Some(Object::Ref(pages_ref)) = catalog.get("Pages").cloned() else {
        return Err(Error::Damaged("the catalog has no /Pages reference".into()));
    };
    let Some(mut pages_root) = doc.resolve_dict(&Object::Ref(pages_ref))? else {
        return Err(Error::Damaged("the page tree root is not a dictionary".into()));
    };
    let old_count = doc.pages()?.len();
    let old_kids = match pages_root.get("Kids") {
        Some(kids) => doc.resolve_array(kids)?.unwrap_or_default(),
        None => Vec::new(),
    };
    let mut writer = Writer::new(&doc)?;
    let mut new_kids = Vec::new();
    for front in fronts {
        let source = Document::open(*front)?;
        let mut copier = Copier { source: &source, writer: &mut writer, copied: HashMap::new() };
        for page in source.pages()? {
            if new_kids.len() >= MAX_FRONT_PAGES {
                return Err(Error::Unsupported(format!("more than {MAX_FRONT_PAGES} pages to put in front")));
            }
            new_kids.push(Object::Ref(copier.copy_page(&page, pages_ref)?));
        }
    }
    let added = new_kids.len();
    new_kids.extend(old_kids);
    pages_root.set("Kids", Object::Array(new_kids));
    pages_root.set("Count", Object::Int((old_count + added) as i64));
    writer.put(pages_ref, &Object::Dict(pages_root));
    let update = writer.finish(&doc)?;
    let mut out = Vec::with_capacity(document.len() + update.len());
    out.extend_from_slice(document);
    out.extend_from_slice(&update);
    Ok(out)
}

/// Copies objects of `source` into the update, each once, under new numbers.
struct Copier<'a, 's> {
    source: &'a Document<'s>,
    writer: &'a mut Writer,
    copied: HashMap<u32, ObjRef>,
}

impl Copier<'_, '_> {
    /// A page of the source as a page of the document under `parent`, with the attributes it
    /// inherits (boxes, rotation, resources) written on it.
    fn copy_page(&mut self, page: &crate::reader::Page, parent: ObjRef) -> Result<ObjRef> {
        let resources = self.inherited_resources(&page.dict)?;
        let mut dict = Dict::new();
        for (key, value) in &page.dict.0 {
            let name = String::from_utf8_lossy(key);
            if !DROPPED_PAGE_KEYS.contains(&name.as_ref()) {
                dict.0.push((key.clone(), self.copy(value, 0)?));
            }
        }
        dict.set("Type", Object::name("Page"));
        dict.set("Parent", Object::Ref(parent));
        dict.set("MediaBox", rect(page.media_box));
        if page.crop_box != page.media_box {
            dict.set("CropBox", rect(page.crop_box));
        }
        dict.set("Rotate", Object::Int(i64::from(page.rotate)));
        if let Some(resources) = resources {
            let copied = self.copy(&resources, 0)?;
            dict.set("Resources", copied);
        }
        let target = self.writer.alloc();
        self.writer.put(target, &Object::Dict(dict));
        Ok(target)
    }

    /// The page's resources, or the nearest ancestor's (a page may inherit them).
    fn inherited_resources(&self, page: &Dict) -> Result<Option<Object>> {
        let mut node = page.clone();
        for _ in 0..MAX_DEPTH {
            if let Some(resources) = node.get("Resources") {
                return Ok(Some(resources.clone()));
            }
            let Some(parent) = node.get("Parent").cloned() else { return Ok(None) };
            match self.source.resolve_dict(&parent)? {
                Some(dict) => node = dict,
                None => return Ok(None),
            }
        }
        Ok(None)
    }

    fn copy(&mut self, object: &Object, depth: usize) -> Result<Object> {
        if depth > MAX_DEPTH {
            return Err(Error::Damaged("objects nested too deeply to copy".into()));
        }
        Ok(match object {
            Object::Ref(r) => Object::Ref(self.copy_indirect(*r, depth)?),
            Object::Array(items) => {
                Object::Array(items.iter().map(|item| self.copy(item, depth + 1)).collect::<Result<_>>()?)
            }
            Object::Dict(dict) => Object::Dict(self.copy_dict(dict, depth)?),
            Object::Stream(stream) => {
                let data = self.source.stream_raw(stream)?;
                let mut dict = stream.dict.clone();
                dict.remove("Length");
                Object::Stream(Stream { dict: self.copy_dict(&dict, depth)?, data: StreamData::Owned(data) })
            }
            other => other.clone(),
        })
    }

    fn copy_dict(&mut self, dict: &Dict, depth: usize) -> Result<Dict> {
        let mut out = Dict::new();
        for (key, value) in &dict.0 {
            // A page reached through a resource (a link's destination) would drag in its own
            // page tree; it is not needed to show the copied page.
            if key.as_slice() == b"Parent" || key.as_slice() == b"P" {
                continue;
            }
            out.0.push((key.clone(), self.copy(value, depth + 1)?));
        }
        Ok(out)
    }

    /// The new number of a source object, copying it on first use. The number is taken before
    /// the object's own references are followed, so reference cycles end.
    fn copy_indirect(&mut self, r: ObjRef, depth: usize) -> Result<ObjRef> {
        if let Some(done) = self.copied.get(&r.num) {
            return Ok(*done);
        }
        if self.copied.len() >= MAX_COPIED_OBJECTS {
            return Err(Error::Unsupported("the pages to put in front use too many objects".into()));
        }
        let target = self.writer.alloc();
        self.copied.insert(r.num, target);
        let object = self.source.get(r)?;
        let copied = self.copy(&object, depth + 1)?;
        self.writer.put(target, &copied);
        Ok(target)
    }
}

fn rect(r: [f64; 4]) -> Object {
    Object::Array(r.iter().map(|v| Object::Real(*v)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compose::{Block, compose_report};

    fn report(title: &str, pages: usize) -> Vec<u8> {
        let lines: Vec<String> = (0..pages * 60).map(|i| format!("{title} line {i}")).collect();
        compose_report(title, &[Block::Mono(lines)], &[])
    }

    #[test]
    fn the_front_pages_come_first_and_the_document_is_kept_byte_for_byte() {
        let document = report("Agreement", 2);
        let stamp = compose_report("Stamp certificate", &[Block::Paragraph("IN-DL0001".into())], &[]);
        let pages_before = crate::inspect(&document).expect("document").pages;
        let stamped = prepend_pages(&[&stamp, &stamp], &document).expect("prepended");
        assert!(stamped.starts_with(&document), "an incremental update");
        let summary = crate::inspect_upload(&stamped).expect("opens");
        assert_eq!(summary.pages, pages_before + 2);
        let text = crate::text::pages_text(&stamped).expect("text");
        let first: String = text[0].1.iter().map(|run| run.text.clone()).collect();
        assert!(first.contains("Stamp certificate"), "{first}");
        let last: String = text[summary.pages - 1].1.iter().map(|run| run.text.clone()).collect();
        assert!(last.contains("Agreement"), "{last}");
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        let document = report("Agreement", 1);
        assert!(prepend_pages(&[b"not a pdf"], &document).is_err());
        assert!(prepend_pages(&[&document], b"%PDF-1.7 nothing").is_err());
    }
}
