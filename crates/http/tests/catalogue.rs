//! docs/api.md is the integrators' list of error codes: every code the API can answer with is
//! there, with the status it comes with, and the list names no code that does not exist.

use std::collections::BTreeMap;
use std::path::Path;

use signet_http::error::Code;

/// The rows of the error table: `| `code` | status | meaning |`.
fn documented_codes() -> BTreeMap<String, u16> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/api.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut codes = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (Some(code), Some(status)) = (cells.get(1), cells.get(2)) else { continue };
        let code = code.trim_matches('`');
        if let Ok(status) = status.parse::<u16>()
            && cells[1].starts_with('`')
        {
            codes.insert(code.to_string(), status);
        }
    }
    codes
}

#[test]
fn docs_list_every_code_with_its_status() {
    let documented = documented_codes();
    for code in Code::all() {
        let status = documented.get(code.as_str()).copied();
        assert_eq!(status, Some(code.status().as_u16()), "docs/api.md on `{}`", code.as_str());
    }
}

#[test]
fn docs_list_no_code_that_does_not_exist() {
    let known: Vec<&str> = Code::all().map(Code::as_str).collect();
    for code in documented_codes().keys() {
        assert!(known.contains(&code.as_str()), "docs/api.md lists `{code}`, which no operation answers with");
    }
}
