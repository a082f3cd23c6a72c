//! A workflow's options (mail, redirect, the signing profile, the sender's message, a bulk
//! send's marks, ...), kept with the workflow as one versioned JSON value.
//!
//! The stored keys are the API's names (`sendMail`, `redirectURL`, `hsmCertificateId`): rows
//! written before this type existed hold them, and a bulk send finds its workflows by them in
//! SQL. Reading is tolerant field by field: a key of the wrong type is read as absent, and
//! every other key keeps its value, so one bad key never costs the rest.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::SigningProfileId;

/// The version this code writes; rows without one are version 1 (the untyped form, which had
/// the same keys).
pub const SETTINGS_VERSION: u32 = 1;

/// A workflow's options, as stored with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WorkflowSettings {
    #[serde(default = "first_version", deserialize_with = "version_or_first")]
    pub version: u32,
    /// Signers get their invitations and reminders, and everyone the completion, by e-mail.
    #[serde(default, deserialize_with = "tolerant")]
    pub send_mail: bool,
    /// The sender is told of every signature.
    #[serde(default, deserialize_with = "tolerant")]
    pub notify_customer: bool,
    /// Where a signer's browser goes after signing (checked when the workflow started).
    #[serde(rename = "redirectURL", default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub redirect_url: Option<String>,
    /// The organisation's signing profile the workflow was sent with, if any (stored as
    /// `hsmCertificateId`, left out when there is none; a stored 0 means none).
    #[serde(default, deserialize_with = "profile_or_none", skip_serializing_if = "Option::is_none")]
    pub hsm_certificate_id: Option<SigningProfileId>,
    /// The sender's message to the signers (trimmed, never blank).
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The bulk send job that started the workflow, and its item: a retried item finds its work.
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub bulk_job_id: Option<String>,
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub bulk_item: Option<i64>,
    /// Kept as sent with the API's requests, for the record; nothing reads them back.
    #[serde(flatten)]
    pub as_sent: AsSent,
}

/// Options the API's requests carry that are kept with the workflow as sent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AsSent {
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub check_email_notify: Option<bool>,
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub enable_auto_close_popup: Option<bool>,
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub completion_mail: Option<bool>,
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub location: Option<Value>,
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub third_party_params: Option<String>,
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub e_sign_params: Option<Value>,
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub geo_tagging: Option<Value>,
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub initials: Option<Value>,
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub stamp_details: Option<Value>,
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub request_from: Option<String>,
    #[serde(rename = "clientID", default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub client_name: Option<String>,
    #[serde(default, deserialize_with = "tolerant", skip_serializing_if = "Option::is_none")]
    pub reminder: Option<i64>,
}

impl Default for WorkflowSettings {
    fn default() -> Self {
        WorkflowSettings {
            version: SETTINGS_VERSION,
            send_mail: false,
            notify_customer: false,
            redirect_url: None,
            hsm_certificate_id: None,
            message: None,
            bulk_job_id: None,
            bulk_item: None,
            as_sent: AsSent::default(),
        }
    }
}

impl WorkflowSettings {
    /// The settings as stored. Text that is not a JSON object at all (never written by Signet)
    /// reads as no options rather than making the workflow unreadable.
    pub fn from_stored(text: &str) -> WorkflowSettings {
        serde_json::from_str(text).unwrap_or_default()
    }

    /// The redirect after signing, when one was given.
    pub fn redirect_url(&self) -> Option<&str> {
        self.redirect_url.as_deref().filter(|url| !url.is_empty())
    }
}

/// The store's row mapping reads the column through this (see [`WorkflowSettings::from_stored`]).
impl From<String> for WorkflowSettings {
    fn from(text: String) -> Self {
        WorkflowSettings::from_stored(&text)
    }
}

fn first_version() -> u32 {
    1
}

/// A profile's id as stored: 0 (the API's "none"), a wrong type or no key at all is none.
fn profile_or_none<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<SigningProfileId>, D::Error> {
    let id: i64 = tolerant(deserializer)?;
    Ok((id != 0).then_some(SigningProfileId::from(id)))
}

/// A value of the wrong type reads as the field's default, so that it costs only itself.
fn tolerant<'de, D: Deserializer<'de>, T: DeserializeOwned + Default>(deserializer: D) -> Result<T, D::Error> {
    let value = Value::deserialize(deserializer)?;
    Ok(T::deserialize(value).unwrap_or_default())
}

fn version_or_first<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    let value = Value::deserialize(deserializer)?;
    Ok(u32::deserialize(value).unwrap_or(SETTINGS_VERSION))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_untyped_form_reads_as_version_1_with_every_key() {
        let old = json!({
            "sendMail": true, "notifyCustomer": false, "checkEmailNotify": true, "enableAutoClosePopup": false,
            "redirectURL": "https://example.test/done", "reason": "Approval", "location": null,
            "thirdPartyParams": null, "eSignParams": {"a": 1}, "geoTagging": null, "initials": null,
            "stampDetails": null, "hsmCertificateId": 7, "message": "Please sign",
        });
        let settings = WorkflowSettings::from_stored(&old.to_string());
        assert_eq!(settings.version, 1);
        assert!(settings.send_mail && !settings.notify_customer);
        assert_eq!(settings.as_sent.check_email_notify, Some(true));
        assert_eq!(settings.redirect_url(), Some("https://example.test/done"));
        assert_eq!(settings.hsm_certificate_id, Some(SigningProfileId::from(7)));
        assert_eq!(settings.message.as_deref(), Some("Please sign"));
        assert_eq!(settings.as_sent.reason.as_deref(), Some("Approval"));
        assert_eq!(settings.as_sent.e_sign_params, Some(json!({"a": 1})));
    }

    #[test]
    fn one_wrong_typed_key_costs_only_itself() {
        let stored = json!({"sendMail": "yes", "hsmCertificateId": 9, "message": "Hi", "bulkItem": 3, "version": "x"});
        let settings = WorkflowSettings::from_stored(&stored.to_string());
        assert!(!settings.send_mail);
        assert_eq!(
            (settings.hsm_certificate_id, settings.message.as_deref()),
            (Some(SigningProfileId::from(9)), Some("Hi"))
        );
        assert_eq!((settings.bulk_item, settings.version), (Some(3), 1));
    }

    #[test]
    fn written_keys_are_the_api_names_and_read_back_the_same() {
        let settings = WorkflowSettings {
            send_mail: true,
            redirect_url: Some("https://example.test/".into()),
            hsm_certificate_id: Some(SigningProfileId::from(4)),
            bulk_job_id: Some("BJ1".into()),
            bulk_item: Some(12),
            as_sent: AsSent { client_id: Some("c".into()), ..AsSent::default() },
            ..WorkflowSettings::default()
        };
        let text = serde_json::to_string(&settings).expect("json");
        for key in [
            r#""version":1"#,
            r#""sendMail":true"#,
            r#""redirectURL":"#,
            r#""hsmCertificateId":4"#,
            r#""clientID":"c""#,
        ] {
            assert!(text.contains(key), "{key} in {text}");
        }
        // A bulk send finds its workflow by these marks in SQL (`Store::workflow_of_bulk_item`).
        assert!(text.contains(r#""bulkJobId":"BJ1""#) && text.contains(r#""bulkItem":12,"#), "{text}");
        assert_eq!(WorkflowSettings::from_stored(&text), settings);
    }

    #[test]
    fn a_stored_zero_profile_is_none_and_none_is_not_written() {
        let settings = WorkflowSettings::from_stored(&json!({"hsmCertificateId": 0}).to_string());
        assert_eq!(settings.hsm_certificate_id, None);
        let text = serde_json::to_string(&WorkflowSettings::default()).expect("json");
        assert!(!text.contains("hsmCertificateId"), "{text}");
    }

    #[test]
    fn text_that_is_no_object_reads_as_no_options() {
        assert_eq!(WorkflowSettings::from_stored("not json"), WorkflowSettings::default());
        assert_eq!(WorkflowSettings::from_stored("[1]"), WorkflowSettings::default());
    }
}
