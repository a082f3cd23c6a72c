//! E-mail: messages are queued as `mail.send` jobs (so they survive restarts and go out once
//! across instances) and sent through SMTP with lettre. Without `smtp_url` nothing is sent.

use bytes::Bytes;
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::AsyncSmtpTransport;
use lettre::{AsyncTransport, Message, Tokio1Executor};
use serde::{Deserialize, Serialize};
use signet_blob::{BlobKey, BlobStore};
use signet_domain::job::JobKind;
use signet_domain::{Error, now_millis};
use signet_store::{NewJob, Store};

/// One message to one recipient.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Mail {
    pub to_email: String,
    pub to_name: String,
    pub subject: String,
    pub text: String,
    pub html: Option<String>,
    /// Files to attach, read from the blob store when the message is sent (a queued job
    /// holds their keys, not their bytes).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<MailAttachment>,
}

/// A file attached to an e-mail: its name, type and where it is kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MailAttachment {
    pub file_name: String,
    pub content_type: String,
    pub blob: String,
}

/// Why a message was not sent: worth retrying, or not.
#[derive(Debug)]
pub enum SendFailure {
    Transient(String),
    Permanent(String),
}

pub struct Mailer {
    transport: Option<AsyncSmtpTransport<Tokio1Executor>>,
    from: Mailbox,
}

impl Mailer {
    pub fn from_config(smtp_url: Option<&str>, from: &str) -> anyhow::Result<Mailer> {
        let from: Mailbox = from.parse().map_err(|e| anyhow::anyhow!("mail_from {from:?}: {e}"))?;
        let transport = match smtp_url.filter(|u| !u.is_empty()) {
            Some(url) => Some(
                AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
                    .map_err(|e| anyhow::anyhow!("smtp_url: {e}"))?
                    .timeout(Some(std::time::Duration::from_secs(20)))
                    .build(),
            ),
            None => None,
        };
        Ok(Mailer { transport, from })
    }

    pub fn is_configured(&self) -> bool {
        self.transport.is_some()
    }

    /// The message: its text (and HTML) and the `files` attached (name, type, bytes).
    fn message(&self, mail: &Mail, files: &[(String, String, Bytes)]) -> Result<Message, SendFailure> {
        let to = mailbox(&mail.to_name, &mail.to_email).map_err(|e| SendFailure::Permanent(e.to_string()))?;
        let builder = Message::builder().from(self.from.clone()).to(to).subject(mail.subject.clone());
        let body = match &mail.html {
            Some(html) => MultiPart::alternative_plain_html(mail.text.clone(), html.clone()),
            None => MultiPart::mixed()
                .singlepart(SinglePart::builder().header(ContentType::TEXT_PLAIN).body(mail.text.clone())),
        };
        let built = if files.is_empty() {
            builder.multipart(body)
        } else {
            let mut mixed = MultiPart::mixed().multipart(body);
            for (name, content_type, bytes) in files {
                let content_type = ContentType::parse(content_type)
                    .or_else(|_| ContentType::parse("application/octet-stream"))
                    .map_err(|e| SendFailure::Permanent(e.to_string()))?;
                mixed = mixed.singlepart(Attachment::new(name.clone()).body(bytes.to_vec(), content_type));
            }
            builder.multipart(mixed)
        };
        built.map_err(|e| SendFailure::Permanent(e.to_string()))
    }

    /// Sends now, with `files` attached. A refusal by the server for this message (5xx) is
    /// permanent; connection problems and 4xx answers are worth a retry.
    pub async fn send(&self, mail: &Mail, files: &[(String, String, Bytes)]) -> Result<(), SendFailure> {
        let message = self.message(mail, files)?;
        let Some(transport) = &self.transport else {
            tracing::info!(to = %mail.to_email, subject = %mail.subject, "no smtp_url configured; e-mail not sent");
            return Ok(());
        };
        match transport.send(message).await {
            Ok(_) => Ok(()),
            Err(error) if error.is_permanent() => Err(SendFailure::Permanent(error.to_string())),
            Err(error) => Err(SendFailure::Transient(error.to_string())),
        }
    }
}

fn mailbox(name: &str, email: &str) -> Result<Mailbox, lettre::address::AddressError> {
    let address = email.trim().parse()?;
    let name = name.trim();
    Ok(Mailbox::new((!name.is_empty()).then(|| name.to_string()), address))
}

/// Queues a message; `dedupe_key` keeps a retried event from mailing twice.
pub async fn enqueue(store: &Store, mail: &Mail, dedupe_key: Option<String>) -> Result<(), Error> {
    mailbox(&mail.to_name, &mail.to_email)
        .map_err(|e| Error::field("email", format!("not a deliverable address: {e}")))?;
    let payload = serde_json::to_value(mail)?;
    store
        .enqueue_job(&NewJob {
            tenant: None,
            kind: JobKind::Mail,
            payload,
            dedupe_key,
            run_at: now_millis(),
            max_attempts: 8,
        })
        .await?;
    Ok(())
}

/// The files of a message's attachments, read from the blob store; one that is gone (erased
/// since the message was queued) is left out, and the message still goes.
async fn attached_files(blob: &BlobStore, mail: &Mail) -> Result<Vec<(String, String, Bytes)>, MailJobError> {
    let mut files = Vec::new();
    for attachment in &mail.attachments {
        let key = BlobKey::parse(&attachment.blob).map_err(MailJobError::AttachmentKey)?;
        match blob.get(&key).await {
            Ok(bytes) => files.push((attachment.file_name.clone(), attachment.content_type.clone(), bytes)),
            Err(error) if error.is_not_found() => {
                tracing::warn!(to = %mail.to_email, file = %attachment.file_name, "attachment gone; sent without it")
            }
            Err(error) => return Err(MailJobError::Blob(error)),
        }
    }
    Ok(files)
}

/// Why a `mail.send` attempt failed; its text is the queue job's stored error, as before.
#[derive(Debug, thiserror::Error)]
pub enum MailJobError {
    /// The job's payload is not a message (Signet wrote it: a bug, kept with its cause).
    #[error("bad mail job: {0}")]
    Payload(#[source] serde_json::Error),
    #[error("bad attachment key: {0}")]
    AttachmentKey(#[source] signet_blob::Error),
    /// An attachment could not be read (other than gone: that one is left out).
    #[error(transparent)]
    Blob(signet_blob::Error),
    /// The mail server failed in a way worth another attempt (its words).
    #[error("{0}")]
    Transient(String),
}

/// The `mail.send` job.
pub async fn run_job(mailer: &Mailer, blob: &BlobStore, payload: &str) -> Result<(), MailJobError> {
    let mail: Mail = serde_json::from_str(payload).map_err(MailJobError::Payload)?;
    let files = attached_files(blob, &mail).await?;
    match mailer.send(&mail, &files).await {
        Ok(()) => Ok(()),
        Err(SendFailure::Transient(cause)) => Err(MailJobError::Transient(cause)),
        Err(SendFailure::Permanent(cause)) => {
            tracing::warn!(to = %mail.to_email, %cause, "e-mail refused for good; not retried");
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_carry_names_and_both_parts() {
        let mailer = Mailer::from_config(None, "Signet <no-reply@signet.test>").expect("mailer");
        let mail = Mail {
            to_email: "asha@example.test".into(),
            to_name: "Asha Vérma".into(),
            subject: "Please sign: Lease".into(),
            text: "Open the link".into(),
            html: Some("<p>Open the link</p>".into()),
            attachments: Vec::new(),
        };
        let formatted =
            String::from_utf8(mailer.message(&mail, &[]).map_err(|_| "message").expect("message").formatted())
                .expect("utf8");
        assert!(formatted.contains("multipart/alternative"));
        assert!(formatted.contains("asha@example.test"));
        let file = ("Lease.pdf".to_string(), "application/pdf".to_string(), Bytes::from_static(b"%PDF-1.7"));
        let with_file =
            String::from_utf8(mailer.message(&mail, &[file]).map_err(|_| "message").expect("message").formatted())
                .expect("utf8");
        assert!(with_file.contains("multipart/mixed") && with_file.contains("filename=\"Lease.pdf\""), "{with_file}");
        let bad = Mail { to_email: "not an address".into(), ..mail };
        assert!(matches!(mailer.message(&bad, &[]), Err(SendFailure::Permanent(_))));
        assert!(Mailer::from_config(Some("ftp://nope"), "x@y.z").is_err());
    }
}
