//! A small XML tree over quick-xml, and XML Canonicalization 1.0 in both forms: exclusive
//! (<http://www.w3.org/2001/10/xml-exc-c14n#>) and inclusive
//! (<http://www.w3.org/TR/2001/REC-xml-c14n-20010315>), each with or without comments. The two
//! differ only in which namespace declarations an element renders and in the `xml:` attributes
//! a subtree's apex inherits (inclusive only); everything else is one renderer.
//!
//! Scope: UTF-8 documents without DTDs (a DTD could declare entities or default attributes
//! that change the canonical form; we refuse it rather than get it subtly wrong). Byte offsets
//! of every element are kept so a signature can be spliced into the original text without
//! re-serialising (and thus without changing) the rest of the document.

use std::collections::{BTreeMap, BTreeSet};

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use crate::{Error, Result};

/// Maximum XML input size and nesting depth (hostile-input limits).
pub(crate) const MAX_XML_LEN: usize = 64 << 20;
const MAX_DEPTH: usize = 256;
pub(crate) const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

/// An element with its namespace declarations kept apart from ordinary attributes.
#[derive(Debug, Clone)]
pub struct Element {
    /// Qualified name as written (prefix:local or local).
    pub name: String,
    /// Non-namespace attributes (qualified name, normalised value), in document order.
    pub attrs: Vec<(String, String)>,
    /// Namespace declarations on this element: (prefix or "" for default, URI).
    pub ns_decls: Vec<(String, String)>,
    pub children: Vec<Node>,
    /// Byte offset of the start tag's "<".
    pub start: usize,
    /// Byte offset where the end tag starts ("</..."), or of "/>" for an empty element.
    pub end_tag_start: usize,
    /// Byte offset just after the element.
    pub end: usize,
    /// Written as `<x/>`.
    pub empty: bool,
}

#[derive(Debug, Clone)]
pub enum Node {
    Element(Element),
    Text(String),
    Comment(String),
    /// Processing instruction: (target, data).
    Pi(String, String),
}

/// A parsed document: misc nodes before the root, the root, misc nodes after it.
#[derive(Debug, Clone)]
pub struct Document {
    pub before: Vec<Node>,
    pub root: Element,
    pub after: Vec<Node>,
}

impl Element {
    pub fn prefix(&self) -> &str {
        split_qname(&self.name).0
    }
    pub fn local_name(&self) -> &str {
        split_qname(&self.name).1
    }
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
    pub fn child_elements(&self) -> impl Iterator<Item = &Element> {
        self.children.iter().filter_map(|n| match n {
            Node::Element(e) => Some(e),
            _ => None,
        })
    }
    /// Concatenated text content of this element's direct text children.
    pub fn text(&self) -> String {
        self.children
            .iter()
            .filter_map(|n| match n {
                Node::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect()
    }
}

pub(crate) fn split_qname(q: &str) -> (&str, &str) {
    match q.split_once(':') {
        Some((p, l)) => (p, l),
        None => ("", q),
    }
}

/// In-scope namespace bindings: prefix ("" = default) → URI ("" = undeclared default).
pub(crate) type NsScope = BTreeMap<String, String>;

/// The scope after applying `el`'s declarations.
pub(crate) fn extend_scope(scope: &NsScope, el: &Element) -> NsScope {
    let mut s = scope.clone();
    for (p, u) in &el.ns_decls {
        s.insert(p.clone(), u.clone());
    }
    s
}

/// Namespace URI of an element given the scope that includes its own declarations.
pub(crate) fn element_ns<'a>(el: &Element, scope: &'a NsScope) -> &'a str {
    scope.get(el.prefix()).map(String::as_str).unwrap_or("")
}

// ---------------------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------------------

fn xml_err(e: impl std::fmt::Display) -> Error {
    Error::Xml(e.to_string())
}

/// XML 1.0 §2.11: CRLF and lone CR become LF.
fn normalize_eol(s: &str) -> String {
    if !s.contains('\r') {
        return s.to_string();
    }
    s.replace("\r\n", "\n").replace('\r', "\n")
}

/// Attribute value normalisation for CDATA attributes (XML 1.0 §3.3.3): literal whitespace
/// characters become spaces; character references are kept as the characters they denote.
fn normalize_attr(raw: &str) -> Result<String> {
    let eol = normalize_eol(raw);
    let spaced: String = eol.chars().map(|c| if matches!(c, '\t' | '\n') { ' ' } else { c }).collect();
    quick_xml::escape::unescape(&spaced)
        .map(|c| c.into_owned())
        .map_err(|e| Error::Xml(format!("bad reference in attribute: {e}")))
}

// XML 1.0 §2.2 Char and §2.3 Name productions. quick-xml is lenient about both; a
// canonicaliser must not be, or its output is not XML.
fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

fn is_name_start(c: char) -> bool {
    matches!(c, 'A'..='Z' | '_' | 'a'..='z' | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}'
        | '\u{F8}'..='\u{2FF}' | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}'
        | '\u{200C}'..='\u{200D}' | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}'
        | '\u{3001}'..='\u{D7FF}' | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}'
        | '\u{10000}'..='\u{EFFFF}')
}

fn is_name_char(c: char) -> bool {
    is_name_start(c) || matches!(c, '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

fn check_ncname(n: &str) -> bool {
    let mut chars = n.chars();
    chars.next().is_some_and(is_name_start) && chars.all(is_name_char)
}

/// A QName: NCName or NCName:NCName.
fn check_qname(q: &str) -> Result<()> {
    let ok = match q.split_once(':') {
        Some((p, l)) => check_ncname(p) && check_ncname(l),
        None => check_ncname(q),
    };
    if ok { Ok(()) } else { Err(Error::Xml(format!("invalid XML name {q:?}"))) }
}

fn check_chars(s: &str) -> Result<()> {
    match s.chars().find(|c| !is_xml_char(*c)) {
        Some(c) => Err(Error::Xml(format!("character U+{:04X} is not allowed in XML", u32::from(c)))),
        None => Ok(()),
    }
}

fn start_element(e: &BytesStart<'_>) -> Result<Element> {
    let name = std::str::from_utf8(e.name().as_ref()).map_err(xml_err)?.to_string();
    check_qname(&name)?;
    let mut attrs = Vec::new();
    let mut ns_decls = Vec::new();
    let mut seen = BTreeSet::new();
    for a in e.attributes().with_checks(true) {
        let a = a.map_err(xml_err)?;
        let key = std::str::from_utf8(a.key.as_ref()).map_err(xml_err)?.to_string();
        check_qname(&key)?;
        if !seen.insert(key.clone()) {
            return Err(Error::Xml(format!("duplicate attribute {key}")));
        }
        let raw = std::str::from_utf8(&a.value).map_err(xml_err)?;
        let value = normalize_attr(raw)?;
        check_chars(&value)?;
        if key == "xmlns" {
            ns_decls.push((String::new(), value));
        } else if let Some(p) = key.strip_prefix("xmlns:") {
            if value.is_empty() {
                return Err(Error::Xml(format!("prefix {p} undeclared with an empty URI")));
            }
            ns_decls.push((p.to_string(), value));
        } else {
            attrs.push((key, value));
        }
    }
    Ok(Element { name, attrs, ns_decls, children: Vec::new(), start: 0, end_tag_start: 0, end: 0, empty: false })
}

/// Parse a UTF-8 XML document (a leading BOM is skipped; offsets are relative to the text
/// after the BOM).
// Long on purpose: one loop over the reader's events that owns the open-element stack (its
// depth is bounded); helpers would have to pass the stack and the offsets back and forth.
pub fn parse(text: &str) -> Result<Document> {
    if text.len() > MAX_XML_LEN {
        return Err(Error::Xml("document too large".into()));
    }
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut stack: Vec<Element> = Vec::new();
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut root: Option<Element> = None;
    loop {
        let pos_before = pos(reader.buffer_position())?;
        let ev = reader.read_event().map_err(|e| Error::Xml(format!("at byte {}: {e}", reader.error_position())))?;
        let pos_after = pos(reader.buffer_position())?;
        match ev {
            Event::Start(e) => {
                if root.is_some() {
                    return Err(Error::Xml("content after the document element".into()));
                }
                if stack.len() >= MAX_DEPTH {
                    return Err(Error::Xml("elements nested too deeply".into()));
                }
                let mut el = start_element(&e)?;
                el.start = pos_before;
                stack.push(el);
            }
            Event::Empty(e) => {
                if root.is_some() {
                    return Err(Error::Xml("content after the document element".into()));
                }
                let mut el = start_element(&e)?;
                el.start = pos_before;
                el.empty = true;
                el.end = pos_after;
                el.end_tag_start = pos_after.saturating_sub(2);
                attach(&mut stack, &mut root, el);
            }
            Event::End(_) => {
                let mut el = stack.pop().ok_or_else(|| Error::Xml("unexpected end tag".into()))?;
                el.end_tag_start = pos_before;
                el.end = pos_after;
                attach(&mut stack, &mut root, el);
            }
            Event::Text(t) => {
                let raw = t.decode().map_err(xml_err)?;
                push_text(&mut stack, normalize_eol(&raw))?;
            }
            Event::GeneralRef(r) => {
                let ch = match r.resolve_char_ref().map_err(xml_err)? {
                    Some(c) => c.to_string(),
                    None => predefined_entity(&r.decode().map_err(xml_err)?)?.to_string(),
                };
                push_text(&mut stack, ch)?;
            }
            Event::CData(c) => {
                let raw = std::str::from_utf8(c.as_ref()).map_err(xml_err)?;
                push_text(&mut stack, normalize_eol(raw))?;
            }
            Event::Comment(c) => {
                let raw = std::str::from_utf8(c.as_ref()).map_err(xml_err)?;
                check_chars(raw)?;
                push_misc(&mut stack, &root, &mut before, &mut after, Node::Comment(normalize_eol(raw)));
            }
            Event::PI(p) => {
                let target = std::str::from_utf8(p.target()).map_err(xml_err)?.to_string();
                if !check_ncname(&target) || target.eq_ignore_ascii_case("xml") {
                    return Err(Error::Xml(format!("invalid processing instruction target {target:?}")));
                }
                let data = std::str::from_utf8(p.content()).map_err(xml_err)?.trim_start().to_string();
                push_misc(&mut stack, &root, &mut before, &mut after, Node::Pi(target, normalize_eol(&data)));
            }
            Event::Decl(d) => {
                if let Some(enc) = d.encoding() {
                    let enc = enc.map_err(xml_err)?;
                    let enc = String::from_utf8_lossy(&enc).to_ascii_lowercase();
                    if enc != "utf-8" && enc != "utf8" {
                        return Err(Error::Xml(format!("unsupported encoding {enc}; use UTF-8")));
                    }
                }
            }
            Event::DocType(_) => {
                return Err(Error::Xml("documents with a DTD are not supported".into()));
            }
            Event::Eof => break,
        }
    }
    if !stack.is_empty() {
        return Err(Error::Xml("document ends inside an element".into()));
    }
    let root = root.ok_or_else(|| Error::Xml("no document element".into()))?;
    Ok(Document { before, root, after })
}

fn pos(p: u64) -> Result<usize> {
    usize::try_from(p).map_err(|_| Error::Xml("offset overflow".into()))
}

fn attach(stack: &mut [Element], root: &mut Option<Element>, el: Element) {
    match stack.last_mut() {
        Some(parent) => parent.children.push(Node::Element(el)),
        None => *root = Some(el),
    }
}

fn push_text(stack: &mut [Element], text: String) -> Result<()> {
    check_chars(&text)?;
    match stack.last_mut() {
        Some(parent) => {
            // Merge adjacent text (text, references, CDATA) into one node.
            if let Some(Node::Text(prev)) = parent.children.last_mut() {
                prev.push_str(&text);
            } else {
                parent.children.push(Node::Text(text));
            }
            Ok(())
        }
        None if text.chars().all(|c| matches!(c, ' ' | '\t' | '\n' | '\r')) => Ok(()),
        None => Err(Error::Xml("text outside the document element".into())),
    }
}

fn push_misc(stack: &mut [Element], root: &Option<Element>, before: &mut Vec<Node>, after: &mut Vec<Node>, node: Node) {
    match stack.last_mut() {
        Some(parent) => parent.children.push(node),
        None if root.is_some() => after.push(node),
        None => before.push(node),
    }
}

fn predefined_entity(name: &str) -> Result<&'static str> {
    Ok(match name {
        "amp" => "&",
        "lt" => "<",
        "gt" => ">",
        "quot" => "\"",
        "apos" => "'",
        other => return Err(Error::Xml(format!("undeclared entity &{other};"))),
    })
}

// ---------------------------------------------------------------------------------------------
// C14N 1.0, exclusive and inclusive
// ---------------------------------------------------------------------------------------------

/// Canonicalisation parameters.
#[derive(Clone, Copy)]
pub(crate) struct C14n<'a> {
    pub with_comments: bool,
    /// An element (by address) to leave out with its subtree: the enveloped-signature
    /// transform.
    pub exclude: Option<&'a Element>,
    /// Inclusive C14N 1.0 (every in-scope namespace is rendered where it is not already in
    /// effect); exclusive C14N 1.0 otherwise (only the visibly utilised ones).
    pub inclusive: bool,
    /// Inclusive only: the `xml:` attributes (qualified name, value) of the apex's ancestors,
    /// nearest first wins, which C14N 1.0 §2.4 makes the apex of a document subset inherit
    /// when it does not carry them itself. Empty for a whole document.
    pub inherited_xml: &'a [(String, String)],
    /// Exclusive only: the InclusiveNamespaces PrefixList ("" for `#default`), prefixes whose
    /// declarations are rendered by the inclusive rules wherever they are in scope (Exclusive
    /// XML Canonicalization 1.0 §3).
    pub inclusive_prefixes: &'a [String],
}

impl C14n<'static> {
    /// Exclusive C14N 1.0 of a whole subtree, nothing left out.
    pub(crate) fn exclusive(with_comments: bool) -> Self {
        C14n { with_comments, exclude: None, inclusive: false, inherited_xml: &[], inclusive_prefixes: &[] }
    }
}

/// The `xml:` attributes `el`'s ancestors give it under inclusive C14N 1.0 (§2.4: "attributes
/// in the XML namespace, such as xml:lang and xml:space, are inherited from the nearest
/// ancestors in which they occur"): walks `doc` to `el` (found by address) and keeps, per
/// name, the nearest ancestor's value. Empty when `el` is the document element or not found.
pub(crate) fn inherited_xml_attrs(doc: &Document, el: &Element) -> Vec<(String, String)> {
    let mut found: Option<Vec<&Element>> = None;
    let mut path = Vec::new();
    walk(&doc.root, &mut path, &mut |p: &[&Element]| {
        if found.is_none() && p.last().is_some_and(|last| std::ptr::eq(*last, el)) {
            found = Some(p[..p.len() - 1].to_vec());
        }
    });
    let mut out: Vec<(String, String)> = Vec::new();
    for ancestor in found.unwrap_or_default().iter().rev() {
        for (name, value) in &ancestor.attrs {
            if name.starts_with("xml:") && !out.iter().any(|(n, _)| n == name) {
                out.push((name.clone(), value.clone()));
            }
        }
    }
    out
}

/// Canonical form of the whole document (for a same-document reference URI="").
pub(crate) fn c14n_document(doc: &Document, p: C14n<'_>) -> Result<String> {
    let mut out = String::new();
    for n in &doc.before {
        if render_misc(n, p, &mut out) {
            out.push('\n');
        }
    }
    render_element(&doc.root, &NsScope::new(), &NsScope::new(), p, &mut out, 0)?;
    for n in &doc.after {
        let mut tmp = String::new();
        if render_misc(n, p, &mut tmp) {
            out.push('\n');
            out.push_str(&tmp);
        }
    }
    Ok(out)
}

/// Canonical form of the subtree at `el`, whose ancestors' declarations give `scope`
/// (the scope *before* `el`'s own declarations).
pub(crate) fn c14n_subtree(el: &Element, scope: &NsScope, p: C14n<'_>) -> Result<String> {
    let mut out = String::new();
    // The apex has no output ancestor: nothing has been rendered yet.
    render_element(el, scope, &NsScope::new(), p, &mut out, 0)?;
    Ok(out)
}

fn render_misc(n: &Node, p: C14n<'_>, out: &mut String) -> bool {
    match n {
        Node::Pi(t, d) => {
            render_pi(t, d, out);
            true
        }
        Node::Comment(c) if p.with_comments => {
            out.push_str("<!--");
            out.push_str(c);
            out.push_str("-->");
            true
        }
        _ => false,
    }
}

fn render_pi(target: &str, data: &str, out: &mut String) {
    out.push_str("<?");
    out.push_str(target);
    if !data.is_empty() {
        out.push(' ');
        out.push_str(data);
    }
    out.push_str("?>");
}

// Long on purpose: exclusive canonicalization of one element follows the specification's steps
// in order (visible namespaces, attribute sorting, children, end tag); kept together so that it
// can be read against the text of the standard.
fn render_element(
    el: &Element,
    parent_scope: &NsScope,
    rendered: &NsScope,
    p: C14n<'_>,
    out: &mut String,
    depth: usize,
) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::Xml("elements nested too deeply".into()));
    }
    let scope = extend_scope(parent_scope, el);
    let (ns_out, new_rendered) = if p.inclusive {
        inclusive_namespaces(&scope, rendered)
    } else {
        exclusive_namespaces(el, &scope, rendered, p)?
    };
    // Attributes sorted by (namespace URI, local name); unqualified ones have no URI.
    let mut attrs: Vec<(String, &str, &str, &str)> = Vec::new();
    // The apex of a subset under inclusive C14N takes the xml: attributes its ancestors give it.
    let inherited = if p.inclusive && depth == 0 { p.inherited_xml } else { &[] };
    let own = el.attrs.iter().map(|(n, v)| (n, v));
    let adopted = inherited.iter().filter(|(n, _)| el.attr(n).is_none()).map(|(n, v)| (n, v));
    for (name, value) in own.chain(adopted) {
        let (pre, local) = split_qname(name);
        let uri = match pre {
            "" => String::new(),
            "xml" => XML_NS.to_string(),
            other => {
                scope.get(other).cloned().ok_or_else(|| Error::Xml(format!("unbound namespace prefix {other}")))?
            }
        };
        attrs.push((uri, local, name.as_str(), value.as_str()));
    }
    attrs.sort_by(|a, b| (a.0.as_str(), a.1).cmp(&(b.0.as_str(), b.1)));

    out.push('<');
    out.push_str(&el.name);
    for (pre, uri) in &ns_out {
        if pre.is_empty() {
            out.push_str(" xmlns=\"");
        } else {
            out.push_str(" xmlns:");
            out.push_str(pre);
            out.push_str("=\"");
        }
        escape_attr(uri, out);
        out.push('"');
    }
    for (_, _, qname, value) in &attrs {
        out.push(' ');
        out.push_str(qname);
        out.push_str("=\"");
        escape_attr(value, out);
        out.push('"');
    }
    out.push('>');
    for child in &el.children {
        match child {
            Node::Element(c) => {
                if p.exclude.is_some_and(|x| std::ptr::eq(x, c)) {
                    continue;
                }
                render_element(c, &scope, &new_rendered, p, out, depth + 1)?;
            }
            Node::Text(t) => escape_text(t, out),
            Node::Comment(c) => {
                if p.with_comments {
                    out.push_str("<!--");
                    out.push_str(c);
                    out.push_str("-->");
                }
            }
            Node::Pi(t, d) => render_pi(t, d, out),
        }
    }
    out.push_str("</");
    out.push_str(&el.name);
    out.push('>');
    Ok(())
}

/// Exclusive C14N 1.0: the element renders the declarations of its visibly utilised prefixes
/// (its own and its prefixed attributes', not `xml:`) not already rendered the same by an
/// output ancestor, and those of the InclusiveNamespaces PrefixList that are in scope. Returns
/// what to render and what is rendered below this element.
fn exclusive_namespaces(
    el: &Element,
    scope: &NsScope,
    rendered: &NsScope,
    p: C14n<'_>,
) -> Result<(Vec<(String, String)>, NsScope)> {
    let mut utilised = BTreeSet::new();
    utilised.insert(el.prefix().to_string());
    for listed in p.inclusive_prefixes {
        if listed.is_empty() || scope.get(listed).is_some_and(|uri| !uri.is_empty()) {
            utilised.insert(listed.clone());
        }
    }
    for (name, _) in &el.attrs {
        let (pre, _) = split_qname(name);
        if !pre.is_empty() && pre != "xml" {
            utilised.insert(pre.to_string());
        }
    }
    let mut new_rendered = rendered.clone();
    let mut ns_out = Vec::new();
    for pre in &utilised {
        let uri = scope.get(pre).cloned().unwrap_or_default();
        if pre.is_empty() {
            let prev = rendered.get("").map(String::as_str).unwrap_or("");
            if uri != prev {
                ns_out.push((String::new(), uri.clone()));
                new_rendered.insert(String::new(), uri);
            }
        } else {
            if uri.is_empty() {
                return Err(Error::Xml(format!("unbound namespace prefix {pre}")));
            }
            if rendered.get(pre) != Some(&uri) {
                ns_out.push((pre.clone(), uri.clone()));
                new_rendered.insert(pre.clone(), uri);
            }
        }
    }
    Ok((ns_out, new_rendered))
}

/// Inclusive C14N 1.0 (§2.3, §4.x of the W3C recommendation): an element's namespace axis is
/// every in-scope namespace; one is rendered unless the nearest output ancestor already has
/// it with the same value (the apex of a subset has none, so it renders them all, inherited
/// ones included). The `xml` prefix is never rendered. `xmlns=""` is rendered only where an
/// output ancestor had a non-empty default namespace in effect. Prefixes come out sorted,
/// the default namespace first (a `BTreeMap` in prefix order, "" first).
fn inclusive_namespaces(scope: &NsScope, rendered: &NsScope) -> (Vec<(String, String)>, NsScope) {
    let mut ns_out = Vec::new();
    for (pre, uri) in scope {
        if pre == "xml" {
            continue;
        }
        let prev = rendered.get(pre).map(String::as_str).unwrap_or("");
        if uri != prev {
            ns_out.push((pre.clone(), uri.clone()));
        }
    }
    let mut now_rendered = scope.clone();
    now_rendered.remove("xml");
    (ns_out, now_rendered)
}

/// Text or an attribute value (double-quoted) escaped for an XML document being written, with
/// the characters XML 1.0 cannot hold (most control characters, U+FFFE, U+FFFF) dropped: the one
/// rule for every XML Signet writes (reports, eSign requests, spreadsheets). Canonical forms
/// (C14N) escape by their own rules below.
pub fn escape_into(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
}

/// [`escape_into`] into a new string.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(text, &mut out);
    out
}

fn escape_text(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => out.push_str("&#xD;"),
            c => out.push(c),
        }
    }
}

fn escape_attr(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '"' => out.push_str("&quot;"),
            '\t' => out.push_str("&#x9;"),
            '\n' => out.push_str("&#xA;"),
            '\r' => out.push_str("&#xD;"),
            c => out.push(c),
        }
    }
}

/// Visit every element with its ancestor path (path includes the element itself, last).
pub(crate) fn walk<'a>(el: &'a Element, path: &mut Vec<&'a Element>, f: &mut dyn FnMut(&[&'a Element])) {
    path.push(el);
    f(path);
    for c in el.child_elements() {
        walk(c, path, f);
    }
    path.pop();
}

/// The scope of in-scope namespaces for the elements in `path` (all declarations applied).
pub(crate) fn scope_of(path: &[&Element]) -> NsScope {
    let mut s = NsScope::new();
    for e in path {
        for (p, u) in &e.ns_decls {
            s.insert(p.clone(), u.clone());
        }
    }
    s
}

/// Public entry point: exclusive C14N (without comments) of a whole UTF-8 document.
pub fn canonicalize(xml: &[u8]) -> Result<String> {
    let text = as_text(xml)?;
    let doc = parse(text)?;
    c14n_document(&doc, C14n::exclusive(false))
}

/// Public entry point: inclusive C14N 1.0 of a whole UTF-8 document, with or without comments.
pub fn canonicalize_inclusive(xml: &[u8], with_comments: bool) -> Result<String> {
    let text = as_text(xml)?;
    let doc = parse(text)?;
    c14n_document(&doc, C14n { inclusive: true, ..C14n::exclusive(with_comments) })
}

/// UTF-8 text of an XML byte buffer, BOM removed.
pub fn as_text(xml: &[u8]) -> Result<&str> {
    if xml.is_empty() {
        return Err(Error::Xml("empty document".into()));
    }
    let body = xml.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(xml);
    std::str::from_utf8(body).map_err(|_| Error::Xml("document is not UTF-8".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(x: &str) -> String {
        canonicalize(x.as_bytes()).unwrap_or_else(|e| format!("ERR {e}"))
    }

    #[test]
    fn basic_rules() {
        assert_eq!(c("<?xml version=\"1.0\"?>\n<a b='1'  a=\"2\"/>"), "<a a=\"2\" b=\"1\"></a>");
        assert_eq!(c("<a>x&amp;y&lt;&gt;&#13;\r\n</a>"), "<a>x&amp;y&lt;&gt;&#xD;\n</a>");
        assert_eq!(c("<a t=\"&#9;x&#10;\r\n\ty\"/>"), "<a t=\"&#x9;x&#xA;  y\"></a>");
        assert_eq!(c("<a><![CDATA[<&>]]></a>"), "<a>&lt;&amp;&gt;</a>");
        assert_eq!(c("<!--c--><a><!--x--><?p  d?></a>"), "<a><?p d?></a>");
        // Exclusive: unused declarations dropped, used ones pushed down.
        assert_eq!(
            c("<a xmlns:x=\"u:x\" xmlns:y=\"u:y\"><x:b y:c=\"1\"/></a>"),
            "<a><x:b xmlns:x=\"u:x\" xmlns:y=\"u:y\" y:c=\"1\"></x:b></a>"
        );
        assert_eq!(c("<a xmlns=\"u:d\"><b xmlns=\"\"/></a>"), "<a xmlns=\"u:d\"><b xmlns=\"\"></b></a>");
        assert!(c("<!DOCTYPE a [<!ENTITY e \"x\">]><a>&e;</a>").starts_with("ERR"));
        assert!(c("<a><b></a>").starts_with("ERR"));
        assert!(c("").starts_with("ERR"));
        assert!(c("<a\0/>").starts_with("ERR"));
        assert!(c("<a>&#0;</a>").starts_with("ERR"));
        assert!(c("<1a/>").starts_with("ERR"));
        assert!(c("<a:b:c/>").starts_with("ERR"));
        assert!(c("<a x=\"\u{1}\"/>").starts_with("ERR"));
    }
}
