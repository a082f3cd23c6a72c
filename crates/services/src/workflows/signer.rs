//! What a signatory does through their link (the workflow signer page): open it, view, sign,
//! decline, delegate, comment, attach a document the sender asked for. The link is the
//! signer's credential (an HMAC, see `links`); [`super::session::open_link`] is the one way in.

use bytes::Bytes;
use serde_json::json;
use signet_blob::BlobKey;
use signet_domain::audit::Actor;
use signet_domain::workflow::{DocumentState, is_valid_email};
use signet_domain::{DocumentId, Error, ErrorCode};
use signet_store::{AfterSignature, AttachmentRow, Delegate, DocumentRow, NewAttachment, SignatoryRow};

use super::otp::DelegateMobileRefusal;
use super::sealing::SealFailure;
use super::session::{LinkClosed, SignerSession};
use crate::Services;
use crate::gateway::seal::Mark;

/// Largest file a signer may attach.
pub const MAX_SIGNER_ATTACHMENT: usize = 10 * 1024 * 1024;

/// What the signer page shows: who asks, the active documents, the attachments.
pub struct PageContent {
    pub requester: String,
    pub documents: Vec<DocumentRow>,
    pub attachments: Vec<AttachmentRow>,
}

/// The page's content; a part that cannot be read is left out rather than failing the page.
pub async fn page_content(svc: &Services, session: &SignerSession) -> PageContent {
    let workflow = &session.workflow;
    let requester = svc.store.tenant_name(workflow.tenant_id).await.ok().flatten().unwrap_or_default();
    let documents = svc.store.workflow_documents(workflow).await.unwrap_or_default();
    let documents = documents.into_iter().filter(|d| d.state == DocumentState::Active).collect();
    let attachments = svc.store.attachments(workflow).await.unwrap_or_default();
    PageContent { requester, documents, attachments }
}

/// Records "viewed" (notified -> viewed, once) for a real interaction with the page; a
/// failure is logged, not shown.
pub async fn record_view(svc: &Services, session: &SignerSession, actor: &Actor, user_agent: &str, how: &str) {
    let detail = json!({"userAgent": user_agent, "via": how});
    if let Err(error) = svc.store.mark_viewed(&session.signatory, actor, detail).await {
        tracing::warn!(%error, "could not record the page view");
    }
}

/// The current version of one of the workflow's active documents, with its page count.
pub async fn current_document(
    svc: &Services,
    session: &SignerSession,
    document_id: DocumentId,
) -> Result<(Bytes, usize), LinkClosed> {
    // A store that does not answer is not a missing document.
    let found =
        svc.store.document(session.workflow.tenant_id, document_id).await.map_err(|error| {
            LinkClosed::from_failure(&error, "a workflow document lookup failed", document_id.get())
        })?;
    let Some(doc) = found.filter(|d| d.workflow_id == Some(session.workflow.id) && d.state == DocumentState::Active)
    else {
        return Err(LinkClosed::NotFound);
    };
    let key = BlobKey::parse(&doc.current_blob).map_err(|_| LinkClosed::Broken)?;
    let bytes = svc
        .blob
        .get(&key)
        .await
        .map_err(|error| LinkClosed::from_blob(error, "a workflow document cannot be read", doc.id.get()))?;
    Ok((bytes, doc.page_count as usize))
}

/// Signs every document of the workflow with the signer's mark; the completion steps start
/// in the background when this was the last signature. A signer asked for a code by SMS must
/// have given it first (`otp::require_verified`): else [`SignerRefusal::PhoneNotConfirmed`].
pub async fn sign(
    svc: &Services,
    session: &SignerSession,
    mark: Mark,
    actor: &Actor,
    detail: serde_json::Value,
) -> Result<AfterSignature, SignerFormError> {
    let (signatory, workflow) = (&session.signatory, &session.workflow);
    if super::esign::required(session) {
        return Err(SignerRefusal::SignWithEsign.into());
    }
    if super::token::required(session) {
        return Err(SignerRefusal::SignWithToken.into());
    }
    super::otp::require_verified::<SignerFormError>(svc, session).await?;
    let signed = super::sealing::sign_documents(svc, signatory, workflow, mark, actor, detail).await;
    let after = signed.map_err(|failure| match failure {
        SealFailure::Unsignable { document, error } => {
            SignerFormError::Stopped(SignerObstacle::DocumentNotSignable { document }, error)
        }
        SealFailure::Failed(error) => SignerFormError::stopped_by(error, |code| match code {
            ErrorCode::StateConflict => Some(SignerObstacle::NotNow),
            ErrorCode::Conflict => Some(SignerObstacle::DocumentsChanged),
            _ => None,
        }),
    })?;
    if after == AfterSignature::Completed {
        super::completion::finish_in_background(svc, workflow.tenant_id, workflow.id);
    }
    Ok(after)
}

/// What a signer must correct in a signature, decline, delegation, comment or attachment. The
/// forms' use cases fail with the refusal itself ([`SignerFormError::Refused`]), which a signer
/// page says in the signer's language; as an [`Error`] it is a field error with English words
/// (or, for a phone not confirmed, the refusal it always was).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignerRefusal {
    Reason,
    InvalidEmail,
    DelegateToSelf,
    AlreadySigns,
    Comment,
    AttachmentTooLarge,
    /// The delegate's mobile number is not one Signet can text.
    InvalidMobile,
    /// The signer was asked for a code by SMS: the person they hand on to gives a number for
    /// their own code.
    MobileNeeded,
    /// The signer was asked for a code by SMS and has not confirmed their phone yet (see
    /// `otp::require_verified`): signing and handing on wait for it.
    PhoneNotConfirmed,
    /// The sender asks this signer for an Aadhaar eSign, not an electronic signature.
    SignWithEsign,
    /// The sender asks this signer for their crypto token's signature, not an electronic one.
    SignWithToken,
}

impl SignerRefusal {
    pub const ALL: [SignerRefusal; 11] = [
        SignerRefusal::Reason,
        SignerRefusal::InvalidEmail,
        SignerRefusal::DelegateToSelf,
        SignerRefusal::AlreadySigns,
        SignerRefusal::Comment,
        SignerRefusal::AttachmentTooLarge,
        SignerRefusal::InvalidMobile,
        SignerRefusal::MobileNeeded,
        SignerRefusal::PhoneNotConfirmed,
        SignerRefusal::SignWithEsign,
        SignerRefusal::SignWithToken,
    ];

    /// The form field it is about, and its English words; none for a refusal of the whole
    /// form.
    fn field_and_words(self) -> Option<(&'static str, &'static str)> {
        match self {
            SignerRefusal::Reason => Some(("reason", "Please give a reason (up to 500 characters).")),
            SignerRefusal::InvalidEmail => Some(("email", "Please give a valid e-mail address.")),
            SignerRefusal::DelegateToSelf => Some(("email", "You cannot delegate to yourself.")),
            SignerRefusal::AlreadySigns => Some(("email", "This person already signs this request.")),
            SignerRefusal::Comment => Some(("comment", "A comment must be 1 to 2000 characters.")),
            SignerRefusal::AttachmentTooLarge => Some(("file", "An attachment may be at most 10 MB.")),
            SignerRefusal::InvalidMobile => Some((
                "mobile",
                "Please give a mobile number: + and the country code, or a 10-digit Indian mobile number.",
            )),
            SignerRefusal::MobileNeeded => Some((
                "mobile",
                "Please give their mobile number: the sender asks for a code by SMS before signing, and theirs goes there.",
            )),
            SignerRefusal::PhoneNotConfirmed | SignerRefusal::SignWithEsign | SignerRefusal::SignWithToken => None,
        }
    }

    /// The refusal as an error, as a client of the services that does not know refusals (the
    /// API, the bulk lots' report, the logs) reads it: a field error with its field and English
    /// words, or the phone's refusal as it always read.
    pub fn error(self) -> Error {
        let whole = |words: &str| Error::rejected(ErrorCode::ValidationFailed, words);
        match (self, self.field_and_words()) {
            (_, Some((field, words))) => Error::field(field, words),
            (SignerRefusal::SignWithEsign, None) => {
                whole("the sender asks you to sign with Aadhaar eSign, not with an electronic signature")
            }
            (SignerRefusal::SignWithToken, None) => {
                whole("the sender asks you to sign with your crypto token, not with an electronic signature")
            }
            (_, None) => super::otp::PhoneNotConfirmed.into(),
        }
    }
}

/// What stops a signer's form that the signer did not get wrong: the request moved on, a limit
/// was reached, a document cannot take the signature. A fact the pages word in the signer's
/// language; [`SignerFormError::Stopped`] keeps beside it the error that the services' other
/// clients (the bulk lots' report, the logs) read, its English words unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignerObstacle {
    /// The request is no longer in progress (completed, declined, recalled, expired), or this
    /// signer can no longer act on it: the form came too late.
    NotNow,
    /// The signer added as many comments as one signer may.
    TooManyComments { max: u32 },
    /// The signer attached as many documents as one signer may.
    TooManyAttachments { max: u32 },
    /// This place was handed on as often as it may be (`max` 0: it may not be handed on).
    NoMoreDelegation { max: u32 },
    /// A document cannot take the signature (the sender's placement does not fit it, say).
    DocumentNotSignable { document: String },
    /// The documents kept changing while they were signed (other signers signing): sign again.
    DocumentsChanged,
}

impl From<super::otp::PhoneNotConfirmed> for SignerFormError {
    fn from(_: super::otp::PhoneNotConfirmed) -> Self {
        SignerFormError::Refused(SignerRefusal::PhoneNotConfirmed)
    }
}

/// How a signer's form (sign, decline, delegate, comment, attach) fails: with a refusal the signer
/// can correct, typed so that the page need not recognise it by its English words, or with
/// an obstacle the signer meets (a limit reached, a state conflict) with the error it was, or
/// any other error (an internal failure).
#[derive(Debug)]
pub enum SignerFormError {
    Refused(SignerRefusal),
    Stopped(SignerObstacle, Error),
    Failed(Error),
}

impl SignerFormError {
    /// `error` as the obstacle its code stands for in this use case, else a failure.
    fn stopped_by(error: Error, obstacle_of: impl FnOnce(ErrorCode) -> Option<SignerObstacle>) -> SignerFormError {
        match obstacle_of(error.code()) {
            Some(obstacle) => SignerFormError::Stopped(obstacle, error),
            None => SignerFormError::Failed(error),
        }
    }
}

impl From<SignerRefusal> for SignerFormError {
    fn from(refusal: SignerRefusal) -> Self {
        SignerFormError::Refused(refusal)
    }
}

impl From<Error> for SignerFormError {
    fn from(error: Error) -> Self {
        SignerFormError::Failed(error)
    }
}

/// For callers that handle every failure alike: a refusal becomes its field error.
impl From<SignerFormError> for Error {
    fn from(error: SignerFormError) -> Self {
        match error {
            SignerFormError::Refused(refusal) => refusal.error(),
            SignerFormError::Stopped(_, error) | SignerFormError::Failed(error) => error,
        }
    }
}

/// A reason typed on the page: 1 to 500 characters, no control characters.
pub fn page_reason(reason: Option<&str>) -> Result<String, SignerRefusal> {
    let reason = reason.map(str::trim).unwrap_or("");
    if reason.is_empty() || reason.chars().count() > 500 || reason.chars().any(char::is_control) {
        return Err(SignerRefusal::Reason);
    }
    Ok(reason.to_string())
}

/// What the signer's delegation form gives: the delegate's address, and optionally their name
/// and mobile number; the reason.
#[derive(Debug, Clone, Copy, Default)]
pub struct DelegateForm<'a> {
    pub email: &'a str,
    pub name: Option<&'a str>,
    pub mobile: Option<&'a str>,
    pub reason: Option<&'a str>,
}

/// Declining signs nothing, so it needs no code by SMS (`otp`) even when one is asked for.
pub async fn decline(
    svc: &Services,
    session: &SignerSession,
    reason: Option<&str>,
    actor: &Actor,
) -> Result<(), SignerFormError> {
    let reason = page_reason(reason)?;
    svc.store.decline(&session.signatory, &reason, actor).await.map_err(|error| {
        SignerFormError::stopped_by(error, |code| (code == ErrorCode::StateConflict).then_some(SignerObstacle::NotNow))
    })
}

/// Hands the signature on to someone else (named, or called by their address's local part,
/// and texted at `mobile` when given). A signer asked for a code by SMS gives it first, since
/// handing on is as good as signing, and hands on only with the delegate's mobile number: the
/// delegate confirms their own code (`otp::delegate_mobile`).
pub async fn delegate(
    svc: &Services,
    session: &SignerSession,
    to: DelegateForm<'_>,
    actor: &Actor,
) -> Result<SignatoryRow, SignerFormError> {
    let DelegateForm { email, name, mobile, reason } = to;
    super::otp::require_verified::<SignerFormError>(svc, session).await?;
    let email = email.trim().to_string();
    if !is_valid_email(&email) {
        return Err(SignerRefusal::InvalidEmail.into());
    }
    if email.eq_ignore_ascii_case(&session.signatory.email) {
        return Err(SignerRefusal::DelegateToSelf.into());
    }
    let reason = page_reason(reason)?;
    let name = name.map(str::trim).filter(|n| !n.is_empty() && n.chars().count() <= 200);
    let name = name.map(str::to_string).unwrap_or_else(|| email.split('@').next().unwrap_or_default().to_string());
    let (mobile, otp_sms) =
        super::otp::delegate_mobile(session.signatory.otp_sms, mobile).map_err(|refusal| match refusal {
            DelegateMobileRefusal::Unreadable => SignerRefusal::InvalidMobile,
            DelegateMobileRefusal::Needed => SignerRefusal::MobileNeeded,
        })?;
    let to = Delegate { email: &email, name: &name, mobile: mobile.as_ref(), otp_sms };
    let expires = super::link_expiry(svc, &session.workflow);
    let max = svc.config.signer_max_delegations;
    let delegated = svc.store.delegate(&session.signatory, &to, &reason, expires, actor, Some(i64::from(max))).await;
    delegated.map_err(|error| match error.code() {
        ErrorCode::ValidationFailed => SignerRefusal::AlreadySigns.into(),
        _ => SignerFormError::stopped_by(error, |code| match code {
            ErrorCode::StateConflict => Some(SignerObstacle::NotNow),
            ErrorCode::LimitReached => Some(SignerObstacle::NoMoreDelegation { max }),
            _ => None,
        }),
    })
}

/// A comment on the workflow's first document (needs no code by SMS: it signs nothing).
pub async fn comment(
    svc: &Services,
    session: &SignerSession,
    text: &str,
    actor: &Actor,
) -> Result<(), SignerFormError> {
    let text = text.trim();
    if text.is_empty() || text.chars().count() > 2000 {
        return Err(SignerRefusal::Comment.into());
    }
    let documents = svc.store.workflow_documents(&session.workflow).await?;
    let first = documents.first().ok_or_else(|| Error::internal("a workflow without documents"))?;
    let max = svc.config.signer_max_comments;
    let (tenant, workflow) = (session.workflow.tenant_id, session.workflow.id);
    let added = svc.store.add_comment(tenant, workflow, first.id, text, actor, Some(i64::from(max))).await;
    added.map(|_| ()).map_err(|error| {
        let too_many = SignerObstacle::TooManyComments { max };
        SignerFormError::stopped_by(error, |code| (code == ErrorCode::LimitReached).then_some(too_many))
    })
}

/// A document the sender asked the signer for: the file is stored first, then the row (a
/// refused row removes the file again).
pub async fn attach(
    svc: &Services,
    session: &SignerSession,
    file_name: &str,
    requested: Option<&str>,
    bytes: &[u8],
    actor: &Actor,
) -> Result<(), SignerFormError> {
    if bytes.len() > MAX_SIGNER_ATTACHMENT {
        return Err(SignerRefusal::AttachmentTooLarge.into());
    }
    let requested = requested.unwrap_or(file_name).chars().take(200).collect::<String>();
    let sha = crate::workflows::documents::sha256_hex(bytes);
    let key = store_attachment_file(svc, session, bytes).await?;
    let new = NewAttachment {
        tenant_id: session.workflow.tenant_id,
        workflow_id: session.workflow.id,
        signatory_id: Some(session.signatory.id),
        kind: "signer",
        name: &requested,
        description: Some(file_name),
        blob_key: Some(key.as_str()),
        sha256: Some(&sha),
        size_bytes: Some(bytes.len() as i64),
    };
    let max = svc.config.signer_max_attachments;
    match svc.store.add_attachment(&new, actor, Some(i64::from(max))).await {
        Ok(_) => Ok(()),
        Err(error) => {
            let _ = svc.blob.delete(&key).await;
            let too_many = SignerObstacle::TooManyAttachments { max };
            Err(SignerFormError::stopped_by(error, |code| (code == ErrorCode::LimitReached).then_some(too_many)))
        }
    }
}

/// Stores a signer's attachment under a fresh key of the workflow's attachments.
async fn store_attachment_file(svc: &Services, session: &SignerSession, bytes: &[u8]) -> Result<BlobKey, Error> {
    let file = format!("{}-{}", session.signatory.id, crate::platform::secrets::random_token(8));
    let tenant = session.workflow.tenant_id.to_string();
    let workflow = session.workflow.id.to_string();
    let key = BlobKey::new(["tenant", &tenant, "workflows", &workflow, "attachments", &file])?;
    svc.blob.put(&key, Bytes::from(bytes.to_vec())).await?;
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_refusal_keeps_its_field_and_words_as_an_error() {
        for refusal in SignerRefusal::ALL {
            let Some((field, words)) = refusal.field_and_words() else {
                continue;
            };
            let Error::Validation(fields) = Error::from(SignerFormError::from(refusal)) else {
                panic!("{refusal:?} is not a field error");
            };
            assert_eq!(fields.get(field), Some(&vec![words.to_string()]), "{refusal:?}");
        }
        // A phone not confirmed reads as the refusal it was before it was typed.
        let phone = Error::from(SignerFormError::from(SignerRefusal::PhoneNotConfirmed));
        assert!(matches!(&phone, Error::Rejected { code: ErrorCode::ValidationFailed, detail }
            if detail == "please confirm your phone with the code we send by SMS before signing"));
        let esign = Error::from(SignerFormError::from(SignerRefusal::SignWithEsign));
        assert!(matches!(&esign, Error::Rejected { code: ErrorCode::ValidationFailed, detail }
            if detail == "the sender asks you to sign with Aadhaar eSign, not with an electronic signature"));
        let other = Error::from(SignerFormError::from(Error::field("email", "something else")));
        assert!(matches!(other, Error::Validation(fields) if fields["email"] == ["something else"]));
    }

    #[test]
    fn an_obstacle_keeps_the_error_it_was_for_the_services_other_clients() {
        let too_many = SignerObstacle::TooManyComments { max: 2 };
        let limit = || Error::rejected(ErrorCode::LimitReached, "at most 2 comments per signer");
        let stopped =
            SignerFormError::stopped_by(limit(), |code| (code == ErrorCode::LimitReached).then_some(too_many));
        assert!(matches!(&stopped, SignerFormError::Stopped(SignerObstacle::TooManyComments { max: 2 }, _)));
        assert!(matches!(Error::from(stopped), Error::Rejected { code: ErrorCode::LimitReached, detail }
            if detail == "at most 2 comments per signer"));
        // An error of another code stays a failure.
        let failed = SignerFormError::stopped_by(limit(), |code| {
            (code == ErrorCode::StateConflict).then_some(SignerObstacle::NotNow)
        });
        assert!(matches!(failed, SignerFormError::Failed(_)));
    }

    #[test]
    fn a_document_that_cannot_be_signed_keeps_its_words_for_the_services_other_clients() {
        let error = Error::rejected(ErrorCode::ValidationFailed, "Deed.pdf could not be signed: no page 3");
        let unsignable = SealFailure::Unsignable { document: "Deed.pdf".into(), error };
        assert!(matches!(Error::from(unsignable), Error::Rejected { code: ErrorCode::ValidationFailed, detail }
            if detail == "Deed.pdf could not be signed: no page 3"));
    }
}
