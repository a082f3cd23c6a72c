//! `filterCriteria`: `key=value` conditions separated by `;`, all of which a row must meet,
//! e.g. `status=completed;createdBy=user:3`. Each dataset has its own keys (docs/exports.md);
//! keys are matched without regard to case, each at most once, values compared exactly
//! (e-mail addresses without regard to case). The text is only ever split and checked here:
//! the values reach the database as bound parameters, never as SQL.

use signet_store::ExportFilter;

use super::Dataset;

/// The longest filter accepted, and the longest value.
const MAX_FILTER_CHARS: usize = 1000;
const MAX_VALUE_CHARS: usize = 200;

const WORKFLOW_STATES: &[&str] = &["in_progress", "completed", "declined", "expired", "inactive", "deleted"];
const SIGNATORY_STATES: &[&str] = &["pending", "notified", "viewed", "signed", "declined", "delegated"];
const USER_STATES: &[&str] = &["active", "inactive", "disabled", "pending", "rejected", "deleted"];
const ROLES: &[&str] = &["administrator", "sender", "signer", "auditor"];
const USER_TYPES: &[&str] = &["internal", "external"];

/// The keys each dataset's filter knows.
pub fn keys(dataset: Dataset) -> &'static [&'static str] {
    match dataset {
        Dataset::Workflows => &["status", "createdBy", "templateId", "referenceNo"],
        Dataset::Signatories => &["status", "email", "workflowId"],
        Dataset::AuditEvents => &["action", "actor", "target"],
        Dataset::Users => &["status", "role", "userType", "departmentId"],
    }
}

/// A filter with no conditions.
pub fn empty(dataset: Dataset) -> ExportFilter {
    match dataset {
        Dataset::Workflows => {
            ExportFilter::Workflows { status: None, created_by: None, template_id: None, reference_no: None }
        }
        Dataset::Signatories => ExportFilter::Signatories { status: None, email: None, workflow_id: None },
        Dataset::AuditEvents => ExportFilter::AuditEvents { action: None, actor: None, target: None },
        Dataset::Users => ExportFilter::Users { status: None, role: None, user_type: None, department_id: None },
    }
}

/// Why a filter cannot be read. Its text is the `filterCriteria` field's message, naming the
/// key at fault, so each variant reads as the sentence it always was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    #[error("must be at most {max} characters", max = MAX_FILTER_CHARS)]
    TooLong,
    #[error("{0:?} is not key=value (conditions are separated by ';')")]
    NotKeyValue(String),
    #[error("unknown key {key:?} for {dataset}; known keys: {known}")]
    UnknownKey { key: String, dataset: &'static str, known: String },
    #[error("{0} is given twice")]
    Twice(&'static str),
    #[error("{0} needs a value of 1 to {max} characters", max = MAX_VALUE_CHARS)]
    NoValue(&'static str),
    #[error("{key} must be one of {allowed}")]
    NotOneOf { key: String, allowed: String },
    #[error("{0} must be a positive whole number")]
    NotAnId(String),
}

/// Reads `text` as a filter of `dataset`; the message says what is wrong (naming the key).
pub fn parse_filter(dataset: Dataset, text: &str) -> Result<ExportFilter, FilterError> {
    if text.chars().count() > MAX_FILTER_CHARS {
        return Err(FilterError::TooLong);
    }
    let mut filter = empty(dataset);
    let mut seen: Vec<&'static str> = Vec::new();
    for condition in text.split(';').map(str::trim).filter(|c| !c.is_empty()) {
        let (key, value) = condition.split_once('=').ok_or_else(|| FilterError::NotKeyValue(condition.to_string()))?;
        let (key, value) = (key.trim(), value.trim());
        let known = keys(dataset).iter().find(|k| k.eq_ignore_ascii_case(key)).copied().ok_or_else(|| {
            FilterError::UnknownKey { key: key.to_string(), dataset: dataset.as_str(), known: keys(dataset).join(", ") }
        })?;
        if seen.contains(&known) {
            return Err(FilterError::Twice(known));
        }
        seen.push(known);
        if value.is_empty() || value.chars().count() > MAX_VALUE_CHARS {
            return Err(FilterError::NoValue(known));
        }
        set(&mut filter, known, value)?;
    }
    Ok(filter)
}

fn one_of(key: &str, value: &str, allowed: &[&str]) -> Result<Option<String>, FilterError> {
    let lower = value.to_ascii_lowercase();
    if allowed.contains(&lower.as_str()) {
        Ok(Some(lower))
    } else {
        Err(FilterError::NotOneOf { key: key.to_string(), allowed: allowed.join(", ") })
    }
}

fn id(key: &str, value: &str) -> Result<Option<i64>, FilterError> {
    match value.parse::<i64>() {
        Ok(n) if n >= 1 => Ok(Some(n)),
        _ => Err(FilterError::NotAnId(key.to_string())),
    }
}

fn set(filter: &mut ExportFilter, key: &str, value: &str) -> Result<(), FilterError> {
    let text = Some(value.to_string());
    match filter {
        ExportFilter::Workflows { status, created_by, template_id, reference_no } => match key {
            "status" => *status = one_of(key, value, WORKFLOW_STATES)?,
            "createdBy" => *created_by = text,
            "templateId" => *template_id = id(key, value)?,
            _ => *reference_no = text,
        },
        ExportFilter::Signatories { status, email, workflow_id } => match key {
            "status" => *status = one_of(key, value, SIGNATORY_STATES)?,
            "email" => *email = Some(value.to_lowercase()),
            _ => *workflow_id = id(key, value)?,
        },
        ExportFilter::AuditEvents { action, actor, target } => match key {
            "action" => *action = text,
            "actor" => *actor = text,
            _ => *target = text,
        },
        ExportFilter::Users { status, role, user_type, department_id } => match key {
            "status" => *status = one_of(key, value, USER_STATES)?,
            "role" => *role = one_of(key, value, ROLES)?,
            "userType" => *user_type = one_of(key, value, USER_TYPES)?,
            _ => *department_id = id(key, value)?,
        },
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_are_read_per_dataset() {
        let filter = parse_filter(Dataset::Workflows, " Status=COMPLETED ; createdby = user:3;").expect("filter");
        assert_eq!(
            filter,
            ExportFilter::Workflows {
                status: Some("completed".into()),
                created_by: Some("user:3".into()),
                template_id: None,
                reference_no: None
            }
        );
        let filter = parse_filter(Dataset::Signatories, "email=Ravi@Example.IN;workflowId=12").expect("filter");
        assert_eq!(
            filter,
            ExportFilter::Signatories { status: None, email: Some("ravi@example.in".into()), workflow_id: Some(12) }
        );
        assert_eq!(parse_filter(Dataset::Users, "").expect("empty"), empty(Dataset::Users));
    }

    #[test]
    fn bad_conditions_are_refused_with_the_key_named() {
        let refused = |dataset, text| parse_filter(dataset, text).expect_err("refused").to_string();
        assert!(refused(Dataset::Users, "password=x").contains("unknown key \"password\""));
        assert!(refused(Dataset::Workflows, "action=x").contains("known keys: status, createdBy"));
        assert!(refused(Dataset::Workflows, "status=done").contains("status must be one of"));
        assert!(refused(Dataset::Signatories, "workflowId=1 OR 1=1").contains("workflowId must be a positive"));
        assert!(refused(Dataset::AuditEvents, "actor=a;actor=b").contains("given twice"));
        assert!(refused(Dataset::AuditEvents, "actor").contains("not key=value"));
        assert!(refused(Dataset::AuditEvents, "actor=").contains("needs a value"));
    }

    /// Quotes and SQL in a value are just a value (bound as a parameter).
    #[test]
    fn sql_in_a_value_is_only_text() {
        let filter = parse_filter(Dataset::AuditEvents, "target=x' OR '1'='1").expect("filter");
        assert_eq!(
            filter,
            ExportFilter::AuditEvents { action: None, actor: None, target: Some("x' OR '1'='1".into()) }
        );
    }
}
