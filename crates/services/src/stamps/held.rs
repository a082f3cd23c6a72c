//! What a document holds while its stamp page is made: the duty asked for ([`StampRequest`]) and
//! the certificates reserved for it ([`Held`]), whether they came from the tenant's stock or from
//! the stamp provider ([`super::provider`]).

use signet_domain::stamp::Article;
use signet_store::{StampClaim, StampRow};

/// What a document's stamp duty is, and what its certificate page shows.
#[derive(Debug, Clone)]
pub struct StampRequest {
    pub state_code: String,
    /// The duty in rupees: the certificates taken add up to it.
    pub duty: i64,
    pub article: Option<Article>,
    pub description: Option<String>,
    pub first_party: Option<String>,
    pub second_party: Option<String>,
    pub paid_by: Option<String>,
    /// Put the certificates' pages in front of the document (else they are only recorded).
    pub attach_page: bool,
}

/// Certificates held for one document while its page is made.
pub struct Held {
    pub reservation: String,
    pub stamps: Vec<StampRow>,
    request: StampRequest,
}

impl Held {
    pub(super) fn new(reservation: String, stamps: Vec<StampRow>, request: StampRequest) -> Held {
        Held { reservation, stamps, request }
    }

    /// What the certificates were held for.
    pub(super) fn request(&self) -> &StampRequest {
        &self.request
    }

    /// What the workflow's creation allocates.
    pub fn claim(&self) -> StampClaim {
        StampClaim {
            reservation: self.reservation.clone(),
            count: self.stamps.len(),
            page_attached: self.request.attach_page,
        }
    }
}
