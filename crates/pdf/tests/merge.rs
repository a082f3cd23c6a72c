//! Merging documents made by reportlab: pages in order, bookmarks and links leading to the
//! copied pages, the result signed and validated.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::process::Command;

use common::*;
use signet_pdf::{Error, MergePart, append_documents};

/// Each bookmark as `title=page` (1-based), read from qpdf's JSON by a few lines of Python.
fn bookmarks(path: &std::path::Path) -> String {
    let script = r#"
import json, subprocess, sys
data = json.loads(subprocess.run(["qpdf", "--json", "--json-key=outlines", sys.argv[1]], capture_output=True, check=True).stdout)
def walk(items):
    for item in items:
        print("%s=%s" % (item["title"], item["destpageposfrom1"]))
        walk(item["kids"])
walk(data["outlines"])
"#;
    run(Command::new("python3").args(["-c", script, path.to_str().unwrap()]))
}

/// Each link annotation as `link from->to` (pages 1-based), read with pypdf.
fn links(path: &std::path::Path) -> String {
    let script = r#"
import sys
from pypdf import PdfReader
r = PdfReader(sys.argv[1])
for i, page in enumerate(r.pages):
    for a in page.get("/Annots") or []:
        a = a.get_object()
        if a.get("/Subtype") != "/Link":
            continue
        d = a.get("/Dest")
        if d is None:
            d = a["/A"]["/D"]
        d = d.get_object()
        print("link %d->%d" % (i + 1, r.get_page_number(d[0].get_object()) + 1))
"#;
    run(Command::new("python3").args(["-c", script, path.to_str().unwrap()]))
}

#[test]
fn merged_pages_follow_the_document_with_their_bookmarks_and_links() {
    let main = outlined_pdf("Agreement", 2);
    let annex = outlined_pdf("Annex", 3);
    let plain = simple_pdf();
    let parts =
        [MergePart { bytes: &annex, title: Some("Annex A") }, MergePart { bytes: &plain, title: Some("Plain") }];
    let signet_pdf::assemble::Merged { bytes: merged, parts: ranges } = append_documents(&main, &parts).unwrap();
    assert!(merged.starts_with(&main), "an incremental update");
    assert_eq!(ranges, vec![(3, 3), (6, 1)]);
    let dir = tmp();
    let path = write(&dir, "merged.pdf", &merged);
    assert_qpdf_clean(&path);
    let pages = run(Command::new("qpdf").args(["--show-npages", path.to_str().unwrap()]));
    assert_eq!(pages.trim(), "6");
    let text = pdftotext(&path);
    let order: Vec<usize> = ["Agreement page 1", "Annex page 1", "Annex page 3", "Page 1 of a test document"]
        .iter()
        .map(|t| text.find(t).unwrap_or_else(|| panic!("{t} missing:\n{text}")))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "pages in order: {order:?}");
    let marks = bookmarks(&path);
    for expected in ["Agreement section 2=2", "Annex A=3", "Annex=3", "Annex section 3=5", "Plain=6"] {
        assert!(marks.lines().any(|l| l == expected), "{expected} missing:\n{marks}");
    }
    // Each document's link on its first page leads to its own last page.
    let links = links(&path);
    assert!(links.contains("link 1->2") && links.contains("link 3->5"), "{links}");
    let signed = sign(&merged, &signet_pdf::SignOptions::default(), 1);
    let path = write(&dir, "signed.pdf", &signed);
    assert_pdfsig_valid(&path, 1);
    assert_pyhanko_valid(&path);
}

#[test]
fn signed_documents_and_too_many_parts_are_refused() {
    let main = simple_pdf();
    let signed = sign(&main, &signet_pdf::SignOptions::default(), 1);
    let part = [MergePart { bytes: &main, title: None }];
    assert!(matches!(append_documents(&signed, &part), Err(Error::Unsupported(_))));
    let part = [MergePart { bytes: &signed, title: None }];
    assert!(matches!(append_documents(&main, &part), Err(Error::Unsupported(_))));
    let many = vec![MergePart { bytes: &main, title: None }; signet_pdf::assemble::MAX_MERGED_DOCUMENTS + 1];
    assert!(matches!(append_documents(&main, &many), Err(Error::Unsupported(_))));
    assert!(append_documents(&main, &[MergePart { bytes: b"not a pdf", title: None }]).is_err());
}

#[test]
fn documents_in_object_streams_merge_and_sign() {
    let main = qpdf(&outlined_pdf("Agreement", 2), &["--object-streams=generate"]);
    let annex = qpdf(&outlined_pdf("Annex", 2), &["--object-streams=generate"]);
    let merged = append_documents(&main, &[MergePart { bytes: &annex, title: None }]).unwrap();
    assert_eq!(merged.parts, vec![(3, 2)]);
    let dir = tmp();
    let path = write(&dir, "merged.pdf", &merged.bytes);
    assert_qpdf_clean(&path);
    let marks = bookmarks(&path);
    assert!(marks.lines().any(|l| l == "Annex section 2=4"), "untitled parts join the top level:\n{marks}");
    let signed = sign(&merged.bytes, &signet_pdf::SignOptions::default(), 1);
    let path = write(&dir, "signed.pdf", &signed);
    assert_pdfsig_valid(&path, 1);
    assert_pyhanko_valid(&path);
}
