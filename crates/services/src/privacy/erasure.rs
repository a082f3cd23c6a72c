//! Erasing a workflow behind a sealed tombstone, and a person's erasure request.

use aws_lc_rs::digest;
use serde_json::json;
use signet_blob::BlobKey;
use signet_domain::access::Permission;
use signet_domain::audit::Actor;
use signet_domain::retention::{KeptBecause, Verdict, on_request};
use signet_domain::workflow::is_valid_email;
use signet_domain::{Error, FieldErrors, Millis, TenantId, WorkflowId, now_millis};
use signet_store::{BlobsToErase, ErasureFacts, MAX_ERASURE_BATCH, ObjectsToErase, WorkflowErasure};

use super::tombstone::{self, ErasedDocument, ErasedWorkflow, Tombstone, Why};
use crate::{Caller, Services};

/// Workflows one request looks at, at most: a person with more is answered with `more` set
/// and asks again (what was erased is no longer found).
pub const MAX_WORKFLOWS_PER_REQUEST: i64 = 200;

/// Whose data an erasure request is for: an e-mail address, a mobile number, or both.
#[derive(Debug, Clone, Default)]
pub struct Subject {
    pub email: Option<String>,
    pub phone: Option<String>,
}

/// One record a request erased or kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub workflow_id: WorkflowId,
    pub name: String,
}

/// One record kept, why, and until when (none: until the reason goes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    pub record: Record,
    pub because: KeptBecause,
    pub until: Option<Millis>,
}

/// What a request did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Answer {
    pub erased: Vec<Record>,
    pub kept: Vec<Kept>,
    /// More workflows of the person remain: ask again.
    pub more: bool,
}

/// What erasing a batch did.
#[derive(Debug, Default)]
pub(crate) struct Erased {
    pub erased: Vec<WorkflowId>,
    /// Not erased: held, signed or already erased since their facts were read; left to the
    /// next sweep or request.
    pub refused: Vec<WorkflowId>,
}

/// Erases workflows of the organisation (at most [`MAX_ERASURE_BATCH`], whose `facts` the
/// caller read and judged) behind one tombstone sealed by the organisation (the store's
/// `erase_workflows`), then deletes their stored objects. One that changed since its facts
/// were read (a hold placed, a signature made) is left out, the tombstone sealed again
/// without it, and the rest erased.
pub(crate) async fn erase_workflows(
    svc: &Services,
    tenant_id: TenantId,
    mut facts: Vec<ErasureFacts>,
    why: Why,
    actor: &Actor,
) -> Result<Erased, Error> {
    let mut outcome = Erased::default();
    facts.retain(|f| !f.erased);
    // Each refusal removes at least one workflow, so this ends.
    while !facts.is_empty() {
        let statement = tombstone_of(tenant_id, why, &facts);
        let target = format!("tenant:{tenant_id}");
        let entry = tombstone::sealed_entry(svc, actor, tombstone::WORKFLOWS_ERASED, target, &statement).await?;
        let chains: Vec<(WorkflowId, i64)> = facts.iter().map(|f| (f.workflow.id, f.event_seq)).collect();
        let erasure = WorkflowErasure { tenant_id, workflows: &chains, reason: why.state_reason(), tombstone: &entry };
        match svc.store.erase_workflows(&erasure).await? {
            Ok(objects) => {
                outcome.erased.extend(chains.iter().map(|(id, _)| *id));
                delete_objects(svc, &objects).await;
                break;
            }
            Err(refused) if refused.is_empty() => break,
            Err(refused) => {
                facts.retain(|f| !refused.contains(&f.workflow.id));
                outcome.refused.extend(refused);
            }
        }
    }
    Ok(outcome)
}

/// Deletes an erasure's stored objects now and settles its `blobs.erase` job; when a delete
/// fails, the job (queued with the erasure) deletes them later.
pub(crate) async fn delete_objects(svc: &Services, objects: &ObjectsToErase) {
    match delete_blobs(svc, &objects.blobs).await {
        Ok(_) => {
            if let Err(error) = svc.store.settle_erase_job(&objects.job).await {
                tracing::warn!(%error, "an erasure's files are deleted; its blobs.erase job will run anyway");
            }
        }
        Err(error) => tracing::warn!(%error, "an erasure's files are left to its blobs.erase job"),
    }
}

fn tombstone_of(tenant_id: TenantId, why: Why, facts: &[ErasureFacts]) -> Tombstone {
    let workflows = facts
        .iter()
        .map(|f| ErasedWorkflow {
            workflow_id: f.workflow.id.get(),
            state: f.workflow.state().as_str().into(),
            ended_at: f.ended_at,
            documents: f
                .documents
                .iter()
                .map(|(id, sha256)| ErasedDocument { document_id: *id, sha256: sha256.clone() })
                .collect(),
            event_count: f.event_seq,
            event_head: f.event_head.clone(),
        })
        .collect();
    Tombstone {
        format: tombstone::FORMAT.into(),
        tenant_id,
        why,
        erased_at: now_millis(),
        workflows,
        transactions: Vec::new(),
    }
}

/// Deletes an erasure's stored objects; idempotent.
pub(crate) async fn delete_blobs(svc: &Services, blobs: &BlobsToErase) -> Result<u64, signet_blob::Error> {
    let mut deleted = 0;
    for key in &blobs.keys {
        // A key that does not parse names no object this store could hold.
        if let Ok(key) = BlobKey::parse(key) {
            svc.blob.delete(&key).await?;
            deleted += 1;
        }
    }
    for prefix in &blobs.prefixes {
        if let Ok(prefix) = BlobKey::parse(prefix) {
            deleted += svc.blob.delete_under(&prefix).await?;
        }
    }
    Ok(deleted)
}

/// A person's erasure request (managing settings): every workflow of the organisation in which
/// the e-mail address or mobile number is a signatory is erased, unless it is still being
/// signed, under a legal hold, or inside its retention period; the answer names each, and for
/// what is kept, why and until when. The request is recorded in the audit chain by a digest of
/// the address and number, not the address and number themselves.
pub async fn request(svc: &Services, caller: &Caller, subject: Subject) -> Result<Answer, Error> {
    caller.require(Permission::ManageSettings)?;
    let (email, phone) = checked(subject)?;
    let tenant_id = caller.tenant_id;
    let policies = svc.store.retention_policies(tenant_id).await?;
    let found = svc
        .store
        .workflows_of_person(tenant_id, email.as_deref(), phone.as_deref(), MAX_WORKFLOWS_PER_REQUEST + 1)
        .await?;
    let more = found.len() as i64 > MAX_WORKFLOWS_PER_REQUEST;
    let now = now_millis();
    let mut answer = Answer { more, ..Answer::default() };
    let found: Vec<_> = found.into_iter().take(MAX_WORKFLOWS_PER_REQUEST as usize).collect();
    let mut to_erase = Vec::new();
    for chunk in found.chunks(MAX_ERASURE_BATCH) {
        let ids: Vec<WorkflowId> = chunk.iter().map(|w| w.id).collect();
        for facts in svc.store.erasure_facts(tenant_id, &ids).await? {
            let record = Record { workflow_id: facts.workflow.id, name: facts.workflow.name.clone() };
            match on_request(facts.standing(), &policies.for_template(facts.workflow.template_id), now) {
                Verdict::Keep(because, until) => answer.kept.push(Kept { record, because, until }),
                Verdict::Erase => to_erase.push((record, facts)),
            }
        }
    }
    while !to_erase.is_empty() {
        let batch: Vec<(Record, ErasureFacts)> = to_erase.drain(..to_erase.len().min(MAX_ERASURE_BATCH)).collect();
        let (records, facts): (Vec<Record>, Vec<ErasureFacts>) = batch.into_iter().unzip();
        let outcome = erase_workflows(svc, tenant_id, facts, Why::ErasureRequest, &caller.actor).await?;
        for record in records {
            if outcome.erased.contains(&record.workflow_id) {
                answer.erased.push(record);
            } else {
                // A hold placed or a signature made meanwhile: kept, for now.
                answer.kept.push(Kept { record, because: KeptBecause::LegalHold, until: None });
            }
        }
    }
    let numbers = phone.as_deref().map(kept_forms).unwrap_or_default();
    let others = svc.store.erase_person_records(tenant_id, email.as_deref(), &numbers).await?;
    let detail = json!({
        "subject": subject_digest(email.as_deref(), phone.as_deref()),
        "erased": answer.erased.iter().map(|r| r.workflow_id).collect::<Vec<_>>(),
        "kept": answer.kept.iter().map(|k| k.record.workflow_id).collect::<Vec<_>>(),
        "bulkRows": others.bulk_rows,
        "leads": others.leads,
        "referrals": others.referrals,
        "lots": others.lots,
    });
    svc.store.record_erasure_request(tenant_id, detail, &caller.actor).await?;
    Ok(answer)
}

/// The address (lower case) and number, at least one, each well formed. The number is looked
/// up as signatories' numbers are kept (E.164): with its `+` as given, ten digits without one
/// as an Indian mobile; one no signatory can have simply finds nothing.
fn checked(subject: Subject) -> Result<(Option<String>, Option<String>), Error> {
    let mut errors = FieldErrors::new();
    // As typed: an address or number with spaces around it, or an empty one, is not one.
    let email = subject.email.map(|e| e.to_lowercase());
    if let Some(email) = &email
        && !is_valid_email(email)
    {
        errors.insert("email".into(), vec!["is not an e-mail address".into()]);
    }
    let phone = match subject.phone.as_deref() {
        Some(typed) => match lookup_number(typed) {
            Some(number) => Some(number),
            None => {
                errors.insert("phone".into(), vec![PHONE_SHAPE.into()]);
                None
            }
        },
        None => None,
    };
    if email.is_none() && phone.is_none() && errors.is_empty() {
        errors.insert("email".into(), vec!["an e-mail address or a phone number is required".into()]);
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    Ok((email, phone))
}

/// The documented length of a typed number, separators included.
const MAX_PHONE_CHARS: usize = 20;
const PHONE_SHAPE: &str =
    "must be 7 to 15 digits, an optional leading +, single spaces or hyphens between digits, at most 20 characters";

/// A typed number in the documented shape (`^\+?[0-9](?:[ -]?[0-9]){6,14}$`) as stored
/// numbers are written; `None` when it is not in that shape.
fn lookup_number(typed: &str) -> Option<String> {
    if typed.len() > MAX_PHONE_CHARS {
        return None;
    }
    let (plus, rest) = match typed.strip_prefix('+') {
        Some(rest) => (true, rest),
        None => (false, typed),
    };
    let mut digits = String::with_capacity(rest.len());
    let mut after_separator = true;
    for c in rest.chars() {
        match c {
            '0'..='9' => {
                digits.push(c);
                after_separator = false;
            }
            ' ' | '-' if !after_separator => after_separator = true,
            _ => return None,
        }
    }
    if after_separator || !(7..=15).contains(&digits.len()) {
        return None;
    }
    let indian_mobile = !plus && digits.len() == 10 && digits.starts_with(['6', '7', '8', '9']);
    Some(if indian_mobile { format!("+91{digits}") } else { format!("+{digits}") })
}

/// The forms a looked-up number (`+<digits>`) may be kept in outside workflows: as typed
/// with its `+`, its digits alone, and an Indian mobile's ten digits (sales leads and
/// referrals keep numbers as sent, without separators).
fn kept_forms(number: &str) -> Vec<String> {
    let digits = number.trim_start_matches('+');
    let mut forms = vec![number.to_string(), digits.to_string()];
    if let Some(national) = digits.strip_prefix("91").filter(|n| n.len() == 10) {
        forms.push(national.to_string());
    }
    forms
}

/// SHA-256 of `email|phone`: the request can be matched to a later one for the same person
/// without the audit chain keeping whom it was for.
fn subject_digest(email: Option<&str>, phone: Option<&str>) -> String {
    let text = format!("{}|{}", email.unwrap_or(""), phone.unwrap_or(""));
    hex::encode(digest::digest(&digest::SHA256, text.as_bytes()).as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_looked_up_as_they_are_kept_and_only_in_the_documented_shape() {
        assert_eq!(lookup_number("98765 43210").as_deref(), Some("+919876543210"));
        assert_eq!(lookup_number("+91-98765-43210").as_deref(), Some("+919876543210"));
        assert_eq!(lookup_number("+44 20 7946 0958").as_deref(), Some("+442079460958"));
        assert_eq!(lookup_number("1234567").as_deref(), Some("+1234567"), "finds nothing, refuses nothing");
        assert_eq!(kept_forms("+919876543210"), ["+919876543210", "919876543210", "9876543210"]);
        assert_eq!(kept_forms("+442079460958"), ["+442079460958", "442079460958"]);
        for refused in
            ["12", "+", "98765  43210", "98765-", "(987) 654-3210", "9876543210123456", "+1 2 3 4 5 6 7 8 9 0 1"]
        {
            assert_eq!(lookup_number(refused), None, "{refused}");
        }
    }
}
