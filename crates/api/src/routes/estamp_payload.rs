//! The loan record of digital e-stamping (`eStampPayload` of `initiate-and-sign`,
//! docs/estamp-provider.md): the spec's objects under their names, strict about their shapes;
//! the rules on their values are the domain's (`signet_domain::estamp`), and what the record
//! asks for becomes a [`ProviderOrder`] and the signers' boxes.
#![allow(non_snake_case)]

use serde::{Deserialize, Serialize};
use signet_domain::Error;
use signet_domain::estamp::{LoanFacts, Purpose, check_loan};
use signet_domain::placement::{PageRef, PlacedBox, Placement};
use signet_domain::stamp::{self, EstampSource};
use signet_services::stamps::provider::ProviderOrder;
use utoipa::ToSchema;

/// The spec's `EstampPayload`: the loan record a stamp provider issues the certificates for.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EstampPayload {
    pub loan: Option<Loan>,
}

/// The spec's `Loan`. Dates are `YYYY-MM-DD` or `DD-MM-YYYY`, amounts rupees as digits with up
/// to two decimals, flags `Y`/`N`; `state` is the duty's state (its ISO 3166-2:IN code or name).
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Loan {
    #[schema(max_length = 64)]
    pub txnID: Option<String>,
    /// Required.
    #[schema(max_length = 50)]
    pub loanno: Option<String>,
    #[schema(max_length = 50)]
    pub snctnno: Option<String>,
    pub regType: Option<String>,
    pub signFlag: Option<String>,
    pub estampFlag: Option<String>,
    pub f2f: Option<String>,
    #[schema(schema_with = super::schemas::loan_state)]
    pub state: Option<String>,
    /// One entry per certificate to issue (1 to 10); required unless fetching by reference.
    #[schema(max_items = 10)]
    pub estampdtls: Option<Vec<EstampDetail>>,
    /// The parties who sign, `seqno` 1, 2, ... in signing order (1 to 10).
    #[schema(max_items = 10)]
    pub prtcptentty: Option<Vec<Participant>>,
    pub loandtls: Option<Loandtls>,
    /// Where each participant signs: `coordinates` entries `page,left,top,width,height`
    /// (points from the page's top-left corner, pages of the document as sent).
    #[schema(max_items = 10)]
    pub eSignCordinates: Option<Vec<ESignCoordinate>>,
    /// At most one document: `docData` may carry it instead of `fileData`.
    #[schema(max_items = 1)]
    pub documentdtls: Option<Vec<DocumentDtl>>,
    #[schema(max_items = 20)]
    pub scrtydtls: Option<Vec<SecurityDetail>>,
    pub entty_dtls: Option<EntityDetails>,
}

/// The spec's `EstampDetail`: one certificate to issue.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EstampDetail {
    pub firstparty: Option<String>,
    pub secondparty: Option<String>,
    /// Whole rupees.
    pub stampDutyAmount: Option<String>,
    pub considerationPrice: Option<String>,
    pub descriptionofDocument: Option<String>,
    pub stampdutyPaidby: Option<String>,
    pub articleCode: Option<String>,
    pub documentID: Option<String>,
    pub firstPartyOVDType: Option<String>,
    pub firstPartyOVDValue: Option<String>,
    pub secondPartyOVDType: Option<String>,
    pub secondPartyOVDValue: Option<String>,
    /// A six-digit PIN code, or 0.
    #[serde(default)]
    pub firstPartyPin: i32,
    #[serde(default)]
    pub secondPartyPin: i32,
}

/// The spec's `Participant`: a party to the loan who signs.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Participant {
    /// Digits; `eSignCordinates` refer to it.
    pub prtcptenttyId: Option<String>,
    pub fulnm: Option<String>,
    pub cntrprtycntnm: Option<String>,
    pub cntrprtyaddr: Option<String>,
    pub reltocntrct: Option<String>,
    /// Required: the signing link goes there.
    pub emlid: Option<String>,
    pub cntrprtycntmobno: Option<String>,
    pub panno: Option<String>,
    pub ovdtype: Option<String>,
    pub ovdid: Option<String>,
    pub doi: Option<String>,
    pub lglcnstn: Option<String>,
    pub partytyp: Option<String>,
    /// The signing order, from 1.
    #[serde(default)]
    pub seqno: i32,
}

/// The spec's `Loandtls`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Loandtls {
    pub loanno: Option<String>,
    pub snctnno: Option<String>,
    pub dtofsnctn: Option<String>,
    pub emiamt: Option<String>,
    pub rtofint: Option<String>,
    pub snctnamt: Option<String>,
    pub tenure: Option<String>,
    pub ntrofcrdt: Option<String>,
    pub isacctclosed: Option<String>,
    pub fundtyp: Option<String>,
    pub currofsanc: Option<String>,
    pub crdtsubtyp: Option<String>,
    pub fcltynm: Option<String>,
    pub amtovrdue: Option<String>,
    pub chgamt: Option<String>,
    pub dtofdbrs: Option<String>,
    pub intamt: Option<String>,
    pub oldaccno: Option<String>,
    pub priamt: Option<String>,
    pub remarkparta: Option<String>,
    pub toutstndamt: Option<String>,
    pub bu: Option<String>,
    pub dp: Option<String>,
    pub loc: Option<String>,
    pub rpyfrq: Option<String>,
    pub lndngarrg: Option<String>,
    pub dpd: Option<String>,
}

/// The spec's `ESignCoordinate`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ESignCoordinate {
    #[serde(default)]
    pub prtcptenttyId: i32,
    #[serde(default)]
    pub documentID: i32,
    /// `page,left,top,width,height`, 1 to 20 boxes.
    #[schema(max_items = 20)]
    pub coordinates: Option<Vec<String>>,
}

/// The spec's `DocumentDtl`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentDtl {
    pub documentID: Option<String>,
    /// The PDF, base64 (instead of `fileData`).
    pub docData: Option<String>,
    pub docRefNo: Option<String>,
}

/// The spec's `SecurityDetail`.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SecurityDetail {
    pub loanno: Option<String>,
    pub dscofscrty: Option<String>,
    pub asstyp: Option<String>,
    pub typofchrg: Option<String>,
    pub assetid: Option<String>,
    pub dtofcrtn: Option<String>,
    pub dtofvltn: Option<String>,
    pub scrtyidcersai: Option<String>,
    pub scrtyidroc: Option<String>,
    pub vlofscrty: Option<String>,
}

/// The spec's `EntityDetails`: the borrowing entity.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EntityDetails {
    pub entty_pan: Option<String>,
    pub entty_name: Option<String>,
    pub lgl_cnstn: Option<String>,
    pub doi: Option<String>,
    pub eml_id: Option<String>,
    pub reg_addr: Option<String>,
    pub reg_pin: Option<String>,
    pub comm_addr: Option<String>,
    pub cntct_no: Option<String>,
    pub comm_pin: Option<String>,
}

/// What a request's e-stamp fields ask of the provider.
pub struct DigitalStamp {
    pub loan: Option<serde_json::Value>,
    pub facts: Option<LoanFacts>,
    pub purpose: Purpose,
}

/// The request's digital e-stamping, checked: none unless `eStampType` is `digital`;
/// then a loan record (to issue), or `fetchEstampDeatilsUsingRefNo` with `referenceNo` (to
/// fetch, the record optional: its participants still sign).
pub fn digital_stamp(
    e_stamp_type: Option<&str>,
    payload: Option<&EstampPayload>,
    fetch: bool,
    state: Option<&str>,
    reference_no: Option<&str>,
) -> Result<Option<DigitalStamp>, Error> {
    let source = stamp::parse_estamp_type(e_stamp_type).map_err(|m| Error::field("eStampType", m))?;
    let loan = payload.and_then(|p| p.loan.as_ref());
    if source != Some(EstampSource::Provider) {
        if loan.is_some() || fetch {
            return Err(Error::field(
                "eStampType",
                "give eStampType digital to have the loan record stamped by the stamp provider",
            ));
        }
        return Ok(None);
    }
    let purpose = if fetch { Purpose::Fetch } else { Purpose::Issue };
    if fetch && reference_no.is_none_or(|r| r.trim().is_empty()) {
        return Err(Error::field("referenceNo", "is required to fetch e-stamp certificates by reference"));
    }
    let Some(loan) = loan else {
        if purpose == Purpose::Issue {
            return Err(Error::field("eStampPayload.loan", "is required: the loan record to stamp"));
        }
        return Ok(Some(DigitalStamp { loan: None, facts: None, purpose }));
    };
    let value = serde_json::to_value(loan)?;
    let facts = check_loan(&value, "eStampPayload.loan", state, purpose).map_err(Error::Validation)?;
    Ok(Some(DigitalStamp { loan: Some(value), facts: Some(facts), purpose }))
}

impl DigitalStamp {
    /// The order for the provider; `denomination` (when not 0) must be the record's duty.
    pub fn order(
        &self,
        state: Option<&str>,
        denomination: i32,
        reference_no: Option<&str>,
        description: Option<&str>,
    ) -> Result<ProviderOrder, Error> {
        let facts = self.facts.as_ref();
        let duty = facts.map_or(0, |f| f.duty);
        if self.purpose == Purpose::Issue && denomination != 0 && i64::from(denomination) != duty {
            return Err(Error::field(
                "denomination",
                format!("must be 0 or the duty of eStampPayload.loan.estampdtls (Rs {duty})"),
            ));
        }
        let state_code = match facts.and_then(|f| f.state_code.as_deref()).or(state) {
            Some(said) => Some(stamp::parse_state_code("state", Some(said))?),
            None if self.purpose == Purpose::Issue => {
                return Err(Error::field("state", "is required: the state whose stamp duty is paid"));
            }
            None => None,
        };
        let reference = reference_no.map(str::trim).filter(|r| !r.is_empty()).map(str::to_string);
        let party = |i: usize| facts.and_then(|f| f.signers.get(i)).map(|s| s.name.clone());
        Ok(ProviderOrder {
            loan: self.loan.clone().unwrap_or(serde_json::Value::Null),
            purpose: self.purpose,
            transaction: match (self.purpose, &reference) {
                (Purpose::Fetch, Some(r)) => format!("fetch/{r}"),
                _ => facts.map(|f| f.transaction.clone()).unwrap_or_default(),
            },
            reference,
            reference_field: "referenceNo",
            state_code,
            duty,
            description: description.map(str::to_string),
            first_party: party(0),
            second_party: party(1),
            paid_by: None,
            attach_page: true,
        })
    }
}

/// Adds the record's boxes to the signatories' placements: each participant with boxes must
/// be one of the signatories (by e-mail). `emails[i]` is signatory i's address.
pub fn place_participants(facts: &LoanFacts, emails: &[String], placements: &mut [Placement]) -> Result<(), Error> {
    for signer in facts.signers.iter().filter(|s| !s.boxes.is_empty()) {
        let Some(slot) = emails.iter().position(|e| e.eq_ignore_ascii_case(&signer.email)) else {
            return Err(Error::field(
                &format!("eStampPayload.loan.prtcptentty[{}].emlid", signer.index),
                "has signature boxes but is not the address of any of the signatories",
            ));
        };
        let Some(placement) = placements.get_mut(slot) else { continue };
        placement.boxes.extend(signer.boxes.iter().map(|b| PlacedBox {
            document: None,
            page: PageRef::Number(b.page),
            left: b.left,
            top: b.top,
            width: b.width,
            height: b.height,
        }));
    }
    Ok(())
}
