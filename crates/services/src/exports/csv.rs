//! CSV as RFC 4180 writes it (CRLF line ends, fields with a comma, quote or line break quoted,
//! quotes doubled), shared by exports and the bulk job reports. A cell a spreadsheet would read
//! as a formula (it starts with `= + - @`) is quoted with an apostrophe, so that an exported
//! value can never run as a formula when the file is opened (CSV injection).

/// One cell, quoted where needed.
pub fn cell(value: &str) -> String {
    let value = if value.starts_with(['=', '+', '-', '@']) { format!("'{value}") } else { value.to_string() };
    if value.contains([',', '"', '\r', '\n']) { format!("\"{}\"", value.replace('"', "\"\"")) } else { value }
}

/// One line: the cells joined by commas, ended by CRLF.
pub fn line<S: AsRef<str>>(cells: &[S]) -> String {
    let quoted: Vec<String> = cells.iter().map(|c| cell(c.as_ref())).collect();
    format!("{}\r\n", quoted.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_quoted_and_never_formulas() {
        assert_eq!(cell("plain"), "plain");
        assert_eq!(cell("a,b"), "\"a,b\"");
        assert_eq!(cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(cell("-5"), "'-5");
        assert_eq!(cell("two\nlines"), "\"two\nlines\"");
        assert_eq!(line(&["a", "b,c", ""]), "a,\"b,c\",\r\n");
    }
}
