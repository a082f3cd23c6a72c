//! E-mails about a workflow: the invitation (and reminders) with the signer's personal link,
//! and the outcome (completed, declined) to everyone involved. Sent only when the workflow
//! asked for it (`sendMail`; `notifyCustomer` adds the completion notice); each is a queued
//! job with a dedupe key, so a retried event never mails twice.

use signet_domain::workflow::SignatoryState;
use signet_store::{SignatoryRow, WorkflowRow};
use time::OffsetDateTime;
use time::macros::format_description;

use super::events::WorkflowEvent;
use super::links::signer_url;
use crate::Services;
use crate::mail::{Mail, MailAttachment, enqueue};

fn setting(workflow: &WorkflowRow, key: &str) -> bool {
    let settings: serde_json::Value = serde_json::from_str(&workflow.settings).unwrap_or_default();
    settings.get(key).and_then(serde_json::Value::as_bool).unwrap_or(false)
}

/// Whether the workflow e-mails its signers their invitations and reminders (`sendMail`).
pub fn sends_mail(workflow: &WorkflowRow) -> bool {
    setting(workflow, "sendMail")
}

fn escape(text: &str) -> String {
    signet_gateway::html_escape(text)
}

fn date(millis: i64) -> String {
    OffsetDateTime::from_unix_timestamp(millis / 1000)
        .ok()
        .and_then(|t| t.format(format_description!("[day] [month repr:short] [year], [hour]:[minute] UTC")).ok())
        .unwrap_or_default()
}

async fn requester(state: &Services, workflow: &WorkflowRow) -> String {
    state.store.tenant_name(workflow.tenant_id).await.ok().flatten().unwrap_or_else(|| "Signet".into())
}

async fn queue(state: &Services, mail: Mail, key: String) -> Result<(), String> {
    match enqueue(&state.store, &mail, Some(key)).await {
        Ok(()) => Ok(()),
        // An address the mail system cannot use is the sender's data, not a reason to retry.
        Err(error) if error.code() == signet_domain::ErrorCode::ValidationFailed => {
            tracing::warn!(to = %mail.to_email, %error, "e-mail not queued");
            Ok(())
        }
        Err(error) => Err(error.to_string()),
    }
}

/// The signer's invitation (or a reminder) with their link.
pub async fn invitation(state: &Services, event: &WorkflowEvent, reminder: bool) -> Result<(), String> {
    let Some(id) = event.signatory_id() else { return Ok(()) };
    let Some((signatory, workflow)) = state.store.signatory(id).await.map_err(|e| e.to_string())? else {
        return Ok(());
    };
    if !setting(&workflow, "sendMail") || !signatory.state().is_turn() {
        return Ok(());
    }
    let who = requester(state, &workflow).await;
    let url = signer_url(state, &signatory);
    let subject = format!("{}Please sign: {}", if reminder { "Reminder: " } else { "" }, workflow.name);
    let expires = date(signatory.link_expires_at);
    let message = super::initiate::message_of(&workflow);
    let text = format!(
        "Hello {name},\n\n{who} asks you to sign \"{doc}\".\n{said}\nOpen this link to read and sign:\n{url}\n\n\
         The link is personal: do not forward it. It works until {expires}.\n",
        name = signatory.name,
        doc = workflow.name,
        said = message.as_deref().map(|m| format!("\nTheir message:\n{m}\n")).unwrap_or_default(),
    );
    let html = format!(
        "<p>Hello {name},</p><p>{who} asks you to sign <strong>{doc}</strong>.</p>{said}\
         <p><a href=\"{url}\">Read and sign</a></p><p>The link is personal: do not forward it. It works until {expires}.</p>",
        name = escape(&signatory.name),
        who = escape(&who),
        doc = escape(&workflow.name),
        url = escape(&url),
        said = message
            .as_deref()
            .map(|m| format!(
                "<p>Their message:</p><blockquote style=\"white-space:pre-wrap\">{}</blockquote>",
                escape(m)
            ))
            .unwrap_or_default(),
    );
    let mail = Mail {
        to_email: signatory.email.clone(),
        to_name: signatory.name.clone(),
        subject,
        text,
        html: Some(html),
        attachments: Vec::new(),
    };
    queue(state, mail, format!("mail:{}:{}:{}", workflow.id, event.seq, signatory.id)).await
}

/// Everyone who took part, for outcome notices (delegated places excluded).
fn participants(signatories: &[SignatoryRow]) -> Vec<&SignatoryRow> {
    signatories.iter().filter(|s| s.state() != SignatoryState::Delegated).collect()
}

/// Completion and decline notices.
pub async fn outcome(state: &Services, event: &WorkflowEvent) -> Result<(), String> {
    let (completed, declined) = (event.kind == "workflow.completed", event.kind == "workflow.declined");
    if !completed && !declined {
        return Ok(());
    }
    let Some(workflow) = state.store.workflow(event.tenant_id, event.workflow_id).await.map_err(|e| e.to_string())?
    else {
        return Ok(());
    };
    if completed {
        return completion(state, event, &workflow).await;
    }
    if !setting(&workflow, "sendMail") {
        return Ok(());
    }
    let signatories = state.store.signatories(&workflow).await.map_err(|e| e.to_string())?;
    let reason = workflow.state_reason.clone().unwrap_or_default();
    for s in participants(&signatories) {
        let line = format!("\"{}\" was declined and will not be signed. Reason: {reason}", workflow.name);
        let mail = Mail {
            to_email: s.email.clone(),
            to_name: s.name.clone(),
            subject: format!("Declined: {}", workflow.name),
            text: format!("Hello {},\n\n{line}\n", s.name),
            html: Some(format!("<p>Hello {},</p><p>{}</p>", escape(&s.name), escape(&line))),
            attachments: Vec::new(),
        };
        queue(state, mail, format!("mail:{}:{}:{}", workflow.id, event.seq, s.id)).await?;
    }
    Ok(())
}

/// Everyone's copy: each participant (when the workflow mails its signers) and the sender
/// (a console user) get the signed documents and the completion certificate, attached when
/// they fit `mail_attachment_max_bytes`, and the participants a link to download them.
async fn completion(state: &Services, event: &WorkflowEvent, workflow: &WorkflowRow) -> Result<(), String> {
    let files = super::copies::files_of(state, workflow).await.map_err(|e| e.to_string())?;
    let attachments = attachments_within(&files, state.config.mail_attachment_max_bytes);
    let until = date(super::copies::copy_until(state, workflow));
    let attached = if attachments.is_empty() {
        String::new()
    } else {
        "The signed documents and the completion certificate are attached.".to_string()
    };
    if setting(workflow, "sendMail") || setting(workflow, "notifyCustomer") {
        let signatories = state.store.signatories(workflow).await.map_err(|e| e.to_string())?;
        for s in participants(&signatories) {
            let url = format!("{}/copy", signer_url(state, s));
            let line = format!("Everyone has signed \"{}\". {attached}", workflow.name);
            let text = format!(
                "Hello {},\n\n{line}\nDownload your copy (the signed documents and the completion certificate) until {until}:\n{url}\n",
                s.name
            );
            let html = format!(
                "<p>Hello {},</p><p>{}</p><p><a href=\"{}\">Download your copy</a> (the signed documents and the completion certificate), until {until}.</p>",
                escape(&s.name),
                escape(&line),
                escape(&url)
            );
            let mail = Mail {
                to_email: s.email.clone(),
                to_name: s.name.clone(),
                subject: format!("Signed by everyone: {}", workflow.name),
                text,
                html: Some(html),
                attachments: attachments.clone(),
            };
            queue(state, mail, format!("mail:{}:{}:{}", workflow.id, event.seq, s.id)).await?;
        }
    }
    let Some((email, name)) = sender_of(state, workflow).await else { return Ok(()) };
    let url = format!("{}/app/workflows/{}", state.config.public_base(), workflow.id);
    let line = format!("Everyone has signed \"{}\". {attached}", workflow.name);
    let mail = Mail {
        to_email: email,
        to_name: name.clone(),
        subject: format!("Completed: {}", workflow.name),
        text: format!("Hello {name},\n\n{line}\nThe workflow, its documents and its certificate: {url}\n"),
        html: Some(format!(
            "<p>Hello {},</p><p>{}</p><p><a href=\"{}\">Open the workflow</a></p>",
            escape(&name),
            escape(&line),
            escape(&url)
        )),
        attachments,
    };
    queue(state, mail, format!("mail:{}:{}:sender", workflow.id, event.seq)).await
}

/// The files as e-mail attachments, when together they fit `limit` bytes; else none.
fn attachments_within(files: &[super::copies::CopyFile], limit: usize) -> Vec<MailAttachment> {
    let total: u64 = files.iter().map(|f| f.size).sum();
    if files.is_empty() || total > limit as u64 {
        return Vec::new();
    }
    files
        .iter()
        .map(|f| MailAttachment {
            file_name: f.name.clone(),
            content_type: "application/pdf".into(),
            blob: f.blob.clone(),
        })
        .collect()
}

/// The console user who sent the workflow, with an address to write to (a workflow an API
/// token started has none).
async fn sender_of(state: &Services, workflow: &WorkflowRow) -> Option<(String, String)> {
    let id = workflow.created_by.strip_prefix("user:")?.parse::<i64>().ok()?;
    let user = state.store.user(workflow.tenant_id, id).await.ok()?;
    let email = user.email.filter(|e| !e.trim().is_empty())?;
    Some((email, user.name.unwrap_or_default()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workflows::copies::CopyFile;

    #[test]
    fn files_are_attached_only_when_together_they_fit() {
        let file = |size| CopyFile { name: "a.pdf".into(), blob: "tenant/1/a.pdf".into(), size };
        assert_eq!(attachments_within(&[file(400), file(600)], 1000).len(), 2);
        assert!(attachments_within(&[file(400), file(601)], 1000).is_empty());
        assert!(attachments_within(&[], 1000).is_empty());
    }
}
