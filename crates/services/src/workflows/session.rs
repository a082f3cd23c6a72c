//! A signer's session: a signatory's link opened ([`open_link`], the one way in), or why it does
//! not open ([`LinkClosed`]). Every step a signer takes (signing, eSign, a token, the code by SMS,
//! their copy) starts from here.

use signet_domain::audit::Actor;
use signet_domain::workflow::{SignatoryState, WorkflowState};
use signet_domain::{Error, ErrorCode, SignatoryId, now_millis};
use signet_store::{SignatoryRow, WorkflowRow};

use crate::Services;
use signet_domain::placement::Placement;

/// Why a link does not lead to a signing page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkClosed {
    NotFound,
    /// Nothing is left to sign through it, for the reason the signer is told.
    Gone(Gone),
    /// Others sign first.
    NotYet,
    /// Something on our side failed (logged, never shown).
    Broken,
    /// The database or the document store is away for a moment; the same request may be
    /// sent again (a 503 with `Retry-After`).
    Unavailable,
}

impl LinkClosed {
    /// What a failure on our side means for a link: an outage passes, anything else is broken.
    /// The cause is logged here, never shown.
    pub(crate) fn from_failure(error: &Error, what: &'static str, id: i64) -> LinkClosed {
        if error.code() == ErrorCode::ServiceUnavailable {
            tracing::warn!(%error, id, "{what}: an outage");
            return LinkClosed::Unavailable;
        }
        tracing::error!(%error, id, "{what}");
        LinkClosed::Broken
    }

    /// As [`LinkClosed::from_failure`], for a blob store failure.
    pub(crate) fn from_blob(error: signet_blob::Error, what: &'static str, id: i64) -> LinkClosed {
        LinkClosed::from_failure(&Error::from(error), what, id)
    }
}

/// Why nothing is left to sign (or download) through a link: a fact the signer pages word in
/// the signer's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gone {
    /// The signatory signed.
    Signed,
    /// The signatory declined.
    Declined,
    /// The signatory handed the signature on.
    Delegated,
    /// Everyone signed.
    Completed,
    /// Someone declined the request.
    RequestDeclined,
    /// The request expired.
    RequestExpired,
    /// The request was made inactive or deleted.
    RequestInactive,
    /// The sender replaced this link with a newer one.
    LinkReplaced,
    /// The link's own time ran out.
    LinkExpired,
    /// The time to download the signed copy has passed.
    CopyExpired,
}

/// An open signer link: the signatory whose turn it is, and their workflow.
#[derive(Debug, Clone)]
pub struct SignerSession {
    pub signatory: SignatoryRow,
    pub workflow: WorkflowRow,
    /// The signatory's placement, read once when the session opens: the page, the checks of
    /// the signer's inputs and the token and eSign signatures use this one (the electronic
    /// seal reads every signatory's at once, this one's among them).
    pub placement: Placement,
}

impl SignerSession {
    pub fn new(signatory: SignatoryRow, workflow: WorkflowRow) -> SignerSession {
        let placement = signatory.placement.clone();
        SignerSession { signatory, workflow, placement }
    }

    /// How the signatory is recorded in the workflow's chain, from their address.
    pub fn actor(&self, ip: std::net::IpAddr) -> Actor {
        Actor { id: format!("signatory:{}", self.signatory.id), ip: Some(ip.to_string()) }
    }
}

fn gone_reason(signatory: &SignatoryRow, workflow: &WorkflowRow) -> Gone {
    match (workflow.state(), signatory.state()) {
        (_, SignatoryState::Signed) => Gone::Signed,
        (_, SignatoryState::Declined) => Gone::Declined,
        (_, SignatoryState::Delegated) => Gone::Delegated,
        (WorkflowState::Completed, _) => Gone::Completed,
        (WorkflowState::Declined, _) => Gone::RequestDeclined,
        (WorkflowState::Expired, _) => Gone::RequestExpired,
        _ => Gone::RequestInactive,
    }
}

/// The signatory a link names, with their workflow (whether the link is right is the
/// caller's to check); a store failure is logged and shown as [`LinkClosed::Broken`].
pub(super) async fn signatory_of_link(
    svc: &Services,
    id: SignatoryId,
) -> Result<(SignatoryRow, WorkflowRow), LinkClosed> {
    svc.store
        .signatory(id)
        .await
        .map_err(|error| LinkClosed::from_failure(&error, "signer link lookup failed", id.get()))?
        .ok_or(LinkClosed::NotFound)
}

/// The signatory behind a link, if the link is right and it is their turn.
pub async fn open_link(svc: &Services, id: SignatoryId, secret: &str) -> Result<SignerSession, LinkClosed> {
    let (signatory, workflow) = signatory_of_link(svc, id).await?;
    if !svc.link_key.matches(signatory.id.get(), signatory.link_version, secret) {
        // A link of an earlier version was revoked (rotated by the sender, or resent).
        let earlier =
            (1..signatory.link_version).rev().take(1000).any(|v| svc.link_key.matches(signatory.id.get(), v, secret));
        if earlier {
            return Err(LinkClosed::Gone(Gone::LinkReplaced));
        }
        return Err(LinkClosed::NotFound);
    }
    if workflow.state() != WorkflowState::InProgress || signatory.state().is_final() {
        return Err(LinkClosed::Gone(gone_reason(&signatory, &workflow)));
    }
    if signatory.link_expires_at < now_millis() || workflow.expires_at.is_some_and(|t| t < now_millis()) {
        return Err(LinkClosed::Gone(Gone::LinkExpired));
    }
    if signatory.state() == SignatoryState::Pending {
        return Err(LinkClosed::NotYet);
    }
    Ok(SignerSession::new(signatory, workflow))
}
