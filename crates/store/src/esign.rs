//! Aadhaar eSign transactions: the requests Signet sent to an ESP as ASP, and how each was
//! answered. An answer is taken once: [`Store::answer_esign`] moves a row out of `sent` in one
//! statement, so a replayed answer (or two instances receiving the same post) finds it taken.

use signet_domain::gateway::EsignState;
use signet_domain::{Millis, SignatoryId, TenantId, now_millis};

use crate::{Result, Store, db_err, on_db};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EsignTransactionRow {
    pub id: String,
    pub secret_hash: String,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    /// The gateway transaction the request signs for, or else…
    pub gateway_transaction: Option<String>,
    /// …the workflow signatory it signs for.
    #[sqlx(try_from = "crate::NullableId")]
    pub signatory_id: Option<SignatoryId>,
    /// Hex SHA-256 values sent, JSON array in InputHash order.
    pub digests: String,
    pub raw_signatures: bool,
    pub pending_blob: String,
    #[sqlx(try_from = "String")]
    pub state: EsignState,
    pub outcome: Option<String>,
    pub sent_at: Millis,
    pub expires_at: Millis,
    pub answered_at: Option<Millis>,
    pub refused_answers: i64,
    pub last_refusal: Option<String>,
    /// The name of the ESP the request went to (`None`: sent before there were several, to the
    /// first ESP configured).
    pub esp: Option<String>,
}

/// What an eSign request signs for.
#[derive(Debug, Clone, Copy)]
pub enum EsignSubject<'a> {
    Gateway(&'a str),
    Signatory(SignatoryId),
}

pub struct NewEsignTransaction<'a> {
    pub id: &'a str,
    pub secret_hash: &'a str,
    pub tenant_id: TenantId,
    pub subject: EsignSubject<'a>,
    pub digests: &'a str,
    /// The answer is to carry raw RSA signatures (`rawrsa`).
    pub raw_signatures: bool,
    pub pending_blob: &'a str,
    pub expires_at: Millis,
    /// The name of the ESP it is sent to.
    pub esp: &'a str,
}

impl Store {
    pub async fn insert_esign_transaction(&self, new: &NewEsignTransaction<'_>) -> Result<()> {
        let now = now_millis();
        let (gateway, signatory) = match new.subject {
            EsignSubject::Gateway(number) => (Some(number), None),
            EsignSubject::Signatory(id) => (None, Some(id.get())),
        };
        on_db!(self, pool => {
            sqlx::query(
                "INSERT INTO esign_transactions (id, secret_hash, tenant_id, gateway_transaction, signatory_id, \
                 digests, pending_blob, state, sent_at, expires_at, raw_signatures, esp) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $11, $8, $9, $10, $12)",
            )
            .bind(new.id)
            .bind(new.secret_hash)
            .bind(new.tenant_id.get())
            .bind(gateway)
            .bind(signatory)
            .bind(new.digests)
            .bind(new.pending_blob)
            .bind(now)
            .bind(new.expires_at)
            .bind(new.raw_signatures)
            .bind(EsignState::Sent.as_str())
            .bind(new.esp)
            .execute(pool)
            .await
            .map(|_| ())
            .map_err(db_err)
        })
    }

    pub async fn esign_transaction(&self, id: &str) -> Result<Option<EsignTransactionRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, secret_hash, tenant_id, gateway_transaction, signatory_id, digests, raw_signatures, pending_blob, state, outcome, \
                 sent_at, expires_at, answered_at, refused_answers, last_refusal, esp FROM esign_transactions WHERE id = $1",
            )
            .bind(id)
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }

    /// The ESP of the latest request for `subject` when that request is still unanswered: the
    /// signer is back without an answer (the ESP failed them mid-way, or they left it), so
    /// their next request goes elsewhere first. `None` when there was none or it was answered.
    pub async fn unanswered_esign_esp(&self, subject: EsignSubject<'_>) -> Result<Option<Option<String>>> {
        let (gateway, signatory) = match subject {
            EsignSubject::Gateway(number) => (Some(number), None),
            EsignSubject::Signatory(id) => (None, Some(id.get())),
        };
        let row: Option<(String, Option<String>)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT state, esp FROM esign_transactions \
                 WHERE (gateway_transaction = $1 OR signatory_id = $2) \
                 ORDER BY sent_at DESC, id DESC LIMIT 1",
            )
            .bind(gateway)
            .bind(signatory)
            .fetch_optional(pool)
            .await
            .map_err(db_err)?
        });
        Ok(row.and_then(|(state, esp)| (state == EsignState::Sent.as_str()).then_some(esp)))
    }

    /// Records an answer that was refused (its code): the transaction stays as it was.
    pub async fn note_refused_esign_answer(&self, id: &str, code: &str) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query(
                "UPDATE esign_transactions SET refused_answers = refused_answers + 1, last_refusal = $2 WHERE id = $1",
            )
            .bind(id)
            .bind(code)
            .execute(pool)
            .await
            .map(|_| ())
            .map_err(db_err)
        })
    }

    /// Why the latest refused answer to a gateway transaction's eSign requests was refused
    /// (its code), if one was: what the transaction's expiry tells the integrator.
    pub async fn esign_refusal_of_gateway(&self, transaction_number: &str) -> Result<Option<String>> {
        let row: Option<(Option<String>,)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT last_refusal FROM esign_transactions \
                 WHERE gateway_transaction = $1 AND refused_answers > 0 AND last_refusal IS NOT NULL \
                 ORDER BY sent_at DESC, id DESC LIMIT 1",
            )
            .bind(transaction_number)
            .fetch_optional(pool)
            .await
            .map_err(db_err)?
        });
        Ok(row.and_then(|(code,)| code))
    }

    /// Records the answer to a sent request: `state` (`signed`, `refused` or `failed`) with
    /// `outcome` (the ESP's or Signet's code). False when the request was answered already.
    pub async fn answer_esign(&self, id: &str, state: EsignState, outcome: &str) -> Result<bool> {
        let now = now_millis();
        on_db!(self, pool => {
            sqlx::query(
                "UPDATE esign_transactions SET state = $2, outcome = $3, answered_at = $4 \
                 WHERE id = $1 AND state = $5",
            )
            .bind(id)
            .bind(state.as_str())
            .bind(outcome)
            .bind(now)
            .bind(EsignState::Sent.as_str())
            .execute(pool)
            .await
            .map(|done| done.rows_affected() == 1)
            .map_err(db_err)
        })
    }
}
