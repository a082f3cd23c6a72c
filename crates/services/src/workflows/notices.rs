//! E-mails about a workflow: the invitation (and reminders) with the signer's personal link,
//! also texted to a signer with a mobile number where SMS is configured (`crate::platform::sms`), and
//! the outcome (completed, declined) to everyone involved. Sent only when the workflow
//! asked for it (`sendMail`; `notifyCustomer` adds the completion notice); each is a queued
//! job with a dedupe key, so a retried event never mails twice.
//!
//! The signers' e-mails are in the workflow's language (English when the sender chose none:
//! a browser's wish is not known when mailing), their text from the e-mails' catalogue
//! (`crates/services/text/<code>.txt`); every time in the organisation's zone, named. The
//! sender's notices are in English, as the console's refusals, and only those the sender
//! chose (`SenderNotices`: completed and declined unless turned off, each signature when on).

use std::fmt::Display;

use signet_domain::user::SenderNotices;
use signet_domain::workflow::SignatoryState;
use signet_domain::{Error, Lang, PrincipalId, Zone};
use signet_locale::Catalogue;
use signet_store::{SignatoryRow, WorkflowRow};

use super::links::signer_url;
use crate::Services;
use crate::platform::mail::{Mail, MailAttachment, enqueue};
use crate::platform::sms::{Purpose, SignerSms};
use signet_domain::audit::{WorkflowEventJob, WorkflowEventKind};

/// Whether the workflow e-mails its signers their invitations and reminders (`sendMail`).
pub fn sends_mail(workflow: &WorkflowRow) -> bool {
    workflow.settings.send_mail
}

/// Whether a reminder reaches the signatory: by e-mail (`sendMail`), or by SMS to their
/// mobile number where the installation sends SMS.
pub fn reaches(state: &Services, workflow: &WorkflowRow, signatory: &SignatoryRow) -> bool {
    sends_mail(workflow) || (state.sms.is_some() && signatory.mobile().is_some())
}

fn escape(text: &str) -> String {
    signet_gateway::html_escape(text)
}

/// The e-mails' catalogue.
static MAIL: Catalogue = Catalogue::new(
    "crates/services/text",
    &[(Lang::En, include_str!("../../text/en.txt")), (Lang::Hi, include_str!("../../text/hi.txt"))],
);

/// The words of one e-mail: its language and the organisation's zone.
#[derive(Clone, Copy)]
struct Words {
    lang: Lang,
    zone: Zone,
}

impl Words {
    async fn of(state: &Services, workflow: &WorkflowRow, lang: Lang) -> Words {
        Words { lang, zone: crate::people::organisation::zone_of(state, workflow.tenant_id).await }
    }

    /// The catalogue's text of `key` with its placeholders filled in (plain text).
    fn say(self, key: &str, values: &[(&str, &dyn Display)]) -> String {
        MAIL.plain(self.lang, key, values)
    }

    /// An instant, in the organisation's zone, the zone named.
    fn time(self, millis: i64) -> String {
        self.zone.format_in(self.lang, millis)
    }
}

/// The text of a signer's one-time code by SMS (`otp`), in `lang`: who asks, the code, and
/// how long it works. Here so that the catalogue's keys stay with the texts that use them.
pub(crate) fn code_sms(lang: Lang, requester: &str, code: &str, minutes: i64) -> String {
    MAIL.plain(lang, "sms.code", &[("who", &requester), ("code", &code), ("minutes", &minutes)])
}

/// The language of the workflow's signers' e-mails.
fn signers_lang(workflow: &WorkflowRow) -> Lang {
    workflow.signer_lang().unwrap_or_default()
}

async fn requester(state: &Services, workflow: &WorkflowRow) -> String {
    state.store.tenant_name(workflow.tenant_id).await.ok().flatten().unwrap_or_else(|| "Signet".into())
}

async fn queue(state: &Services, mail: Mail, key: String) -> Result<(), Error> {
    match enqueue(&state.store, &mail, Some(key)).await {
        Ok(()) => Ok(()),
        // An address the mail system cannot use is the sender's data, not a reason to retry.
        Err(error) if error.code() == signet_domain::ErrorCode::ValidationFailed => {
            tracing::warn!(to = %mail.to_email, %error, "e-mail not queued");
            Ok(())
        }
        Err(error) => Err(error),
    }
}

/// The signer's invitation (or a reminder) with their link: by e-mail when the workflow mails
/// its signers, and by SMS when the signatory has a mobile number and the installation an SMS
/// provider. The e-mail is queued first and each goes as its own job, so a text that fails
/// never holds the e-mail back.
pub async fn invitation(state: &Services, event: &WorkflowEventJob, reminder: bool) -> Result<(), Error> {
    let Some(id) = event.signatory_id() else { return Ok(()) };
    let Some((signatory, workflow)) = state.store.signatory(id).await? else {
        return Ok(());
    };
    if !signatory.state().is_turn() {
        return Ok(());
    }
    let who = requester(state, &workflow).await;
    let url = signer_url(state, &signatory);
    let words = Words::of(state, &workflow, signers_lang(&workflow)).await;
    if workflow.settings.send_mail {
        invitation_mail(state, event, (&signatory, &workflow), words, (&who, &url), reminder).await?;
    }
    invitation_sms(state, event, (&signatory, &workflow), words, (&who, &url), reminder).await
}

/// Longest document name a text carries (a long one is cut, so the link fits one message).
const SMS_DOCUMENT_CHARS: usize = 40;

/// The invitation (or reminder) by SMS: the organisation, the document and the link, in the
/// signers' language; nothing when the signatory has no mobile number or nothing sends SMS.
async fn invitation_sms(
    state: &Services,
    event: &WorkflowEventJob,
    (signatory, workflow): (&SignatoryRow, &WorkflowRow),
    words: Words,
    (who, url): (&str, &str),
    reminder: bool,
) -> Result<(), Error> {
    let (Some(to), Some(_)) = (signatory.mobile(), state.sms.as_ref()) else { return Ok(()) };
    let document = shortened(&workflow.name, SMS_DOCUMENT_CHARS);
    let (key, purpose) =
        if reminder { ("sms.reminder", Purpose::Reminder) } else { ("sms.invitation", Purpose::Invitation) };
    let text = words.say(key, &[("who", &who), ("document", &document), ("url", &url)]);
    let sms = SignerSms {
        tenant_id: workflow.tenant_id,
        workflow_id: workflow.id,
        signatory_id: signatory.id,
        to: to.e164().to_string(),
        text,
        purpose,
    };
    crate::platform::sms::enqueue(&state.store, &sms, format!("sms:{}:{}:{}", workflow.id, event.seq, signatory.id))
        .await
}

/// `text` cut to `max` characters, an ellipsis marking the cut.
fn shortened(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}

/// The invitation (or reminder) e-mail.
async fn invitation_mail(
    state: &Services,
    event: &WorkflowEventJob,
    (signatory, workflow): (&SignatoryRow, &WorkflowRow),
    words: Words,
    (who, url): (&str, &str),
    reminder: bool,
) -> Result<(), Error> {
    let document: &dyn Display = &workflow.name;
    let subject_key = if reminder { "invitation.subject_reminder" } else { "invitation.subject" };
    let subject = words.say(subject_key, &[("document", document)]);
    let until = words.time(signatory.link_expires_at);
    let message = super::initiate::message_of(workflow);
    let (hello, asks, personal) = (
        words.say("mail.hello", &[("name", &signatory.name)]),
        words.say("invitation.asks", &[("who", &who), ("document", document)]),
        words.say("invitation.personal", &[("until", &until)]),
    );
    let their_message = words.say("invitation.their_message", &[]);
    let text = format!(
        "{hello}\n\n{asks}\n{said}\n{open}\n{url}\n\n{personal}\n",
        said = message.as_deref().map(|m| format!("\n{their_message}\n{m}\n")).unwrap_or_default(),
        open = words.say("invitation.open", &[]),
    );
    let html = format!(
        "<p>{hello}</p><p>{asks}</p>{said}<p><a href=\"{url}\">{read}</a></p><p>{personal}</p>",
        hello = escape(&hello),
        asks = escape(&asks),
        url = escape(url),
        read = escape(&words.say("invitation.read_and_sign", &[])),
        personal = escape(&personal),
        said = message
            .as_deref()
            .map(|m| format!(
                "<p>{}</p><blockquote style=\"white-space:pre-wrap\">{}</blockquote>",
                escape(&their_message),
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

/// Completion and decline notices, and the sender's notice of each signature.
pub async fn outcome(state: &Services, event: &WorkflowEventJob) -> Result<(), Error> {
    use WorkflowEventKind::{SignatorySigned, WorkflowCompleted, WorkflowDeclined};
    let Some(kind @ (WorkflowCompleted | WorkflowDeclined | SignatorySigned)) = event.event_kind() else {
        return Ok(());
    };
    let Some(workflow) = state.store.workflow(event.tenant_id, event.workflow_id).await? else {
        return Ok(());
    };
    match kind {
        WorkflowCompleted => completion(state, event, &workflow).await,
        WorkflowDeclined => declined(state, event, &workflow).await,
        _ => signed(state, event, &workflow).await,
    }
}

/// "Declined": to every participant when the workflow mails its signers, and to the sender.
async fn declined(state: &Services, event: &WorkflowEventJob, workflow: &WorkflowRow) -> Result<(), Error> {
    let reason = workflow.state_reason.clone().unwrap_or_default();
    let line = |words: Words| words.say("declined.line", &[("document", &workflow.name), ("reason", &reason)]);
    let notice =
        SenderNotice { wants: |n| n.declined, subject: "declined.subject", line: line(english(state, workflow).await) };
    to_sender(state, event, workflow, notice, Vec::new()).await?;
    if !workflow.settings.send_mail {
        return Ok(());
    }
    let signatories = state.store.signatories(workflow).await?;
    let words = Words::of(state, workflow, signers_lang(workflow)).await;
    let line = line(words);
    for s in participants(&signatories) {
        let hello = words.say("mail.hello", &[("name", &s.name)]);
        let mail = Mail {
            to_email: s.email.clone(),
            to_name: s.name.clone(),
            subject: words.say("declined.subject", &[("document", &workflow.name)]),
            text: format!("{hello}\n\n{line}\n"),
            html: Some(format!("<p>{}</p><p>{}</p>", escape(&hello), escape(&line))),
            attachments: Vec::new(),
        };
        queue(state, mail, format!("mail:{}:{}:{}", workflow.id, event.seq, s.id)).await?;
    }
    Ok(())
}

/// "Signed by …": to the sender who asked to hear of each signature.
async fn signed(state: &Services, event: &WorkflowEventJob, workflow: &WorkflowRow) -> Result<(), Error> {
    let Some(id) = event.signatory_id() else { return Ok(()) };
    let Some((signatory, _)) = state.store.signatory(id).await? else { return Ok(()) };
    let words = english(state, workflow).await;
    let line = words.say("sender.signed_line", &[("name", &signatory.name), ("document", &workflow.name)]);
    let notice = SenderNotice { wants: |n| n.signed, subject: "sender.signed_subject", line };
    to_sender(state, event, workflow, notice, Vec::new()).await
}

/// The sender's words: English, times in the organisation's zone.
async fn english(state: &Services, workflow: &WorkflowRow) -> Words {
    Words::of(state, workflow, Lang::En).await
}

/// One notice to the sender: which of their choices it answers, its subject's key, its line.
struct SenderNotice {
    wants: fn(SenderNotices) -> bool,
    subject: &'static str,
    line: String,
}

/// Mails `notice` to the console user who sent the workflow, when they chose to hear of it.
async fn to_sender(
    state: &Services,
    event: &WorkflowEventJob,
    workflow: &WorkflowRow,
    notice: SenderNotice,
    attachments: Vec<MailAttachment>,
) -> Result<(), Error> {
    let Some((email, name, chosen)) = sender_of(state, workflow).await else { return Ok(()) };
    if !(notice.wants)(chosen) {
        return Ok(());
    }
    let words = english(state, workflow).await;
    let url = format!("{}/app/workflows/{}", state.config.public_base(), workflow.id);
    let hello = words.say("mail.hello", &[("name", &name)]);
    let mail = Mail {
        to_email: email,
        to_name: name.clone(),
        subject: words.say(notice.subject, &[("document", &workflow.name)]),
        text: format!("{hello}\n\n{}\n{}\n", notice.line, words.say("sender.where", &[("url", &url)])),
        html: Some(format!(
            "<p>{}</p><p>{}</p><p><a href=\"{}\">{}</a></p>",
            escape(&hello),
            escape(&notice.line),
            escape(&url),
            escape(&words.say("sender.open", &[]))
        )),
        attachments,
    };
    queue(state, mail, format!("mail:{}:{}:sender", workflow.id, event.seq)).await
}

/// Everyone's copy: each participant (when the workflow mails its signers) and the sender
/// (a console user) get the signed documents and the completion certificate, attached when
/// they fit `mail_attachment_max_bytes`, and the participants a link to download them.
async fn completion(state: &Services, event: &WorkflowEventJob, workflow: &WorkflowRow) -> Result<(), Error> {
    let files = super::copies::files_of(state, workflow).await?;
    let attachments = attachments_within(&files, state.config.mail_attachment_max_bytes);
    let until_millis = super::copies::copy_until(state, workflow);
    if workflow.settings.send_mail || workflow.settings.notify_customer {
        let words = Words::of(state, workflow, signers_lang(workflow)).await;
        let signatories = state.store.signatories(workflow).await?;
        for s in participants(&signatories) {
            let url = format!("{}/copy", signer_url(state, s));
            let mail = copy_mail(words, s, workflow, &url, until_millis, &attachments);
            queue(state, mail, format!("mail:{}:{}:{}", workflow.id, event.seq, s.id)).await?;
        }
    }
    let line = done_line(english(state, workflow).await, workflow, &attachments);
    let notice = SenderNotice { wants: |n| n.completed, subject: "sender.subject", line };
    to_sender(state, event, workflow, notice, attachments).await
}

/// "Everyone has signed", and that the files are attached when they are.
fn done_line(words: Words, workflow: &WorkflowRow, attachments: &[MailAttachment]) -> String {
    let line = words.say("completed.line", &[("document", &workflow.name)]);
    if attachments.is_empty() { line } else { format!("{line} {}", words.say("completed.attached", &[])) }
}

/// A participant's copy: the files (when attached) and the link to download them until `until`.
fn copy_mail(
    words: Words,
    signatory: &SignatoryRow,
    workflow: &WorkflowRow,
    url: &str,
    until: i64,
    attachments: &[MailAttachment],
) -> Mail {
    let until = words.time(until);
    let (hello, line) =
        (words.say("mail.hello", &[("name", &signatory.name)]), done_line(words, workflow, attachments));
    let text = format!("{hello}\n\n{line}\n{}\n{url}\n", words.say("completed.download_until", &[("until", &until)]));
    let html = format!(
        "<p>{}</p><p>{}</p><p><a href=\"{}\">{}</a> {}</p>",
        escape(&hello),
        escape(&line),
        escape(url),
        escape(&words.say("completed.download", &[])),
        escape(&words.say("completed.download_what", &[("until", &until)])),
    );
    Mail {
        to_email: signatory.email.clone(),
        to_name: signatory.name.clone(),
        subject: words.say("completed.subject", &[("document", &workflow.name)]),
        text,
        html: Some(html),
        attachments: attachments.to_vec(),
    }
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
/// token started has none), and what they chose to be e-mailed about.
async fn sender_of(state: &Services, workflow: &WorkflowRow) -> Option<(String, String, SenderNotices)> {
    let id = PrincipalId::from(workflow.created_by.strip_prefix("user:")?.parse::<i64>().ok()?);
    let user = state.store.user(workflow.tenant_id, id).await.ok()?;
    let email = user.email.filter(|e| !e.trim().is_empty())?;
    let chosen = state.store.sender_notices(workflow.tenant_id, id).await.unwrap_or_default();
    Some((email, user.name.unwrap_or_default(), chosen))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workflows::copies::CopyFile;

    /// Every key this module names (`say("…"`, and the subjects chosen by name): each string
    /// of the source that reads as a key of one of the catalogue's screens.
    fn keys_used() -> Vec<String> {
        let source = include_str!("notices.rs");
        let mut keys: Vec<String> = source
            .split('"')
            .filter(|part| {
                let well_formed = |c: char| c.is_ascii_lowercase() || c == '_' || c == '.';
                part.contains('.') && part.chars().all(well_formed) && !part.starts_with('.') && !part.ends_with('.')
            })
            // Event kinds (`workflow.completed`) look like keys too: the catalogue's screens only.
            .filter(|part| {
                let screen = part.split('.').next().unwrap_or_default();
                ["mail", "invitation", "declined", "completed", "sender", "sms"].contains(&screen)
            })
            .map(str::to_string)
            .collect();
        keys.sort();
        keys.dedup();
        keys
    }

    #[test]
    fn every_key_is_in_english_and_in_hindi() {
        MAIL.check().expect("the e-mails' catalogues agree");
        let (english, hindi) = (MAIL.keys(Lang::En), MAIL.keys(Lang::Hi));
        let used = keys_used();
        assert!(used.len() > 10, "{used:?}");
        for key in &used {
            assert!(english.contains(&key.as_str()), "`{key}` is missing from text/en.txt");
        }
        let unused: Vec<_> = english.iter().filter(|key| !used.iter().any(|u| u == *key)).collect();
        assert!(unused.is_empty(), "keys of text/en.txt no e-mail uses: {unused:?}");
        assert_eq!(english, hindi, "every e-mail is written in Hindi too");
    }

    #[test]
    fn hindi_mails_name_the_time_in_the_organisations_zone() {
        let words = Words { lang: Lang::Hi, zone: Zone::Ist };
        // 27 Nov 2026, 19:30 UTC: already the 28th in India.
        let said = words.say("invitation.personal", &[("until", &words.time(1_795_807_800_000))]);
        assert!(said.contains("28 नव॰ 2026, 01:00 IST") && said.contains("लिंक"), "{said}");
        let english = Words { lang: Lang::En, zone: Zone::Utc };
        let subject = english.say("invitation.subject_reminder", &[("document", &"Lease")]);
        assert_eq!(subject, "Reminder: Please sign: Lease");
    }

    #[test]
    fn texts_are_short_and_in_the_signers_language() {
        let words = Words { lang: Lang::Hi, zone: Zone::Ist };
        let document = shortened("Home loan agreement for the flat at 12 Marine Drive, Mumbai", SMS_DOCUMENT_CHARS);
        assert!(document.chars().count() <= SMS_DOCUMENT_CHARS && document.ends_with('…'), "{document}");
        assert_eq!(document, "Home loan agreement for the flat at 12…");
        assert_eq!(shortened("Lease", SMS_DOCUMENT_CHARS), "Lease");
        let url = "https://sign.example/sign/w/abc";
        let text = words.say("sms.invitation", &[("who", &"Acme"), ("document", &"Lease"), ("url", &url)]);
        assert!(text.starts_with("Acme") && text.contains("हस्ताक्षर") && text.ends_with(url), "{text}");
    }

    #[test]
    fn files_are_attached_only_when_together_they_fit() {
        let file = |size| CopyFile { name: "a.pdf".into(), blob: "tenant/1/a.pdf".into(), size };
        assert_eq!(attachments_within(&[file(400), file(600)], 1000).len(), 2);
        assert!(attachments_within(&[file(400), file(601)], 1000).is_empty());
        assert!(attachments_within(&[], 1000).is_empty());
    }
}
