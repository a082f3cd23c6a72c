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
use crate::mail::{Mail, enqueue};

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
    let mail =
        Mail { to_email: signatory.email.clone(), to_name: signatory.name.clone(), subject, text, html: Some(html) };
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
    let wanted = setting(&workflow, "sendMail") || (completed && setting(&workflow, "notifyCustomer"));
    if !wanted {
        return Ok(());
    }
    let who = requester(state, &workflow).await;
    let signatories = state.store.signatories(&workflow).await.map_err(|e| e.to_string())?;
    for s in participants(&signatories) {
        let (subject, line) = if completed {
            (
                format!("Signed by everyone: {}", workflow.name),
                format!("Everyone has signed \"{}\". {who} has the signed document.", workflow.name),
            )
        } else {
            let reason = workflow.state_reason.clone().unwrap_or_default();
            (
                format!("Declined: {}", workflow.name),
                format!("\"{}\" was declined and will not be signed. Reason: {reason}", workflow.name),
            )
        };
        let mail = Mail {
            to_email: s.email.clone(),
            to_name: s.name.clone(),
            subject,
            text: format!("Hello {},\n\n{line}\n", s.name),
            html: Some(format!("<p>Hello {},</p><p>{}</p>", escape(&s.name), escape(&line))),
        };
        queue(state, mail, format!("mail:{}:{}:{}", workflow.id, event.seq, s.id)).await?;
    }
    Ok(())
}
