//! A workflow's invoices (docs/stamps.md, "Invoices"): the platform operator (the installation's
//! supplier) bills the tenant (its billing profile) with a tax invoice for the fee per workflow,
//! GST split by place of supply, and a debit note for the stamp duty of the certificates the
//! workflow took, reimbursed as a pure agent without GST. Each is a numbered PDF, issued once:
//! made and stored inside the transaction that numbers it, then only read back.

use std::sync::Arc;

use bytes::Bytes;
use signet_blob::BlobKey;
use signet_domain::invoice::{
    Gst, InvoiceKind, Party, PartyFields, PartyInput, check_party, check_sac, format_rupees, gst, issued_window,
    ist_date, rate_from_percent, state_label,
};
use signet_domain::paging::Page;
use signet_domain::stamp::StampState;
use signet_domain::workflow::WorkflowState;
use signet_domain::{Error, ErrorCode, FieldErrors, Millis, TenantId, WorkflowId};
use signet_pdf::compose::{Block, compose_report};
use signet_store::{
    BillingProfileRow, InvoiceFilter, InvoiceRow, IssueNumbers, Issued, NewInvoice, StampRow, WorkflowRow,
};

use crate::workflows::documents::sha256_hex;
use crate::{Config, Services};

/// The platform operator as it invoices tenants, from the installation's configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Supplier {
    pub party: Party,
    /// The services accounting code the fee is invoiced under.
    pub sac: String,
    /// The fee per workflow, in paise, before GST.
    pub fee_paise: i64,
    /// The GST rate on the fee, in hundredths of a percent.
    pub rate_bp: i64,
}

/// Why the installation's supplier cannot be used: each names the configuration keys to mend,
/// so that the start stops with words an operator can act on.
#[derive(Debug, thiserror::Error)]
pub enum SupplierError {
    /// Supplier keys missing or wrong, each key with its problems.
    #[error("{}", keyed(.0))]
    Keys(signet_domain::FieldErrors),
    /// The supplier's party refused for another reason.
    #[error(transparent)]
    Party(Error),
    #[error("invoice_sac must be a services accounting code of six digits starting with 99")]
    Sac,
    #[error("invoice_fee_paise is too large")]
    FeeTooLarge,
    #[error("invoice_gst_rate_percent must be 0 to 100 with at most two decimals")]
    Rate,
}

/// `key problem; problem, key problem`: the configuration keys with what is wrong with each.
fn keyed(fields: &signet_domain::FieldErrors) -> String {
    let each: Vec<String> = fields.iter().map(|(key, messages)| format!("{key} {}", messages.join("; "))).collect();
    each.join(", ")
}

/// The configuration keys of the supplier, as errors name them.
const SUPPLIER_KEYS: PartyFields<'static> = PartyFields {
    legal_name: "invoice_supplier_name",
    address: "invoice_supplier_address",
    gstin: "invoice_supplier_gstin",
    state_code: "invoice_supplier_state",
};

impl Supplier {
    /// `None` when the installation names no supplier (then no invoices are issued); an error
    /// when it names one partly or wrongly, so that a typo stops the start instead of the
    /// first invoice.
    pub fn from_config(config: &Config) -> Result<Option<Supplier>, SupplierError> {
        // Configuration files and the environment are forgiven spaces and lower case.
        let gstin = config.invoice_supplier_gstin.as_deref().map(|g| g.trim().to_ascii_uppercase());
        let state = config.invoice_supplier_state.as_deref().map(|s| s.trim().to_ascii_uppercase());
        let input = PartyInput {
            legal_name: config.invoice_supplier_name.as_deref(),
            address: config.invoice_supplier_address.as_deref(),
            gstin: gstin.as_deref(),
            state_code: state.as_deref(),
        };
        let given = [input.legal_name, input.address, input.gstin, input.state_code];
        if given.iter().all(Option::is_none) {
            return Ok(None);
        }
        let party = check_party(&input, &SUPPLIER_KEYS, true).map_err(|e| match e {
            Error::Validation(fields) => SupplierError::Keys(fields),
            other => SupplierError::Party(other),
        })?;
        if !check_sac(&config.invoice_sac) {
            return Err(SupplierError::Sac);
        }
        let fee_paise = i64::try_from(config.invoice_fee_paise).map_err(|_| SupplierError::FeeTooLarge)?;
        let rate_bp = rate_from_percent(config.invoice_gst_rate_percent).ok_or(SupplierError::Rate)?;
        Ok(Some(Supplier { party, sac: config.invoice_sac.clone(), fee_paise, rate_bp }))
    }
}

/// The billing profile's fields as the API names them.
const PROFILE_FIELDS: PartyFields<'static> =
    PartyFields { legal_name: "legalName", address: "address", gstin: "gstin", state_code: "stateCode" };

/// Sets the tenant's billing profile: every field checked at once; a GSTIN, when given, must
/// be registered in the profile's state (the place of supply).
pub async fn set_billing_profile(
    svc: &Services,
    caller: &crate::Caller,
    input: PartyInput<'_>,
) -> Result<BillingProfileRow, Error> {
    caller.require(signet_domain::access::Permission::ManageSettings)?;
    let tenant_id = caller.tenant_id;
    let actor = &caller.actor;
    let party = check_party(&input, &PROFILE_FIELDS, false)?;
    svc.store.put_billing_profile(tenant_id, &party, actor).await?;
    svc.store.billing_profile(tenant_id).await?.ok_or_else(|| Error::internal("the billing profile was not saved"))
}

/// One document as issued.
#[derive(Debug, Clone)]
pub struct IssuedDocument {
    pub number: String,
    pub issued_at: Millis,
    pub total_paise: i64,
    /// The PDF, byte for byte as issued.
    pub pdf: Vec<u8>,
}

/// A workflow's documents.
#[derive(Debug, Clone)]
pub struct WorkflowInvoices {
    pub invoice: Option<IssuedDocument>,
    pub debit_note: Option<IssuedDocument>,
    /// The invoice's total (fee and GST) and the debit note's.
    pub total_paise: i64,
    /// Issued by this call (else issued before and read back).
    pub created: bool,
}

fn check_workflow_id(id: i64) -> Result<WorkflowId, Error> {
    if id <= 0 {
        return Err(Error::field("workflowId", "must be a workflow id (a positive number)"));
    }
    Ok(WorkflowId::from(id))
}

/// Issues the invoice (and, when the workflow took stamp papers, the debit note) of a workflow
/// of the tenant, or answers the ones issued before, unchanged.
pub async fn issue(svc: &Services, caller: &crate::Caller, id: i64) -> Result<WorkflowInvoices, Error> {
    caller.require(signet_domain::access::Permission::ManageSettings)?;
    let tenant_id = caller.tenant_id;
    let actor = &caller.actor;
    let workflow_id = check_workflow_id(id)?;
    let existing = svc.store.workflow_invoices(tenant_id, workflow_id).await?;
    if !existing.is_empty() {
        return read_back(svc, existing, false).await;
    }
    let bill = Arc::new(billable(svc, tenant_id, workflow_id).await?);
    let debit_note = !bill.stamps.is_empty();
    let keys = blob_keys(tenant_id, workflow_id, debit_note)?;
    // The documents are stored inside the numbering transaction: their data key is had first.
    for (_, key) in &keys {
        svc.blob.ready_to_write(key).await?;
    }
    let made = {
        let (bill, keys, blob) = (bill.clone(), keys.clone(), svc.blob.clone());
        move |numbers: IssueNumbers| async move { make_documents(&blob, &bill, &keys, &numbers).await }
    };
    match svc.store.issue_invoices(tenant_id, workflow_id, debit_note, actor, made).await {
        Ok(Issued::New(rows)) => read_back(svc, rows, true).await,
        // Another request issued them first (it held the tenant's lock); ours made nothing.
        Ok(Issued::Existing(rows)) => read_back(svc, rows, false).await,
        Err(error) => {
            for (_, key) in &keys {
                let _ = svc.blob.delete(key).await;
            }
            Err(error)
        }
    }
}

/// What a workflow's documents show, once everything they need is there: the workflow (of the
/// tenant, not deleted), a supplier, the tenant's billing profile; and the workflow must have
/// ended, because until then its certificates may still go back to stock (and be taken again),
/// while a document once issued is never changed.
async fn billable(svc: &Services, tenant_id: TenantId, workflow_id: WorkflowId) -> Result<Bill, Error> {
    let workflow = crate::workflows::actions::visible_workflow(svc, tenant_id, workflow_id).await?;
    let supplier = svc.invoicing.clone().ok_or_else(|| {
        Error::rejected(
            ErrorCode::InvoicingNotConfigured,
            "this installation names no supplier for invoices (invoice_supplier_name, invoice_supplier_address, \
             invoice_supplier_gstin, invoice_supplier_state); nothing was issued",
        )
    })?;
    let recipient = svc.store.billing_profile(tenant_id).await?.map(|p| p.party()).ok_or_else(|| {
        Error::rejected(
            ErrorCode::BillingProfileRequired,
            "set the tenant's billing profile (PUT /api/v1/stamps/billing-profile) first; nothing was issued",
        )
    })?;
    if workflow.state() == WorkflowState::InProgress {
        return Err(Error::rejected(
            ErrorCode::StateConflict,
            "the workflow is in progress: it is invoiced once it has ended (completed, declined, expired or made \
             inactive), when its stamp duty is final; nothing was issued",
        ));
    }
    let stamps = svc
        .store
        .workflow_stamps(tenant_id, workflow_id)
        .await?
        .into_iter()
        .filter(|s| matches!(s.state, StampState::Allocated | StampState::Retired))
        .collect();
    Ok(Bill { supplier, recipient, workflow, stamps })
}

/// The documents issued for a workflow of the tenant (also after the workflow was deleted:
/// they are records of their own); `not_found` before they are issued.
pub async fn fetch(svc: &Services, caller: &crate::Caller, id: i64) -> Result<WorkflowInvoices, Error> {
    caller.require(signet_domain::access::Permission::ReadWorkflows)?;
    let tenant_id = caller.tenant_id;
    let workflow_id = check_workflow_id(id)?;
    let rows = svc.store.workflow_invoices(tenant_id, workflow_id).await?;
    if rows.is_empty() {
        return Err(Error::not_found("invoice"));
    }
    read_back(svc, rows, false).await
}

/// What a listing of the tenant's documents asks for, as sent.
#[derive(Debug, Default, Clone)]
pub struct ListInput<'a> {
    /// The first IST day of issue, `YYYY-MM-DD`.
    pub issued_from: Option<&'a str>,
    /// The last IST day of issue, `YYYY-MM-DD`.
    pub issued_to: Option<&'a str>,
    pub workflow_id: Option<i64>,
    pub page_number: Option<i64>,
    pub page_size: Option<i64>,
}

/// One page of the documents issued to the tenant (without their PDFs).
#[derive(Debug, Clone)]
pub struct IssuedPage {
    pub rows: Vec<InvoiceRow>,
    pub page: Page,
    pub total_count: i64,
}

/// The documents issued to the tenant, newest first, a page at a time: every parameter checked
/// at once (paging as every list, dates as IST days with both ends included, a positive
/// workflow id). Another tenant's documents are never listed.
pub async fn list(svc: &Services, caller: &crate::Caller, input: ListInput<'_>) -> Result<IssuedPage, Error> {
    caller.require(signet_domain::access::Permission::ReadWorkflows)?;
    let tenant_id = caller.tenant_id;
    let mut errors = FieldErrors::new();
    let page = Page::parse(input.page_number, input.page_size).map_err(|e| collect(&mut errors, e)).ok();
    let window = issued_window(input.issued_from, input.issued_to).map_err(|e| collect(&mut errors, e)).ok();
    if input.workflow_id.is_some_and(|id| id <= 0) {
        errors.insert("workflowId".into(), vec!["must be a workflow id (a positive number)".into()]);
    }
    let (Some(page), Some(window), true) = (page, window, errors.is_empty()) else {
        return Err(Error::Validation(errors));
    };
    let filter = InvoiceFilter { issued_from: window.from, issued_until: window.until, workflow_id: input.workflow_id };
    let (rows, total_count) = svc.store.invoices(tenant_id, &filter, page.offset(), page.size).await?;
    Ok(IssuedPage { rows, page, total_count })
}

fn collect(errors: &mut FieldErrors, error: Error) {
    if let Error::Validation(fields) = error {
        errors.extend(fields);
    }
}

/// One document issued for a workflow of the tenant, its PDF as issued; `not_found` when the
/// workflow has no document of that kind (or is not the tenant's).
pub async fn document(
    svc: &Services,
    caller: &crate::Caller,
    id: i64,
    kind: InvoiceKind,
) -> Result<IssuedDocument, Error> {
    caller.require(signet_domain::access::Permission::ReadWorkflows)?;
    let tenant_id = caller.tenant_id;
    // Only the asked-for document's PDF is read from the blob store.
    let workflow_id = check_workflow_id(id)?;
    let rows = svc.store.workflow_invoices(tenant_id, workflow_id).await?;
    let issued = read_back(svc, rows.into_iter().filter(|row| row.kind == kind).collect(), false).await?;
    let document = match kind {
        InvoiceKind::Invoice => issued.invoice,
        InvoiceKind::DebitNote => issued.debit_note,
    };
    document.ok_or(Error::not_found("invoice document"))
}

/// The PDFs of issued documents from the blob store, checked against the hash recorded when
/// they were issued.
async fn read_back(svc: &Services, rows: Vec<InvoiceRow>, created: bool) -> Result<WorkflowInvoices, Error> {
    let mut answer = WorkflowInvoices { invoice: None, debit_note: None, total_paise: 0, created };
    for row in rows {
        let key = BlobKey::parse(&row.document_blob).map_err(Error::internal)?;
        let pdf = svc.blob.get(&key).await.map_err(Error::internal)?.to_vec();
        if sha256_hex(&pdf) != row.document_sha256 {
            return Err(Error::internal(format!("the stored PDF of {} is not the one issued", row.number)));
        }
        answer.total_paise += row.total_paise;
        let document =
            IssuedDocument { number: row.number, issued_at: row.issued_at, total_paise: row.total_paise, pdf };
        match row.kind {
            InvoiceKind::Invoice => answer.invoice = Some(document),
            InvoiceKind::DebitNote => answer.debit_note = Some(document),
        }
    }
    Ok(answer)
}

/// Everything a workflow's documents show.
struct Bill {
    supplier: Arc<Supplier>,
    recipient: Party,
    workflow: WorkflowRow,
    stamps: Vec<StampRow>,
}

/// Fresh blob keys for the documents, chosen before numbering so that a failed issue can
/// remove whatever it stored.
fn blob_keys(
    tenant_id: TenantId,
    workflow_id: WorkflowId,
    debit_note: bool,
) -> Result<Vec<(InvoiceKind, BlobKey)>, Error> {
    let mut kinds = vec![InvoiceKind::Invoice];
    if debit_note {
        kinds.push(InvoiceKind::DebitNote);
    }
    kinds
        .into_iter()
        .map(|kind| {
            let file = format!("{workflow_id}-{}-{}.pdf", kind.as_str(), crate::platform::secrets::random_token(12));
            let key = BlobKey::new(["tenant", &tenant_id.to_string(), "invoices", &file]).map_err(Error::internal)?;
            Ok((kind, key))
        })
        .collect()
}

/// Makes and stores the documents with their numbers (inside the numbering transaction).
async fn make_documents(
    blob: &signet_blob::BlobStore,
    bill: &Bill,
    keys: &[(InvoiceKind, BlobKey)],
    numbers: &IssueNumbers,
) -> Result<Vec<NewInvoice>, Error> {
    let mut documents = Vec::with_capacity(keys.len());
    for (kind, key) in keys {
        let (pdf, amounts) = match kind {
            InvoiceKind::Invoice => invoice_pdf(bill, numbers),
            InvoiceKind::DebitNote => debit_note_pdf(bill, numbers),
        };
        let document_sha256 = sha256_hex(&pdf);
        blob.put(key, Bytes::from(pdf)).await.map_err(Error::internal)?;
        documents.push(NewInvoice {
            kind: *kind,
            taxable_paise: amounts.taxable,
            tax_paise: amounts.tax,
            total_paise: amounts.taxable + amounts.tax,
            document_blob: key.as_str().to_string(),
            document_sha256,
        });
    }
    Ok(documents)
}

struct Amounts {
    taxable: i64,
    tax: i64,
}

fn rs(paise: i64) -> String {
    format!("Rs {}", format_rupees(paise))
}

/// Label and value pairs, one line each (a report's key-value block takes two lines a pair,
/// which would push a one-page invoice onto a second page).
fn lines(pairs: &[(&str, String)]) -> Block {
    let text: Vec<String> = pairs.iter().map(|(label, value)| format!("{label}: {value}")).collect();
    Block::Paragraph(text.join("\n"))
}

fn party_block(party: &Party) -> Block {
    lines(&[
        ("Name", party.legal_name.clone()),
        ("Address", party.address.replace('\n', ", ")),
        ("GSTIN", party.gstin.clone().unwrap_or_else(|| "Unregistered".into())),
        ("State", state_label(&party.state_code)),
    ])
}

fn parties(bill: &Bill) -> Vec<Block> {
    vec![
        Block::Heading("Supplier".into()),
        party_block(&bill.supplier.party),
        Block::Heading("Recipient".into()),
        party_block(&bill.recipient),
    ]
}

fn workflow_line(workflow: &WorkflowRow) -> String {
    match &workflow.reference_no {
        Some(reference) => format!("{} (id {}, reference {reference})", workflow.name, workflow.id),
        None => format!("{} (id {})", workflow.name, workflow.id),
    }
}

/// The tax invoice: the fee for the workflow, GST by place of supply, totals.
fn invoice_pdf(bill: &Bill, numbers: &IssueNumbers) -> (Vec<u8>, Amounts) {
    let supplier = &bill.supplier;
    let taxable = supplier.fee_paise;
    let tax = gst(taxable, supplier.rate_bp, &supplier.party.state_code, &bill.recipient.state_code);
    let mut blocks = vec![lines(&[
        ("Invoice number", numbers.invoice.clone()),
        ("Invoice date", ist_date(numbers.issued_at).long()),
        ("Place of supply", state_label(&bill.recipient.state_code)),
        ("Tax payable on reverse charge", "No".into()),
        ("Workflow", workflow_line(&bill.workflow)),
    ])];
    blocks.extend(parties(bill));
    blocks.push(Block::Heading("Particulars".into()));
    blocks.push(Block::Mono(vec![
        format!("{:<4}{:<44}{:<8}{:>4}{:>20}", "No", "Description", "SAC", "Qty", "Taxable value (Rs)"),
        format!(
            "{:<4}{:<44}{:<8}{:>4}{:>20}",
            "1",
            format!("Document signing services, workflow {}", bill.workflow.id),
            supplier.sac,
            "1",
            format_rupees(taxable)
        ),
    ]));
    blocks.push(Block::Heading("Amounts".into()));
    let taxes = tax.lines(supplier.rate_bp);
    let mut amounts = vec![("Taxable value", rs(taxable))];
    amounts.extend(taxes.iter().map(|(label, paise)| (label.as_str(), rs(*paise))));
    amounts.push(("Total tax", rs(tax.total())));
    amounts.push(("Invoice total", rs(taxable + tax.total())));
    blocks.push(lines(&amounts));
    blocks.push(Block::Paragraph(tax_note(tax, numbers)));
    let pdf = compose_report(&format!("Tax Invoice {}", numbers.invoice), &blocks, &[]);
    (pdf, Amounts { taxable, tax: tax.total() })
}

fn tax_note(tax: Gst, numbers: &IssueNumbers) -> String {
    let split = match tax {
        Gst::IntraState { .. } => "The place of supply is in the supplier's state: central and state GST.",
        Gst::InterState { .. } => "The place of supply is outside the supplier's state: integrated GST.",
    };
    let duty = match &numbers.debit_note {
        Some(note) => format!(" The stamp duty of the workflow is billed on debit note {note}, without GST."),
        None => String::new(),
    };
    format!("Amounts in Indian rupees; each tax rounded to the paisa. {split}{duty}")
}

/// The debit note: each certificate the workflow took and its amount, reimbursed as a pure
/// agent (no GST).
fn debit_note_pdf(bill: &Bill, numbers: &IssueNumbers) -> (Vec<u8>, Amounts) {
    let number = numbers.debit_note.clone().unwrap_or_default();
    let mut blocks = vec![lines(&[
        ("Debit note number", number.clone()),
        ("Date", ist_date(numbers.issued_at).long()),
        ("Place of supply", state_label(&bill.recipient.state_code)),
        ("Tax invoice of the workflow", numbers.invoice.clone()),
        ("Workflow", workflow_line(&bill.workflow)),
    ])];
    blocks.extend(parties(bill));
    blocks.push(Block::Heading("Stamp duty paid on the recipient's behalf".into()));
    let mut rows = vec![format!("{:<4}{:<36}{:<28}{:>12}", "No", "e-Stamp certificate", "State", "Amount (Rs)")];
    let mut total = 0_i64;
    for (i, stamp) in bill.stamps.iter().enumerate() {
        let paise = stamp.denomination.saturating_mul(100);
        total += paise;
        let state = state_label(&stamp.state_code);
        rows.push(format!("{:<4}{:<36}{:<28}{:>12}", i + 1, stamp.reference_no, state, format_rupees(paise)));
    }
    blocks.push(Block::Mono(rows));
    blocks.push(lines(&[
        ("Total stamp duty", rs(total)),
        ("GST", "not charged (reimbursement of expenses incurred as a pure agent)".into()),
        ("Debit note total", rs(total)),
    ]));
    blocks.push(Block::Paragraph(
        "The supplier paid this stamp duty as the recipient's pure agent (Rule 33 of the CGST Rules, 2017): the \
         e-stamp certificates are in the recipient's name, the duty is recovered at its actual amount, and it is \
         not part of the value of the supplier's own services. Amounts in Indian rupees."
            .into(),
    ));
    let pdf = compose_report(&format!("Debit Note {number}"), &blocks, &[]);
    (pdf, Amounts { taxable: total, tax: 0 })
}

/// The tenant's billing profile, if it has set one (managing settings: it is read with the
/// permission that changes it).
pub async fn billing_profile(svc: &Services, caller: &crate::Caller) -> Result<Option<BillingProfileRow>, Error> {
    caller.require(signet_domain::access::Permission::ManageSettings)?;
    svc.store.billing_profile(caller.tenant_id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_supplier_is_all_or_nothing() {
        let none = Config::default();
        assert!(matches!(Supplier::from_config(&none), Ok(None)));
        let partial = Config { invoice_supplier_name: Some("Signet Services Pvt Ltd".into()), ..Config::default() };
        let error = Supplier::from_config(&partial).expect_err("partial").to_string();
        assert!(error.contains("invoice_supplier_gstin") && error.contains("invoice_supplier_state"), "{error}");
        let full = Config {
            invoice_supplier_name: Some("Signet Services Pvt Ltd".into()),
            invoice_supplier_address: Some("1 Residency Road, Bengaluru 560025".into()),
            invoice_supplier_gstin: Some(" 27aapfu0939f1zv".into()),
            invoice_supplier_state: Some("KA".into()),
            ..Config::default()
        };
        let error = Supplier::from_config(&full).expect_err("GSTIN of another state").to_string();
        assert!(error.contains("invoice_supplier_gstin"), "{error}");
        let full = Config { invoice_supplier_state: Some("MH".into()), invoice_fee_paise: 50_000, ..full };
        let supplier = Supplier::from_config(&full).expect("valid").expect("configured");
        assert_eq!((supplier.fee_paise, supplier.rate_bp, supplier.sac.as_str()), (50_000, 1800, "998314"));
        let bad_rate = Config { invoice_gst_rate_percent: 18.123, ..full.clone() };
        assert!(Supplier::from_config(&bad_rate).is_err());
        let bad_sac = Config { invoice_sac: "123".into(), ..full };
        assert!(Supplier::from_config(&bad_sac).is_err());
    }
}
