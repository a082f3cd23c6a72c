//! Reading the pages' form posts (`application/x-www-form-urlencoded`), bounded: a post is a
//! handful of fields, each with a length limit of its own.

/// Most fields read from one post (the pages send at most four).
const MAX_FIELDS: usize = 16;

/// Why a post cannot be read, in words for the error page.
#[derive(Debug, PartialEq, Eq)]
pub struct FormError(pub String);

pub struct Form {
    fields: Vec<(String, String)>,
}

impl Form {
    pub fn parse(body: &[u8]) -> Result<Form, FormError> {
        let fields: Vec<(String, String)> =
            serde_urlencoded::from_bytes(body).map_err(|_| FormError("the form data cannot be read".into()))?;
        if fields.len() > MAX_FIELDS {
            return Err(FormError(format!("the form has more than {MAX_FIELDS} fields")));
        }
        Ok(Form { fields })
    }

    /// The first value of `name`, if present.
    pub fn optional(&self, name: &str) -> Option<&str> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The value of `name`: present, not blank, at most `max_chars` characters.
    pub fn required(&self, name: &str, max_chars: usize) -> Result<&str, FormError> {
        let value = self.optional(name).filter(|v| !v.trim().is_empty());
        let value = value.ok_or_else(|| FormError(format!("the form has no {name}")))?;
        if value.chars().count() > max_chars {
            return Err(FormError(format!("{name} is longer than {max_chars} characters")));
        }
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_bounded_and_named_in_errors() {
        let form = Form::parse(b"espTxn=abc&otp=123456&otp=999999&consent=Y").expect("form");
        assert_eq!(form.required("otp", 6), Ok("123456"));
        assert_eq!(form.optional("consent"), Some("Y"));
        assert_eq!(form.required("aadhaar", 16), Err(FormError("the form has no aadhaar".into())));
        assert!(form.required("espTxn", 2).is_err());
        assert!(Form::parse("a=1&".repeat(17).as_bytes()).is_err());
    }
}
