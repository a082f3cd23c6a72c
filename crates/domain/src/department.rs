//! Departments: the rules for names and the shapes the store returns.

use crate::{Error, FieldErrors};

pub const MAX_NAME_CHARS: usize = 100;

/// A department name: trimmed, 1 to 100 characters, no control characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DepartmentName(String);

impl DepartmentName {
    pub fn parse(field: &str, raw: Option<&str>) -> Result<Self, Error> {
        let problem = match raw.map(str::trim) {
            None => Some("is required".to_string()),
            Some("") => Some("must not be empty".to_string()),
            Some(name) if name.chars().count() > MAX_NAME_CHARS => {
                Some(format!("must be at most {MAX_NAME_CHARS} characters"))
            }
            Some(name) if name.chars().any(char::is_control) => Some("must not contain control characters".to_string()),
            Some(name) => return Ok(DepartmentName(name.to_string())),
        };
        let mut errors = FieldErrors::new();
        errors.insert(field.to_string(), problem.into_iter().collect());
        Err(Error::Validation(errors))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Department {
    pub id: crate::DepartmentId,
    pub name: String,
    pub created_at: crate::Millis,
    pub updated_at: crate::Millis,
}

/// Validates a list of ids for a bulk operation: at least one, each positive; duplicates are
/// folded so that the operation is idempotent per id.
pub fn parse_bulk_ids(field: &str, ids: &[i64]) -> Result<Vec<i64>, Error> {
    if ids.is_empty() {
        return Err(Error::field(field, "must contain at least one id"));
    }
    if ids.iter().any(|id| *id < 1) {
        return Err(Error::field(field, "ids must be positive"));
    }
    let mut unique = ids.to_vec();
    unique.sort_unstable();
    unique.dedup();
    Ok(unique)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_bounded() {
        let ok = DepartmentName::parse("departmentName", Some("  Legal ")).map(|n| n.0);
        assert_eq!(ok.ok().as_deref(), Some("Legal"));
        assert!(DepartmentName::parse("departmentName", None).is_err());
        assert!(DepartmentName::parse("departmentName", Some("   ")).is_err());
        assert!(DepartmentName::parse("departmentName", Some("a\u{7}b")).is_err());
        let long = "é".repeat(MAX_NAME_CHARS + 1);
        assert!(DepartmentName::parse("departmentName", Some(&long)).is_err());
        let max = "é".repeat(MAX_NAME_CHARS);
        assert!(DepartmentName::parse("departmentName", Some(&max)).is_ok());
    }

    #[test]
    fn bulk_ids_need_one_positive_id() {
        assert!(parse_bulk_ids("departmentIds", &[]).is_err());
        assert!(parse_bulk_ids("departmentIds", &[0]).is_err());
        assert_eq!(parse_bulk_ids("departmentIds", &[3, 1, 3]).ok(), Some(vec![1, 3]));
    }
}
