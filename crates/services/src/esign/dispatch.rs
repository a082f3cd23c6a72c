//! The ESP's answer as the signer's browser brings it back: checked in full against the request
//! it answers, taken once, then handed to whoever asked: a gateway transaction
//! (`gateway::esign`) or a workflow signatory (`workflows::esign`). Apart from the rest of
//! eSign because both of those build on it.

use signet_domain::audit::Actor;
use signet_domain::gateway::EsignState;
use signet_esign::asp::Outcome;
use signet_esign::esp_codes::EspRefusal;
use signet_esign::health::Observation;

use super::{AnswerRefusal, EsignRefused, checked, find_transaction, internal, setup};
use crate::Services;
use crate::gateway::transaction::Delivery;

/// What an answer led to.
pub enum Answered {
    /// A gateway transaction ended: its result goes to the integrator's address.
    Gateway(Delivery),
    /// A workflow signatory signed (or the ESP refused, or they cancelled there), in the
    /// language the sender chose for the workflow's signers, if any.
    Workflow(crate::workflows::esign::Esigned, Option<signet_domain::Lang>),
}

/// The ESP's answer as the signer's browser brings it back (`eSignResponse`): checked in
/// full against what was sent, taken once, then completed for whoever it signs for.
pub async fn answer(svc: &Services, response_xml: &[u8], ip: Option<String>) -> Result<Answered, EsignRefused> {
    let setup = setup(svc)?;
    let (esign, txn) = find_transaction(svc, response_xml).await?;
    if esign.state != EsignState::Sent {
        svc.store.note_refused_esign_answer(&esign.id, signet_esign::asp::codes::REPLAYED).await?;
        return Err(EsignRefused::Answer(AnswerRefusal::Replayed));
    }
    let outcome = match checked(setup, &esign, &txn, response_xml) {
        Ok(outcome) => {
            note_health(setup, &esign, &outcome);
            outcome
        }
        Err(code) => {
            svc.store.note_refused_esign_answer(&esign.id, code).await?;
            // A gateway transaction's signer may try again or give up (the integrator then
            // learns why at FUrl); a workflow signer opens their link again.
            if esign.gateway_transaction.is_some() {
                return Err(EsignRefused::AnswerRefused { code, txn: txn.txn() });
            }
            return Err(EsignRefused::Answer(AnswerRefusal::NotAccepted(code)));
        }
    };
    let actor = Actor { id: format!("esign:{}", esign.id), ip };
    match (&esign.gateway_transaction, esign.signatory_id) {
        (Some(_), _) => crate::gateway::esign::answer(svc, &esign, &txn, outcome, &actor).await.map(Answered::Gateway),
        (None, Some(_)) => {
            let (esigned, lang) = crate::workflows::esign::answer(svc, &esign, &txn, outcome, &actor).await?;
            Ok(Answered::Workflow(esigned, lang))
        }
        (None, None) => Err(internal("an eSign transaction for nobody")),
    }
}

/// A checked answer in its ESP's health: an answer, or a refusal that is the ESP's own failure.
/// Answers that were not taken (forged, late…) say nothing about the ESP: whoever posts them
/// must not be able to make an ESP look down.
fn note_health(setup: &super::EsignSetup, esign: &signet_store::EsignTransactionRow, outcome: &Outcome) {
    let Some((index, esp)) = setup.esp(esign.esp.as_deref()) else {
        return;
    };
    let seen = match outcome {
        Outcome::Refused { code, .. } if esp.profile.profile.refusal(code) == EspRefusal::Service => {
            Observation::Refused
        }
        // The time a signer spends at the ESP's pages is not the ESP's latency.
        _ => Observation::Answered { latency_ms: None },
    };
    setup.health.record(index, seen);
}
