//! Embedded signing: an organisation shows a signer's turn inside its own web application.
//!
//! The organisation's administrators name the origins that may frame its signer pages, and the
//! accent colour and logo those pages show ([`settings`], [`set_settings`]). A sender (usually
//! the integrator's server, as an API client) asks for a signatory's embed address for one of
//! those origins ([`embed_url`]): `/embed/w/{signatoryId}/{token}`, where the token (see
//! [`LinkKey::embed_token`](crate::workflows::links::LinkKey::embed_token)) names the origin
//! and expires [`OPEN_WITHIN_SECS`] later. Each page of the frame is opened with
//! [`open_frame`], which answers the signatory's link secret (the page is then the ordinary
//! signer page), the origin allowed to frame it, and a fresh token for the page's own forms,
//! valid [`FRAME_LIFETIME_SECS`]. Nothing is stored per embed: revoking the signatory's link,
//! or removing the origin from the organisation's list, ends every frame at its next request.

use signet_domain::access::Permission;
use signet_domain::embedding::{Accent, EmbedOrigin, Embedding, Logo};
use signet_domain::{Error, SignatoryId, TenantId, WorkflowId, now_millis};

use crate::workflows::actions::visible_workflow;
use crate::{Caller, Services};

/// How long an embed address may wait before it is opened: it travels from the integrator's
/// server to its page and is opened at once.
pub const OPEN_WITHIN_SECS: i64 = 5 * 60;
/// How long an opened frame's forms keep working without a new page (each page renews it):
/// long enough to read a loan agreement.
pub const FRAME_LIFETIME_SECS: i64 = 60 * 60;

/// The embed address of a signatory's turn.
#[derive(Debug, Clone)]
pub struct EmbedUrl {
    pub url: String,
    /// When the address stops opening (Unix milliseconds).
    pub expires_at: i64,
}

/// What an administrator sets: the origins' texts, the colour's (`#rrggbb`; none: Signet's
/// own) and the logo's bytes (PNG or JPEG); the whole replaces what was set.
#[derive(Debug, Clone, Default)]
pub struct EmbeddingInput {
    pub origins: Vec<String>,
    pub accent: Option<String>,
    pub logo: Option<Vec<u8>>,
}

/// An opened frame of an embedded signer page.
#[derive(Debug, Clone)]
pub struct Frame {
    pub signatory_id: SignatoryId,
    pub tenant_id: TenantId,
    /// The origin allowed to frame the page and to receive its messages.
    pub origin: EmbedOrigin,
    /// The signatory's current link secret: the page is then their ordinary signer page.
    pub secret: String,
    /// A token for the page's own addresses (forms, images), valid [`FRAME_LIFETIME_SECS`].
    pub renewed: String,
    pub accent: Option<Accent>,
    pub has_logo: bool,
}

/// Why a frame does not open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrameClosed {
    /// Not an embed token of this signatory's current link, or its origin is no longer allowed:
    /// nothing may frame the answer.
    Unknown,
    /// An authentic token past its time: the frame says so to the origin it was made for.
    Expired(EmbedOrigin),
}

/// The organisation's embedding settings with its logo (managing settings).
pub async fn settings(svc: &Services, caller: &Caller) -> Result<(Embedding, Option<Logo>), Error> {
    caller.require(Permission::ManageSettings)?;
    let embedding = svc.store.embedding(caller.tenant_id).await?;
    let logo = match embedding.logo {
        Some(_) => svc.store.embedding_logo(caller.tenant_id).await?,
        None => None,
    };
    Ok((embedding, logo))
}

/// Replaces the organisation's embedding settings (managing settings); a refusal names the
/// field (`allowedOrigins[i]`, `accentColor`, `logo`) and changes nothing.
pub async fn set_settings(svc: &Services, caller: &Caller, input: EmbeddingInput) -> Result<Embedding, Error> {
    caller.require(Permission::ManageSettings)?;
    let origins = Embedding::origins_from("allowedOrigins", &input.origins)?;
    let accent = match input.accent.as_deref() {
        Some(text) => Some(Accent::parse(text).ok_or_else(|| Error::field("accentColor", "must be #rrggbb"))?),
        None => None,
    };
    let logo = input.logo.map(|bytes| Logo::read("logo", bytes)).transpose()?;
    svc.store.set_embedding(caller.tenant_id, &origins, accent, logo.as_ref(), &caller.actor).await?;
    Ok(Embedding { origins, accent, logo: logo.map(|l| l.kind) })
}

/// The embed address of a due signatory's page for `origin` (sending workflows). The origin
/// must be one the organisation allows; the workflow's trail records who took it and for
/// which origin. Another tenant's workflow, or a signatory not of it, is not found.
pub async fn embed_url(
    svc: &Services,
    caller: &Caller,
    workflow_id: WorkflowId,
    signatory_id: SignatoryId,
    origin: &str,
) -> Result<EmbedUrl, Error> {
    caller.require(Permission::SendWorkflows)?;
    let origin = EmbedOrigin::parse(origin).map_err(|refusal| Error::field("origin", refusal.to_string()))?;
    let workflow = visible_workflow(svc, caller.tenant_id, workflow_id).await?;
    if !svc.store.embedding(caller.tenant_id).await?.allows(&origin) {
        return Err(Error::field(
            "origin",
            "is not an origin this organisation allows to embed its signing pages (PUT /api/v1/organisation/embedding)",
        ));
    }
    let row = svc
        .store
        .hand_out_signer_link(caller.tenant_id, workflow.id, signatory_id, &caller.actor, Some(&origin))
        .await?;
    let expires_at = now_secs() + OPEN_WITHIN_SECS;
    let token = svc.link_key.embed_token(row.id.get(), row.link_version, &origin, expires_at);
    Ok(EmbedUrl {
        url: format!("{}/embed/w/{}/{token}", svc.config.public_base(), row.id),
        expires_at: expires_at * 1000,
    })
}

/// Opens a frame of signatory `id`'s embedded page from its token: authentic for their current
/// link, for an origin the organisation still allows, not past its time.
pub async fn open_frame(svc: &Services, id: SignatoryId, token: &str) -> Result<Frame, FrameClosed> {
    let found = svc.store.signatory(id).await.map_err(|error| {
        tracing::warn!(%error, %id, "embedded page: signatory not read");
        FrameClosed::Unknown
    })?;
    let Some((signatory, _)) = found else { return Err(FrameClosed::Unknown) };
    let read = svc.link_key.read_embed_token(id.get(), signatory.link_version, token);
    let Some((origin, expires_at)) = read else { return Err(FrameClosed::Unknown) };
    let embedding = svc.store.embedding(signatory.tenant_id).await.map_err(|error| {
        tracing::warn!(%error, %id, "embedded page: settings not read");
        FrameClosed::Unknown
    })?;
    if !embedding.allows(&origin) {
        return Err(FrameClosed::Unknown);
    }
    let now = now_secs();
    if expires_at < now {
        return Err(FrameClosed::Expired(origin));
    }
    Ok(Frame {
        signatory_id: id,
        tenant_id: signatory.tenant_id,
        secret: svc.link_key.secret(id.get(), signatory.link_version),
        renewed: svc.link_key.embed_token(id.get(), signatory.link_version, &origin, now + FRAME_LIFETIME_SECS),
        origin,
        accent: embedding.accent,
        has_logo: embedding.logo.is_some(),
    })
}

/// The logo of an open frame's organisation.
pub async fn logo(svc: &Services, frame: &Frame) -> Result<Option<Logo>, Error> {
    svc.store.embedding_logo(frame.tenant_id).await
}

fn now_secs() -> i64 {
    now_millis() / 1000
}
