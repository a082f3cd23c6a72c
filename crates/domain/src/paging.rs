//! Paging of list operations: `pageNumber` from 1, `pageSize` within bounds.

use crate::{Error, FieldErrors};

pub const DEFAULT_PAGE_SIZE: i64 = 20;
pub const MAX_PAGE_SIZE: i64 = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    pub number: i64,
    pub size: i64,
}

impl Page {
    /// Validates client-supplied paging; absent values take the defaults.
    pub fn parse(number: Option<i64>, size: Option<i64>) -> Result<Page, Error> {
        let mut errors = FieldErrors::new();
        let number = number.unwrap_or(1);
        let size = size.unwrap_or(DEFAULT_PAGE_SIZE);
        if !(1..=i64::from(i32::MAX)).contains(&number) {
            errors.insert("pageNumber".into(), vec!["must be at least 1".into()]);
        }
        if !(1..=MAX_PAGE_SIZE).contains(&size) {
            errors.insert("pageSize".into(), vec![format!("must be between 1 and {MAX_PAGE_SIZE}")]);
        }
        if errors.is_empty() { Ok(Page { number, size }) } else { Err(Error::Validation(errors)) }
    }

    pub fn offset(&self) -> i64 {
        (self.number - 1).saturating_mul(self.size)
    }
}

/// A `LIKE` pattern that matches `text` anywhere, case-insensitively (the caller lowers the
/// column); `\` escapes the wildcards so that a search for `50%` means the literal text.
pub fn contains_pattern(text: &str) -> String {
    let mut pattern = String::with_capacity(text.len() + 2);
    pattern.push('%');
    for c in text.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_bounds() {
        assert_eq!(Page::parse(None, None).ok(), Some(Page { number: 1, size: 20 }));
        assert!(Page::parse(Some(0), None).is_err());
        assert!(Page::parse(None, Some(101)).is_err());
        assert!(Page::parse(None, Some(0)).is_err());
        assert_eq!(Page { number: 3, size: 10 }.offset(), 20);
    }

    #[test]
    fn like_wildcards_are_escaped() {
        assert_eq!(contains_pattern("50%_A\\"), "%50\\%\\_a\\\\%");
    }
}
