//! Putting pages of other PDFs into a document, as an incremental update of the document: its
//! bytes stay as they are, the update adds copies of the other pages' objects under new
//! numbers and a page tree root whose kids list them. In front ([`prepend_pages`]: a stamp
//! certificate before the agreement it pays the duty of) or after ([`append_documents`]:
//! documents merged into one before signing, keeping their links and bookmarks). Done before
//! anyone signs: adding pages to a signed document would make its signatures cover a different
//! document, so a signed one is refused.

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::object::{Dict, ObjRef, Object, Stream, StreamData};
use crate::reader::Document;
use crate::writer::{ObjSink, Writer};

/// Most pages that may be put in front of a document at once.
pub const MAX_FRONT_PAGES: usize = 50;
/// Most objects copied from the front document (its pages and everything they use).
const MAX_COPIED_OBJECTS: usize = 50_000;
/// Deepest nesting of direct objects followed while copying.
const MAX_DEPTH: usize = 64;
/// Most documents merged into one.
pub const MAX_MERGED_DOCUMENTS: usize = 20;
/// Most pages a merge may produce.
pub const MAX_MERGED_PAGES: usize = 2000;
/// Most bookmarks carried over from the merged documents, all together.
const MAX_OUTLINE_ITEMS: usize = 10_000;
/// Deepest bookmark nesting followed.
const MAX_OUTLINE_DEPTH: usize = 32;
/// Most name tree nodes visited to find one named destination.
const MAX_NAME_TREE_NODES: usize = 10_000;

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
        if new_kids.len() + source.pages()?.len() > MAX_FRONT_PAGES {
            return Err(Error::Unsupported(format!("more than {MAX_FRONT_PAGES} pages to put in front")));
        }
        let mut copier = Copier::new(&source, &mut writer);
        new_kids.extend(copier.copy_pages(pages_ref, false)?.into_iter().map(Object::Ref));
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

/// A document to merge, and the title of the bookmark that leads to its first page (its own
/// bookmarks go below that one; without a title they join the top level).
#[derive(Debug, Clone, Copy)]
pub struct MergePart<'a> {
    pub bytes: &'a [u8],
    pub title: Option<&'a str>,
}

/// `document` with every page of each of `parts` (in order) after its own pages; links and
/// bookmarks of the parts lead to the copied pages. Form fields of a part are not carried over
/// (flatten them first: [`crate::forms::fill_form`] with `flatten`). Refuses signed inputs.
pub fn append_documents(document: &[u8], parts: &[MergePart<'_>]) -> Result<Merged> {
    if parts.len() > MAX_MERGED_DOCUMENTS {
        return Err(Error::Unsupported(format!("more than {MAX_MERGED_DOCUMENTS} documents to merge")));
    }
    let doc = Document::open(document)?;
    if !crate::verify::signatures(document)?.is_empty() {
        return Err(Error::Unsupported("the document is signed; nothing can be merged into it".into()));
    }
    let (catalog_ref, mut catalog) = doc.catalog()?;
    let Some(Object::Ref(pages_ref)) = catalog.get("Pages").cloned() else {
        return Err(Error::Damaged("the catalog has no /Pages reference".into()));
    };
    let Some(mut pages_root) = doc.resolve_dict(&Object::Ref(pages_ref))? else {
        return Err(Error::Damaged("the page tree root is not a dictionary".into()));
    };
    let mut count = doc.pages()?.len();
    let mut kids = match pages_root.get("Kids") {
        Some(kids) => doc.resolve_array(kids)?.unwrap_or_default(),
        None => Vec::new(),
    };
    let mut writer = Writer::new(&doc)?;
    let mut outline = OutlineTail::of(&doc, &catalog)?;
    let mut ranges = Vec::with_capacity(parts.len());
    let mut budget = MAX_OUTLINE_ITEMS;
    for part in parts {
        if !crate::verify::signatures(part.bytes)?.is_empty() {
            return Err(Error::Unsupported("a document to merge is signed; its signatures would be lost".into()));
        }
        let source = Document::open(part.bytes)?;
        source.check_displayable()?;
        let added = source.pages()?.len();
        if count + added > MAX_MERGED_PAGES {
            return Err(Error::Unsupported(format!(
                "the merged document would have more than {MAX_MERGED_PAGES} pages"
            )));
        }
        let mut copier = Copier::new(&source, &mut writer);
        let new_pages = copier.copy_pages(pages_ref, true)?;
        let items = copier.copy_outline(part.title, new_pages.first().copied(), &mut outline, &mut budget)?;
        outline.extend(items);
        ranges.push((count + 1, added));
        count += added;
        kids.extend(new_pages.into_iter().map(Object::Ref));
    }
    pages_root.set("Kids", Object::Array(kids));
    pages_root.set("Count", Object::Int(count as i64));
    writer.put(pages_ref, &Object::Dict(pages_root));
    if outline.finish(&doc, &mut writer, &mut catalog)? {
        writer.put(catalog_ref, &Object::Dict(catalog));
    }
    let update = writer.finish(&doc)?;
    let mut out = Vec::with_capacity(document.len() + update.len());
    out.extend_from_slice(document);
    out.extend_from_slice(&update);
    Ok(Merged { bytes: out, parts: ranges })
}

/// A merged document and where each merged part's pages are.
#[derive(Debug, Clone)]
pub struct Merged {
    pub bytes: Vec<u8>,
    /// Per part: its first page (1-based) and its page count.
    pub parts: Vec<(usize, usize)>,
}

/// A copied bookmark not yet written (its siblings may still change), and how many items it
/// shows (itself and its open descendants).
type Item = (ObjRef, Dict, usize);

/// The document's bookmarks (outline) as merging extends them: the root and its last
/// top-level item, and the top-level items added.
struct OutlineTail {
    root: Option<(ObjRef, Dict)>,
    last: Option<(ObjRef, Dict)>,
    /// The root's reference, taken when the first item is added.
    new_root: Option<ObjRef>,
    added: Vec<Item>,
}

impl OutlineTail {
    fn of(doc: &Document<'_>, catalog: &Dict) -> Result<OutlineTail> {
        let root = match catalog.get("Outlines") {
            Some(Object::Ref(r)) => doc.resolve_dict(&Object::Ref(*r))?.map(|d| (*r, d)),
            _ => None,
        };
        let last = match root.as_ref().and_then(|(_, d)| d.get("Last")) {
            Some(Object::Ref(r)) => doc.resolve_dict(&Object::Ref(*r))?.map(|d| (*r, d)),
            _ => None,
        };
        Ok(OutlineTail { root, last, new_root: None, added: Vec::new() })
    }

    /// The parent of new top-level items.
    fn root_ref(&mut self, writer: &mut Writer) -> ObjRef {
        match (&self.root, self.new_root) {
            (Some((r, _)), _) => *r,
            (None, Some(r)) => r,
            (None, None) => {
                let r = writer.alloc();
                self.new_root = Some(r);
                r
            }
        }
    }

    fn extend(&mut self, items: Vec<Item>) {
        self.added.extend(items);
    }

    /// Links the added items into the outline: the old last item's `/Next`, the root's
    /// `/Last` and `/Count`. Returns whether the catalog changed (a new outline).
    fn finish(self, doc: &Document<'_>, writer: &mut Writer, catalog: &mut Dict) -> Result<bool> {
        let (Some(first), Some(last)) = (self.added.first().map(|i| i.0), self.added.last().map(|i| i.0)) else {
            return Ok(false);
        };
        let (first, last) = (&first, &last);
        let visible: usize = self.added.iter().map(|(_, _, v)| v).sum();
        // The new top-level items, one chain after the document's own.
        let before = self.last.as_ref().filter(|_| self.root.is_some()).map(|(r, _)| *r);
        let refs: Vec<ObjRef> = self.added.iter().map(|i| i.0).collect();
        for (i, (r, mut item, _)) in self.added.into_iter().enumerate() {
            match if i == 0 { before } else { Some(refs[i - 1]) } {
                Some(p) => item.set("Prev", Object::Ref(p)),
                None => {
                    item.remove("Prev");
                }
            }
            match refs.get(i + 1) {
                Some(n) => item.set("Next", Object::Ref(*n)),
                None => {
                    item.remove("Next");
                }
            }
            writer.put(r, &Object::Dict(item));
        }
        if let Some((r, mut dict)) = self.last.clone().filter(|_| self.root.is_some()) {
            dict.set("Next", Object::Ref(*first));
            writer.put(r, &Object::Dict(dict));
        }
        match self.root {
            Some((r, mut root)) => {
                if root.get("First").is_none() {
                    root.set("First", Object::Ref(*first));
                }
                root.set("Last", Object::Ref(*last));
                let old = root.get("Count").map(|c| doc.resolve(c)).transpose()?.and_then(|c| c.as_int()).unwrap_or(0);
                root.set("Count", Object::Int(old.max(0) + visible as i64));
                writer.put(r, &Object::Dict(root));
                Ok(false)
            }
            None => {
                let mut root = Dict::new();
                root.set("Type", Object::name("Outlines"));
                root.set("First", Object::Ref(*first));
                root.set("Last", Object::Ref(*last));
                root.set("Count", Object::Int(visible as i64));
                let r = self.new_root.unwrap_or_else(|| writer.alloc());
                writer.put(r, &Object::Dict(root));
                catalog.set("Outlines", Object::Ref(r));
                Ok(true)
            }
        }
    }
}

/// Copies objects of `source` into the update, each once, under new numbers.
struct Copier<'a, 's> {
    source: &'a Document<'s>,
    writer: &'a mut Writer,
    copied: HashMap<u32, ObjRef>,
}

impl<'a, 's> Copier<'a, 's> {
    fn new(source: &'a Document<'s>, writer: &'a mut Writer) -> Self {
        Copier { source, writer, copied: HashMap::new() }
    }

    /// Every page of the source under `parent`, in order. Each page's new number is taken
    /// first, so that whatever points at a page (a link, a bookmark) points at its copy.
    fn copy_pages(&mut self, parent: ObjRef, keep_annotations: bool) -> Result<Vec<ObjRef>> {
        let pages = self.source.pages()?;
        let targets: Vec<ObjRef> = pages.iter().map(|_| self.writer.alloc()).collect();
        for (page, target) in pages.iter().zip(&targets) {
            self.copied.insert(page.id.num, *target);
        }
        for (page, target) in pages.iter().zip(&targets) {
            self.copy_page(page, parent, *target, keep_annotations)?;
        }
        Ok(targets)
    }

    /// A page of the source as a page of the document under `parent`, with the attributes it
    /// inherits (boxes, rotation, resources) written on it.
    fn copy_page(
        &mut self,
        page: &crate::reader::Page,
        parent: ObjRef,
        target: ObjRef,
        keep_annotations: bool,
    ) -> Result<()> {
        let resources = self.inherited_resources(&page.dict)?;
        let mut dict = Dict::new();
        for (key, value) in &page.dict.0 {
            let name = String::from_utf8_lossy(key);
            if !DROPPED_PAGE_KEYS.contains(&name.as_ref()) {
                dict.0.push((key.clone(), self.copy(value, 0)?));
            }
        }
        if keep_annotations && let Some(annots) = self.annotations(&page.dict)? {
            dict.set("Annots", Object::Array(annots));
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
        self.writer.put(target, &Object::Dict(dict));
        Ok(())
    }

    /// The page's annotations but form widgets (their fields stay behind), each a new object;
    /// a link to a named destination is given the destination itself, since the source's
    /// name tree is not carried over.
    fn annotations(&mut self, page: &Dict) -> Result<Option<Vec<Object>>> {
        let Some(annots) = page.get("Annots") else { return Ok(None) };
        let mut out = Vec::new();
        for annot in self.source.resolve_array(annots)?.unwrap_or_default() {
            let Some(mut dict) = self.source.resolve_dict(&annot)? else { continue };
            if dict.name("Subtype") == Some(b"Widget") || dict.name("Subtype") == Some(b"Popup") {
                continue;
            }
            if let Some(dest) = dict.get("Dest").cloned() {
                match self.explicit_dest(&dest)? {
                    Some(explicit) => dict.set("Dest", explicit),
                    None => {
                        dict.remove("Dest");
                    }
                }
            }
            if let Some(action) = dict.get("A").cloned() {
                match self.explicit_action(&action)? {
                    Some(a) => dict.set("A", a),
                    None => {
                        dict.remove("A");
                    }
                }
            }
            dict.remove("Popup");
            let copied = self.copy(&Object::Dict(dict), 0)?;
            out.push(Object::Ref(self.writer.add(copied)));
        }
        Ok(Some(out))
    }

    /// A go-to action with its destination made explicit; other actions as they are.
    fn explicit_action(&self, action: &Object) -> Result<Option<Object>> {
        let Some(mut dict) = self.source.resolve_dict(action)? else { return Ok(None) };
        if dict.name("S") == Some(b"GoTo")
            && let Some(d) = dict.get("D").cloned()
        {
            match self.explicit_dest(&d)? {
                Some(explicit) => dict.set("D", explicit),
                None => return Ok(None),
            }
        }
        Ok(Some(Object::Dict(dict)))
    }

    /// An explicit destination (`[page /XYZ ...]`) for a destination that may be a name
    /// (looked up in the catalog's `/Dests` or `/Names /Dests`).
    fn explicit_dest(&self, dest: &Object) -> Result<Option<Object>> {
        let resolved = self.source.resolve(dest)?;
        let found = match &resolved {
            Object::Array(_) => return Ok(Some(resolved)),
            Object::Name(name) => self.named_dest(name, false)?,
            Object::Str { bytes, .. } => self.named_dest(bytes, true)?,
            _ => None,
        };
        Ok(match found.map(|f| self.source.resolve(&f)).transpose()? {
            Some(Object::Array(a)) => Some(Object::Array(a)),
            Some(Object::Dict(d)) => {
                d.get("D").map(|d| self.source.resolve(d)).transpose()?.filter(|d| d.as_array().is_some())
            }
            _ => None,
        })
    }

    fn named_dest(&self, name: &[u8], in_name_tree: bool) -> Result<Option<Object>> {
        let (_, catalog) = self.source.catalog()?;
        if !in_name_tree {
            let dests = catalog.get("Dests").map(|d| self.source.resolve_dict(d)).transpose()?.flatten();
            return Ok(dests.and_then(|d| d.0.into_iter().find(|(k, _)| k.as_slice() == name).map(|(_, v)| v)));
        }
        let names = catalog.get("Names").map(|n| self.source.resolve_dict(n)).transpose()?.flatten();
        let Some(tree) = names.and_then(|n| n.get("Dests").cloned()) else { return Ok(None) };
        // Breadth-first through the name tree, bounded in nodes and depth, each node once.
        let mut queue = std::collections::VecDeque::from([(tree, 0usize)]);
        let mut seen = std::collections::HashSet::new();
        let mut visited = 0;
        while let Some((node, depth)) = queue.pop_front() {
            visited += 1;
            if visited > MAX_NAME_TREE_NODES || depth > MAX_DEPTH {
                return Err(Error::Unsupported("a name tree too large to search".into()));
            }
            if let Some(r) = node.as_ref()
                && !seen.insert(r.num)
            {
                continue;
            }
            let Some(dict) = self.source.resolve_dict(&node)? else { continue };
            if let Some(pairs) = dict.get("Names").map(|n| self.source.resolve_array(n)).transpose()?.flatten() {
                for pair in pairs.chunks_exact(2) {
                    if pair[0].as_str_bytes() == Some(name) {
                        return Ok(Some(pair[1].clone()));
                    }
                }
            }
            for kid in dict.get("Kids").map(|k| self.source.resolve_array(k)).transpose()?.flatten().unwrap_or_default()
            {
                queue.push_back((kid, depth + 1));
            }
        }
        Ok(None)
    }

    /// The source's bookmarks as new items: under one titled item leading to `first_page` when
    /// a title is given, else at the top level. Returns the new top-level items with the
    /// number of items each shows (itself and its open descendants).
    fn copy_outline(
        &mut self,
        title: Option<&str>,
        first_page: Option<ObjRef>,
        tail: &mut OutlineTail,
        budget: &mut usize,
    ) -> Result<Vec<Item>> {
        let (_, catalog) = self.source.catalog()?;
        let first = match catalog.get("Outlines").map(|o| self.source.resolve_dict(o)).transpose()?.flatten() {
            Some(root) => root.get("First").cloned(),
            None => None,
        };
        let root = tail.root_ref(self.writer);
        match (title, first_page) {
            (Some(title), Some(page)) => {
                let me = self.writer.alloc();
                let children = match first {
                    Some(first) => self.copy_items(&first, me, 1, budget)?,
                    None => Vec::new(),
                };
                let mut item = Dict::new();
                item.set("Title", Object::text(title));
                item.set("Parent", Object::Ref(root));
                item.set("Dest", Object::Array(vec![Object::Ref(page), Object::name("Fit")]));
                let visible = self.link_children(&mut item, children, true);
                Ok(vec![(me, item, 1 + visible)])
            }
            _ => match first {
                Some(first) => self.copy_items(&first, root, 0, budget),
                None => Ok(Vec::new()),
            },
        }
    }

    /// Copies a chain of sibling bookmarks (and, bounded in depth, their children, written)
    /// under `parent`; the siblings are returned linked among themselves, not yet written.
    fn copy_items(&mut self, first: &Object, parent: ObjRef, depth: usize, budget: &mut usize) -> Result<Vec<Item>> {
        if depth > MAX_OUTLINE_DEPTH {
            return Ok(Vec::new());
        }
        let mut items = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut next = Some(first.clone());
        while let Some(current) = next.take() {
            if let Some(r) = current.as_ref()
                && !seen.insert(r.num)
            {
                break;
            }
            let Some(dict) = self.source.resolve_dict(&current)? else { break };
            if *budget == 0 {
                return Err(Error::Unsupported(format!("more than {MAX_OUTLINE_ITEMS} bookmarks to merge")));
            }
            *budget -= 1;
            next = dict.get("Next").cloned();
            items.push(dict);
        }
        let refs: Vec<ObjRef> = items.iter().map(|_| self.writer.alloc()).collect();
        let mut out = Vec::with_capacity(items.len());
        for (i, source) in items.iter().enumerate() {
            let me = refs[i];
            let children = match source.get("First") {
                Some(first) => self.copy_items(first, me, depth + 1, budget)?,
                None => Vec::new(),
            };
            let mut item = Dict::new();
            for key in ["Title", "C", "F"] {
                if let Some(v) = source.get(key) {
                    let copied = self.copy(v, 0)?;
                    item.set(key, copied);
                }
            }
            if let Some(dest) = source.get("Dest").map(|d| self.explicit_dest(d)).transpose()?.flatten() {
                let copied = self.copy(&dest, 0)?;
                item.set("Dest", copied);
            }
            if let Some(action) = source.get("A").map(|a| self.explicit_action(a)).transpose()?.flatten() {
                let copied = self.copy(&action, 0)?;
                item.set("A", copied);
            }
            item.set("Parent", Object::Ref(parent));
            if i > 0 {
                item.set("Prev", Object::Ref(refs[i - 1]));
            }
            if let Some(n) = refs.get(i + 1) {
                item.set("Next", Object::Ref(*n));
            }
            let open = source.get("Count").and_then(Object::as_int).is_none_or(|c| c >= 0);
            let visible = self.link_children(&mut item, children, open);
            out.push((me, item, 1 + visible));
        }
        Ok(out)
    }

    /// Writes an item's copied children and sets its `/First`, `/Last` and `/Count`; returns
    /// how many items it shows below itself (none when closed).
    fn link_children(&mut self, item: &mut Dict, children: Vec<Item>, open: bool) -> usize {
        let (Some(first), Some(last)) = (children.first().map(|c| c.0), children.last().map(|c| c.0)) else {
            return 0;
        };
        let below: usize = children.iter().map(|(_, _, v)| v).sum();
        for (r, child, _) in children {
            self.writer.put(r, &Object::Dict(child));
        }
        item.set("First", Object::Ref(first));
        item.set("Last", Object::Ref(last));
        item.set("Count", Object::Int(if open { below as i64 } else { -(below as i64) }));
        if open { below } else { 0 }
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
