//! Stamp duty (docs/stamps.md): loading the tenant's pre-purchased e-stamp certificates, the
//! articles of the states' stamp schedules (shipped, edited per tenant), the low-stock alert,
//! and taking certificates for a document: reserve those that make up the duty, put their
//! pages in front of the document, and hand the reservation to the workflow's creation, which
//! allocates them in its own transaction (`signet_store::StampClaim`).

use bytes::Bytes;
use serde::Deserialize;
use serde_json::json;
use signet_blob::BlobKey;
use signet_domain::access::Permission;
use signet_domain::audit::Actor;
use signet_domain::stamp::{
    self, Article, DutyKind, MAX_CERTIFICATE_BYTES, MAX_CERTIFICATE_PAGES, MAX_LOW_STOCK_THRESHOLD, StampState,
};
use signet_domain::{Error, FieldErrors, StampId, TenantId, now_millis};
use signet_store::{ArticleEditRow, NewStamp, StampFilter, StampRow, StampSettings, StockRow};

use crate::platform::heavy::Share;
use crate::workflows::documents::{CheckedPdf, check_pdf, decode_base64};
use crate::{Caller, Services};

mod held;
pub mod provider;

pub use held::{Held, StampRequest};

/// How long certificates stay reserved for a document whose page is being made: long enough
/// for the largest document, short enough that a crashed instance's hold lapses soon.
pub const RESERVATION_MS: i64 = 10 * 60 * 1000;
/// Most addresses a low-stock alert is mailed to.
pub const MAX_ALERT_EMAILS: usize = 10;

/// One certificate of a load, as sent.
pub struct LoadItem {
    pub denomination: i64,
    pub reference_no: Option<String>,
    /// The certificate's PDF, base64, when the tenant has it.
    pub certificate: Option<String>,
}

/// A certificate PDF with the field it came in.
struct Certificate {
    index: usize,
    bytes: Vec<u8>,
}

/// Loads certificates of one state into the inventory, all or nothing: every field is checked
/// (and every certificate PDF opened, off the executor) before anything is stored.
pub async fn load(
    svc: &Services,
    caller: &Caller,
    state: Option<&str>,
    items: Vec<LoadItem>,
) -> Result<Vec<StampRow>, Error> {
    caller.require(Permission::ManageSettings)?;
    let tenant_id = caller.tenant_id;
    let actor = &caller.actor;
    let mut errors = FieldErrors::new();
    let state_code = stamp::parse_state_code("state", state).map_err(|e| collect(&mut errors, e)).ok();
    let pairs: Vec<(i64, Option<&str>)> = items.iter().map(|i| (i.denomination, i.reference_no.as_deref())).collect();
    let entries = stamp::check_load(&pairs).map_err(|e| collect(&mut errors, e)).ok();
    let mut certificates = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let Some(data) = item.certificate.as_deref() else { continue };
        let field = format!("denomination[{index}].certificateFile");
        match check_certificate(svc, tenant_id, &field, data).await {
            Ok(bytes) => certificates.push(Certificate { index, bytes }),
            Err(Error::Validation(fields)) => errors.extend(fields),
            Err(other) => return Err(other),
        }
    }
    let (Some(state_code), Some(entries), true) = (state_code, entries, errors.is_empty()) else {
        return Err(Error::Validation(errors));
    };
    let keys = put_certificates(svc, tenant_id, certificates).await?;
    let stamps: Vec<NewStamp> = entries
        .into_iter()
        .enumerate()
        .map(|(i, e)| NewStamp {
            denomination: e.denomination,
            reference_no: e.reference_no,
            certificate_blob: keys.iter().find(|(index, _)| *index == i).map(|(_, key)| key.as_str().to_string()),
        })
        .collect();
    match svc.store.load_stamps(tenant_id, &state_code, &stamps, actor).await {
        Ok(rows) => Ok(rows),
        Err(error) => {
            for (_, key) in &keys {
                let _ = svc.blob.delete(key).await;
            }
            Err(error)
        }
    }
}

fn collect(errors: &mut FieldErrors, error: Error) {
    if let Error::Validation(fields) = error {
        errors.extend(fields);
    }
}

/// A certificate PDF: base64 of at most 2 MiB, a PDF the engine opens, 1 to 4 pages.
async fn check_certificate(svc: &Services, tenant_id: TenantId, field: &str, data: &str) -> Result<Vec<u8>, Error> {
    let bytes = decode_base64(field, Some(data), MAX_CERTIFICATE_BYTES)?;
    let owned_field = field.to_string();
    let checked = svc
        .heavy
        .run(Share::Tenant(tenant_id), move || check_pdf(&owned_field, "certificate.pdf".into(), bytes))
        .await??;
    if checked.pages as usize > MAX_CERTIFICATE_PAGES {
        return Err(Error::field(field, format!("a certificate has at most {MAX_CERTIFICATE_PAGES} pages")));
    }
    Ok(checked.bytes)
}

async fn put_certificates(
    svc: &Services,
    tenant_id: TenantId,
    certificates: Vec<Certificate>,
) -> Result<Vec<(usize, BlobKey)>, Error> {
    let mut keys: Vec<(usize, BlobKey)> = Vec::with_capacity(certificates.len());
    for certificate in certificates {
        let file = format!("certificate-{}.pdf", crate::platform::secrets::random_token(12));
        let key = BlobKey::new(["tenant", &tenant_id.to_string(), "stamps", &file])?;
        if let Err(error) = svc.blob.put(&key, Bytes::from(certificate.bytes)).await {
            for (_, written) in &keys {
                let _ = svc.blob.delete(written).await;
            }
            return Err(Error::internal(error));
        }
        keys.push((certificate.index, key));
    }
    Ok(keys)
}

/// An article as a tenant sees it: the shipped one, their edit of it, or their own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArticleView {
    pub article: Article,
    /// Signet ships this article (possibly edited by the tenant).
    pub shipped: bool,
    /// The tenant changed or added it.
    pub edited: bool,
}

/// The articles of a state for the tenant: the shipped ones with the tenant's edits applied,
/// the hidden ones left out, the tenant's own added; ordered by code. A code that names no
/// state has no articles.
pub async fn articles_for(svc: &Services, caller: &Caller, state_code: &str) -> Result<Vec<ArticleView>, Error> {
    if !caller.access.allows(Permission::SendWorkflows) {
        caller.require(Permission::ReadWorkflows)?;
    }
    articles(svc, caller.tenant_id, state_code).await
}

async fn articles(svc: &Services, tenant_id: TenantId, state_code: &str) -> Result<Vec<ArticleView>, Error> {
    let Some(state_code) = stamp::state_code_of(state_code.trim()) else {
        return Ok(Vec::new());
    };
    let edits = svc.store.article_edits(tenant_id, state_code).await?;
    Ok(merge_articles(state_code, stamp::shipped_articles(), &edits))
}

fn merge_articles(state_code: &str, shipped: &[Article], edits: &[ArticleEditRow]) -> Vec<ArticleView> {
    let mut views: Vec<ArticleView> = shipped
        .iter()
        .filter(|a| a.state_code == state_code)
        .map(|a| ArticleView { article: a.clone(), shipped: true, edited: false })
        .collect();
    for edit in edits {
        let at = views.iter().position(|v| v.article.article_code == edit.article_code);
        if edit.hidden {
            if let Some(at) = at {
                views.remove(at);
            }
            continue;
        }
        let (Some(description), Some(duty_kind)) = (edit.description.clone(), edit.duty_kind()) else { continue };
        let article = Article {
            state_code: state_code.to_string(),
            article_code: edit.article_code.clone(),
            description,
            duty_kind,
            fixed_duty: edit.fixed_duty,
            duty_rule: edit.duty_rule.clone().unwrap_or_default(),
            source: edit.source.clone().unwrap_or_else(|| "set by the tenant".into()),
        };
        match at {
            Some(at) => views[at] = ArticleView { article, shipped: true, edited: true },
            None => views.push(ArticleView { article, shipped: false, edited: true }),
        }
    }
    views.sort_by(|a, b| a.article.article_code.cmp(&b.article.article_code));
    views
}

/// A tenant's version of an article, as sent.
pub struct ArticleInput {
    pub description: Option<String>,
    pub duty_kind: Option<String>,
    pub fixed_duty: Option<i64>,
    pub duty_rule: Option<String>,
    pub source: Option<String>,
}

/// Sets the tenant's version of an article of a state (changing a shipped one or adding one).
/// A fixed duty goes with the kind `fixed` and only with it.
pub async fn set_article(
    svc: &Services,
    caller: &Caller,
    state_code: &str,
    article_code: &str,
    input: ArticleInput,
) -> Result<ArticleView, Error> {
    caller.require(Permission::ManageSettings)?;
    let tenant_id = caller.tenant_id;
    let actor = &caller.actor;
    let state_code = path_state(state_code)?;
    let article_code = stamp::check_article_code("articleCode", article_code)?;
    let mut errors = FieldErrors::new();
    let description = stamp::check_article_text("description", input.description.as_deref(), true)
        .map_err(|e| collect(&mut errors, e));
    let duty_rule =
        stamp::check_article_text("dutyRule", input.duty_rule.as_deref(), false).map_err(|e| collect(&mut errors, e));
    let source =
        stamp::check_article_text("source", input.source.as_deref(), false).map_err(|e| collect(&mut errors, e));
    let kind = input.duty_kind.as_deref().and_then(DutyKind::parse);
    if kind.is_none() {
        errors.insert("dutyKind".into(), vec!["must be fixed, ad_valorem or varies".into()]);
    }
    match (kind, input.fixed_duty) {
        (Some(DutyKind::Fixed), Some(duty)) if stamp::check_denomination("fixedDuty", duty).is_err() => {
            errors.insert("fixedDuty".into(), vec!["must be a positive amount in rupees".into()]);
        }
        (Some(DutyKind::Fixed), None) => {
            errors.insert("fixedDuty".into(), vec!["is required when dutyKind is fixed".into()]);
        }
        (Some(DutyKind::AdValorem | DutyKind::Varies), Some(_)) => {
            errors.insert("fixedDuty".into(), vec!["is only given when dutyKind is fixed".into()]);
        }
        _ => {}
    }
    let (Ok(description), Ok(duty_rule), Ok(source), Some(kind), true) =
        (description, duty_rule, source, kind, errors.is_empty())
    else {
        return Err(Error::Validation(errors));
    };
    let edit = ArticleEditRow {
        state_code: state_code.clone(),
        article_code: article_code.clone(),
        description,
        duty_kind: Some(kind.as_str().to_string()),
        fixed_duty: input.fixed_duty,
        duty_rule,
        source,
        hidden: false,
    };
    svc.store.put_article_edit(tenant_id, &edit, actor).await?;
    articles(svc, tenant_id, &state_code)
        .await?
        .into_iter()
        .find(|v| v.article.article_code == article_code)
        .ok_or_else(|| Error::internal("an article just set is not listed"))
}

/// The article no longer applies for the tenant: a shipped one is hidden, their own removed.
pub async fn remove_article(
    svc: &Services,
    caller: &Caller,
    state_code: &str,
    article_code: &str,
) -> Result<(), Error> {
    caller.require(Permission::ManageSettings)?;
    let tenant_id = caller.tenant_id;
    let actor = &caller.actor;
    let state_code = path_state(state_code).map_err(|_| Error::not_found("article"))?;
    let listed = articles(svc, tenant_id, &state_code).await?;
    let Some(view) = listed.iter().find(|v| v.article.article_code == article_code) else {
        return Err(Error::not_found("article"));
    };
    if view.shipped {
        let hidden = ArticleEditRow {
            state_code: state_code.clone(),
            article_code: article_code.to_string(),
            description: None,
            duty_kind: None,
            fixed_duty: None,
            duty_rule: None,
            source: None,
            hidden: true,
        };
        svc.store.put_article_edit(tenant_id, &hidden, actor).await
    } else {
        svc.store.delete_article_edit(tenant_id, &state_code, article_code, actor).await.map(|_| ())
    }
}

/// A state in an address names the resource: its code exactly, as the answers give it.
fn path_state(state_code: &str) -> Result<String, Error> {
    match stamp::state_name(state_code) {
        Some(_) => Ok(state_code.to_string()),
        None => Err(Error::field("stateCode", "must be the ISO 3166-2:IN code of a state (MH, KA, DL, ...)")),
    }
}

/// Checks and stores the tenant's low-stock settings.
pub async fn set_settings(
    svc: &Services,
    caller: &Caller,
    threshold: i64,
    emails: Vec<String>,
) -> Result<StampSettings, Error> {
    caller.require(Permission::ManageSettings)?;
    let tenant_id = caller.tenant_id;
    let actor = &caller.actor;
    let mut errors = FieldErrors::new();
    if !(0..=MAX_LOW_STOCK_THRESHOLD).contains(&threshold) {
        errors.insert("lowStockThreshold".into(), vec![format!("must be 0 (off) to {MAX_LOW_STOCK_THRESHOLD}")]);
    }
    if emails.len() > MAX_ALERT_EMAILS {
        errors.insert("alertEmails".into(), vec![format!("at most {MAX_ALERT_EMAILS} addresses")]);
    }
    for (i, email) in emails.iter().enumerate() {
        if !signet_domain::workflow::is_valid_email(email) {
            errors.insert(format!("alertEmails[{i}]"), vec!["is not an e-mail address".into()]);
        }
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    let settings = StampSettings { low_stock_threshold: threshold, alert_emails: emails };
    svc.store.set_stamp_settings(tenant_id, &settings, actor).await?;
    Ok(settings)
}

/// `stampDetails` of a workflow initiation, as sent.
#[derive(Debug, Clone, Default)]
pub struct StampDetails {
    pub e_stamp_type: Option<String>,
    pub state: Option<String>,
    /// The duty in rupees; 0 takes the article's fixed duty.
    pub denomination: i64,
    pub article_code: Option<String>,
    pub first_party: Option<String>,
    pub second_party: Option<String>,
    pub paid_by: Option<String>,
    pub description: Option<String>,
    pub suppress_page: bool,
    /// With `digital`: the stamp provider's reference of certificates it issued before (at its
    /// portal, say), fetched for the document instead of taken from stock.
    pub provider_ref: Option<String>,
}

/// Longest party name or description on a certificate page.
const MAX_DETAIL_CHARS: usize = 200;
/// Longest provider reference taken (`stampDetails.providerRef`).
pub const MAX_PROVIDER_REF_CHARS: usize = 100;

/// Where a document's stamp duty comes from.
pub enum StampOrder {
    /// Certificates from the tenant's inventory.
    Inventory(StampRequest),
    /// Certificates the stamp provider issues (or issued) for the request.
    Provider(provider::ProviderOrder),
}

/// The PDF of the tenant's certificate `id` as it was loaded or issued, named by its number;
/// `not_found` when there is no such certificate or it has no PDF (its page is then made by
/// Signet from the record).
pub async fn certificate_pdf(svc: &Services, caller: &Caller, id: StampId) -> Result<(String, Bytes), Error> {
    caller.require(Permission::ReadWorkflows)?;
    let tenant_id = caller.tenant_id;
    let row = svc.store.stamp(tenant_id, id).await?.ok_or_else(|| Error::not_found("stamp"))?;
    let Some(blob) = row.certificate_blob.as_deref() else {
        return Err(Error::not_found("stamp certificate PDF"));
    };
    let bytes = svc.blob.get(&BlobKey::parse(blob)?).await?;
    Ok((format!("{}.pdf", row.reference_no.replace('/', "-")), bytes))
}

/// Whether `stampDetails` could be taken now, holding nothing: its fields, and stock that makes
/// up the duty (the provider is asked only when the workflow starts).
pub async fn check_details_for(svc: &Services, caller: &Caller, details: StampDetails) -> Result<(), Error> {
    caller.require(Permission::SendWorkflows)?;
    check_details(svc, caller.tenant_id, details).await
}

pub(crate) async fn check_details(svc: &Services, tenant_id: TenantId, details: StampDetails) -> Result<(), Error> {
    match request_from_details(svc, tenant_id, details).await? {
        Some(order) => check_takeable(svc, tenant_id, &order).await,
        None => Ok(()),
    }
}

/// Whether `order` could be held now, holding nothing: stock that makes up the duty.
async fn check_takeable(svc: &Services, tenant_id: TenantId, order: &StampOrder) -> Result<(), Error> {
    match order {
        StampOrder::Inventory(request) => {
            svc.store.check_stamp_stock(tenant_id, &request.state_code, request.duty).await
        }
        StampOrder::Provider(_) => Ok(()),
    }
}

/// Holds the certificates `order` asks for: reserved from stock, or obtained from the stamp
/// provider and recorded reserved. Out of stock, or a provider's refusal, holds nothing.
pub async fn take(svc: &Services, tenant_id: TenantId, actor: &Actor, order: StampOrder) -> Result<Held, Error> {
    match order {
        StampOrder::Inventory(request) => reserve(svc, tenant_id, request).await,
        StampOrder::Provider(order) => provider::obtain(svc, tenant_id, actor, order).await,
    }
}

/// The stamp duty `stampDetails` asks for, every problem at once (fields named
/// `stampDetails.…`): none without `eStampType`; with `inventory`, a state, an article of the
/// state for the tenant when named, and the duty (given, or the article's fixed duty); with
/// `digital`, the provider's reference of the certificates to fetch (the provider says their
/// state and duty; a state given must be theirs). Nothing is asked of the provider here.
pub async fn request_from_details(
    svc: &Services,
    tenant_id: TenantId,
    details: StampDetails,
) -> Result<Option<StampOrder>, Error> {
    let source =
        stamp::parse_estamp_type(details.e_stamp_type.as_deref()).map_err(|m| Error::field(&field("eStampType"), m))?;
    let mut errors = FieldErrors::new();
    for (name, value) in [
        ("firstParty", &details.first_party),
        ("secondParty", &details.second_party),
        ("stampDutyPaidBy", &details.paid_by),
        ("descriptionOfDocument", &details.description),
    ] {
        if value.as_ref().is_some_and(|v| v.chars().count() > MAX_DETAIL_CHARS || v.chars().any(char::is_control)) {
            errors.insert(
                field(name),
                vec![format!("must be at most {MAX_DETAIL_CHARS} characters without control characters")],
            );
        }
    }
    match source {
        None => Ok(None),
        Some(stamp::EstampSource::Provider) => {
            provider_order(svc, details, errors).map(|o| Some(StampOrder::Provider(o)))
        }
        Some(stamp::EstampSource::Inventory) => {
            inventory_request(svc, tenant_id, details, errors).await.map(|r| Some(StampOrder::Inventory(r)))
        }
    }
}

fn field(name: &str) -> String {
    format!("stampDetails.{name}")
}

async fn inventory_request(
    svc: &Services,
    tenant_id: TenantId,
    details: StampDetails,
    mut errors: FieldErrors,
) -> Result<StampRequest, Error> {
    if details.provider_ref.is_some() {
        errors.insert(
            field("providerRef"),
            vec!["is for certificates of the stamp provider (eStampType digital)".into()],
        );
    }
    let state_code =
        stamp::parse_state_code(&field("state"), details.state.as_deref()).map_err(|e| collect(&mut errors, e)).ok();
    let article = match (&state_code, &details.article_code) {
        (Some(state_code), Some(code)) => {
            let found =
                articles(svc, tenant_id, state_code).await?.into_iter().find(|v| &v.article.article_code == code);
            if found.is_none() {
                errors.insert(field("articleCode"), vec!["is not an article of the state for this tenant".into()]);
            }
            found.map(|v| v.article)
        }
        _ => None,
    };
    let duty = match (details.denomination, article.as_ref().and_then(|a| a.fixed_duty)) {
        (0, Some(fixed)) => Some(fixed),
        (given, _) => {
            stamp::check_denomination(&field("denomination"), given).map_err(|e| collect(&mut errors, e)).ok()
        }
    };
    let (Some(state_code), Some(duty), true) = (state_code, duty, errors.is_empty()) else {
        return Err(Error::Validation(errors));
    };
    Ok(StampRequest {
        state_code,
        duty,
        article,
        description: details.description,
        first_party: details.first_party,
        second_party: details.second_party,
        paid_by: details.paid_by,
        attach_page: !details.suppress_page,
    })
}

/// Certificates the provider issued under `providerRef`, fetched when the workflow starts.
fn provider_order(
    svc: &Services,
    details: StampDetails,
    mut errors: FieldErrors,
) -> Result<provider::ProviderOrder, Error> {
    if provider::HttpProvider::configured(svc).is_none() {
        return Err(Error::field(&field("eStampType"), "digital e-stamping is not configured on this server"));
    }
    let reference = details.provider_ref.as_deref().map(str::trim).unwrap_or_default().to_string();
    if reference.is_empty() {
        errors.insert(
            field("providerRef"),
            vec!["is required: the stamp provider's reference of the certificates".into()],
        );
    } else if reference.chars().count() > MAX_PROVIDER_REF_CHARS || reference.chars().any(char::is_control) {
        errors.insert(
            field("providerRef"),
            vec![format!("must be at most {MAX_PROVIDER_REF_CHARS} characters without control characters")],
        );
    }
    let state_code = match details.state.as_deref().filter(|s| !s.is_empty()) {
        Some(state) => stamp::parse_state_code(&field("state"), Some(state)).map_err(|e| collect(&mut errors, e)).ok(),
        None => None,
    };
    if details.article_code.is_some() {
        errors
            .insert(field("articleCode"), vec!["is for certificates from the inventory (eStampType inventory)".into()]);
    }
    if details.denomination != 0 {
        errors.insert(field("denomination"), vec!["must be 0: the provider's certificates carry their duty".into()]);
    }
    if !errors.is_empty() {
        return Err(Error::Validation(errors));
    }
    Ok(provider::ProviderOrder {
        loan: serde_json::Value::Null,
        purpose: signet_domain::estamp::Purpose::Fetch,
        transaction: format!("fetch/{reference}"),
        reference: Some(reference),
        reference_field: "stampDetails.providerRef",
        state_code,
        duty: 0,
        description: details.description,
        first_party: details.first_party,
        second_party: details.second_party,
        paid_by: details.paid_by,
        attach_page: !details.suppress_page,
    })
}

/// Reserves certificates that make up the request's duty (`out_of_stock` otherwise, and then
/// nothing is held).
pub async fn reserve(svc: &Services, tenant_id: TenantId, request: StampRequest) -> Result<Held, Error> {
    let reservation = crate::platform::secrets::random_token(16);
    let until = now_millis() + RESERVATION_MS;
    let stamps = svc.store.reserve_stamps(tenant_id, &request.state_code, request.duty, &reservation, until).await?;
    Ok(Held::new(reservation, stamps, request))
}

/// Gives back what `held` still holds; a failure is logged (the hold lapses anyway).
pub async fn release(svc: &Services, tenant_id: TenantId, held: &Held) {
    if let Err(error) = svc.store.release_reservation(tenant_id, &held.reservation).await {
        tracing::warn!(%error, "stamp papers held for a document that was not made stay held until the hold lapses");
    }
}

/// The document with the held certificates' pages in front (the tenant's certificate PDF where
/// it was loaded, else a certificate page Signet makes), checked again as an upload is; the
/// document unchanged when the request records the stamps without the page. Answers the
/// document and how many pages went in front.
pub async fn stamp_document(
    svc: &Services,
    tenant_id: TenantId,
    held: &Held,
    pdf: CheckedPdf,
) -> Result<(CheckedPdf, u32), Error> {
    if !held.request().attach_page {
        return Ok((pdf, 0));
    }
    let mut fronts: Vec<Vec<u8>> = Vec::with_capacity(held.stamps.len());
    for stamp in &held.stamps {
        let certificate = match stamp.certificate_blob.as_deref() {
            Some(key) => svc.blob.get(&BlobKey::parse(key)?).await?.to_vec(),
            None => certificate_page(stamp, held.request()),
        };
        fronts.push(certificate);
    }
    svc.heavy
        .run(Share::Tenant(tenant_id), move || {
            let refs: Vec<&[u8]> = fronts.iter().map(Vec::as_slice).collect();
            let before = pdf.pages;
            let bytes = signet_pdf::prepend_pages(&refs, &pdf.bytes)
                .map_err(|e| Error::field("fileData", format!("cannot take the stamp certificate page: {e}")))?;
            let stamped = check_pdf("fileData", pdf.name, bytes)?;
            let added = u32::try_from(stamped.pages - before).map_err(Error::internal)?;
            Ok((stamped, added))
        })
        .await?
}

/// The certificate page Signet makes for a certificate loaded without its PDF.
fn certificate_page(stamp: &StampRow, request: &StampRequest) -> Vec<u8> {
    use signet_pdf::compose::{Block, compose_report};
    let state = stamp::state_name(&stamp.state_code).unwrap_or(&stamp.state_code);
    let article = request.article.as_ref().map_or_else(
        || "not stated".to_string(),
        |a| format!("Article {} - {} ({})", a.article_code, a.description, a.source),
    );
    let or_blank = |v: &Option<String>| v.clone().filter(|s| !s.trim().is_empty()).unwrap_or_else(|| "-".into());
    let blocks = vec![
        Block::KeyValues(vec![
            ("Certificate No.".into(), stamp.reference_no.clone()),
            ("State".into(), format!("{state} ({})", stamp.state_code)),
            ("Stamp duty amount (Rs)".into(), stamp.denomination.to_string()),
            ("Stamp duty paid for this document (Rs)".into(), request.duty.to_string()),
            ("Article".into(), article),
            ("Description of document".into(), or_blank(&request.description)),
            ("First party".into(), or_blank(&request.first_party)),
            ("Second party".into(), or_blank(&request.second_party)),
            ("Stamp duty paid by".into(), or_blank(&request.paid_by)),
        ]),
        Block::Paragraph(
            "This page stands for the pre-purchased e-stamp certificate named above, which the \
             issuing party holds and allocated to the document that follows. It was placed in \
             front of the document before anyone signed."
                .into(),
        ),
    ];
    compose_report("e-Stamp certificate", &blocks, &[])
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LowStock {
    tenant_id: TenantId,
    state_code: String,
    denomination: i64,
    available: i64,
    threshold: i64,
    at: i64,
}

/// The `stamps.low_stock` job: the tenant's webhooks get `stamps.low_stock`, their alert
/// addresses an e-mail. Idempotent per job (the message id and mail dedupe keys are fixed).
pub async fn run_low_stock_job(svc: &Services, job: &signet_store::ClaimedJob) -> Result<(), LowStockJobError> {
    let alert: LowStock = serde_json::from_str(&job.payload).map_err(LowStockJobError::Payload)?;
    let state = stamp::state_name(&alert.state_code).unwrap_or(&alert.state_code).to_string();
    let data = json!({
        "stateCode": alert.state_code, "stateName": state, "denomination": alert.denomination,
        "available": alert.available, "threshold": alert.threshold, "at": alert.at,
    });
    let message_id = format!("msg_stamps_{}", job.id);
    crate::integrations::webhooks::publish(svc, alert.tenant_id, &message_id, "stamps.low_stock", data, None).await?;
    let settings = svc.store.stamp_settings(alert.tenant_id).await?;
    for email in settings.alert_emails {
        let mail = crate::platform::mail::Mail {
            to_email: email.clone(),
            to_name: String::new(),
            subject: format!("Low stamp paper stock: {state} Rs {}", alert.denomination),
            text: format!(
                "{} stamp papers of Rs {} for {state} are left in stock (your alert threshold is {}).\n\
                 Load more with POST /api/v1/stamps before documents that need them are refused.\n",
                alert.available, alert.denomination, alert.threshold
            ),
            html: None,
            attachments: Vec::new(),
        };
        crate::platform::mail::enqueue(&svc.store, &mail, Some(format!("{message_id}:{email}"))).await?;
    }
    Ok(())
}

/// Why a `stamps.low_stock` job failed; its text is the queue job's stored error, as before.
#[derive(Debug, thiserror::Error)]
pub enum LowStockJobError {
    /// The job's payload is not an alert (Signet wrote it: a bug, kept with its cause).
    #[error("bad low-stock job: {0}")]
    Payload(#[source] serde_json::Error),
    /// Publishing the webhook, reading the settings or queueing the e-mails.
    #[error(transparent)]
    Domain(#[from] Error),
}

/// The state as the API shows it: a reservation that lapsed is stock again.
pub fn shown_state(row: &StampRow) -> StampState {
    row.state_at(now_millis())
}

/// One page of the tenant's inventory (reading workflows) and how many match `filter`.
pub async fn inventory(
    svc: &Services,
    caller: &Caller,
    filter: &StampFilter,
    offset: i64,
    size: i64,
) -> Result<(Vec<StampRow>, i64), Error> {
    caller.require(Permission::ReadWorkflows)?;
    svc.store.stamps(caller.tenant_id, filter, offset, size).await
}

/// One certificate of the tenant (reading workflows); another tenant's reads as missing.
pub async fn stamp(svc: &Services, caller: &Caller, id: StampId) -> Result<StampRow, Error> {
    caller.require(Permission::ReadWorkflows)?;
    svc.store.stamp(caller.tenant_id, id).await?.ok_or_else(|| Error::not_found("stamp"))
}

/// Retires a certificate in stock (managing settings): it is never taken again.
pub async fn retire(svc: &Services, caller: &Caller, id: StampId) -> Result<StampRow, Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.retire_stamp(caller.tenant_id, id, &caller.actor).await
}

/// The stock per state and denomination (of one state, when given), with the tenant's
/// low-stock alert it is marked against (reading workflows).
pub async fn stock(
    svc: &Services,
    caller: &Caller,
    state_code: Option<&str>,
) -> Result<(Vec<StockRow>, StampSettings), Error> {
    caller.require(Permission::ReadWorkflows)?;
    let alert = svc.store.stamp_settings(caller.tenant_id).await?;
    Ok((svc.store.stamp_stock(caller.tenant_id, state_code).await?, alert))
}

/// One state and denomination's stock as the API and the console show it, marked low
/// against the tenant's threshold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StockLevel {
    pub state: String,
    pub denomination: i64,
    pub available: i64,
    pub reserved: i64,
    pub allocated: i64,
    pub retired: i64,
    /// Available stock is at or below the tenant's threshold (never when alerts are off).
    pub low: bool,
}

/// The stock rows with low stock marked against `threshold`.
pub fn stock_levels(rows: Vec<StockRow>, threshold: i64) -> Vec<StockLevel> {
    rows.into_iter()
        .map(|r| StockLevel {
            low: stamp::is_low_stock(r.available, threshold),
            state: r.state_code,
            denomination: r.denomination,
            available: r.available,
            reserved: r.reserved,
            allocated: r.allocated,
            retired: r.retired,
        })
        .collect()
}

/// The tenant's low-stock alert settings (managing settings).
pub async fn settings(svc: &Services, caller: &Caller) -> Result<StampSettings, Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.stamp_settings(caller.tenant_id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(code: &str, hidden: bool, fixed: Option<i64>) -> ArticleEditRow {
        ArticleEditRow {
            state_code: "DL".into(),
            article_code: code.into(),
            description: (!hidden).then(|| "Edited".into()),
            duty_kind: (!hidden).then(|| if fixed.is_some() { "fixed" } else { "varies" }.into()),
            fixed_duty: fixed,
            duty_rule: None,
            source: None,
            hidden,
        }
    }

    #[test]
    fn edits_change_hide_and_add_articles() {
        let shipped = stamp::shipped_articles();
        let plain = merge_articles("DL", shipped, &[]);
        assert!(plain.iter().all(|v| v.shipped && !v.edited && v.article.state_code == "DL"));
        let edits = [edit("5(c)", false, Some(100)), edit("4", true, None), edit("99X", false, None)];
        let merged = merge_articles("DL", shipped, &edits);
        let find = |code: &str| merged.iter().find(|v| v.article.article_code == code);
        assert_eq!(find("5(c)").map(|v| (v.article.fixed_duty, v.shipped, v.edited)), Some((Some(100), true, true)));
        assert!(find("4").is_none(), "hidden");
        assert_eq!(find("99X").map(|v| (v.shipped, v.edited)), Some((false, true)));
        assert_eq!(merged.len(), plain.len());
    }
}
