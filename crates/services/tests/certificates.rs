//! A user's own certificate, below HTTP, on both databases (issue 30, item 1: a signature must
//! mean that the named person chose to sign). It is enrolled only from a CA the installation
//! trusts; a colleague (or another organisation) who names it as a workflow's signing profile
//! meets exactly the refusal of a profile that does not exist; and its owner's automated
//! signing needs their consent on record.

mod common;

use common::{Assembled, MISSING, administrator, caller};
use signet_domain::access::{Access, Role};
use signet_domain::user::UserInput;
use signet_domain::workflow::SignatoryInput;
use signet_domain::workflow_settings::WorkflowSettings;
use signet_domain::{Error, FieldErrors, SigningProfileId};
use signet_services::people::certificates::{self, AutomatedSigningChange, Enrolment};
use signet_services::people::provision::ProvisionedTenant;
use signet_services::platform::config::Config;
use signet_services::workflows::documents;
use signet_services::workflows::initiate::{self, InitiateWorkflow};
use signet_services::{Caller, Services};
use signet_testkit::pki::TestPki;
use signet_testkit::{Backend, on_both_backends};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

on_both_backends!(an_enrolled_certificate_signs_only_for_its_owner);

/// A sender of `tenant` at `email`, made by its administrator.
async fn sender(svc: &Services, tenant: &ProvisionedTenant, email: &str) -> Caller {
    let input = UserInput {
        name: Some(email.split('@').next().unwrap_or("someone").to_string()),
        email: Some(email.to_string()),
        role_id: Some(2),
        ..UserInput::default()
    };
    let id = signet_services::people::users::create_internal(svc, &administrator(tenant), &input)
        .await
        .expect("user")
        .user
        .id;
    caller(tenant, id, Access::builtin(Role::Sender))
}

/// The field messages of a validation failure (panics on any other answer).
fn field_errors(answer: Result<impl std::fmt::Debug, Error>) -> FieldErrors {
    match answer {
        Err(Error::Validation(errors)) => errors,
        other => panic!("expected a validation failure, got {other:?}"),
    }
}

async fn enrol(svc: &Services, owner: &Caller, p12: &[u8], password: &str) -> Result<SigningProfileId, Error> {
    let encoded = STANDARD.encode(p12);
    let enrolment =
        Enrolment { pfx_base64: Some(&encoded), password: Some(password), certificate_name: Some("Ravi's DSC") };
    certificates::enrol(svc, owner, &enrolment).await.map(|profile| profile.id)
}

/// A one-signatory workflow for `signer_email` on a document the sender uploads, naming
/// `profile` as its signing profile.
async fn naming(svc: &Services, sender: &Caller, signer_email: &str, profile: SigningProfileId) -> Result<(), Error> {
    let pdf = signet_testkit::pdf::reportlab_pdf(&[signet_testkit::pdf::Page::text("Loan agreement")]);
    let checked = documents::check_pdf("document", "loan.pdf".into(), pdf).expect("a PDF");
    let document = documents::keep(svc, sender, checked).await.expect("document");
    let signatory = SignatoryInput {
        subscriber_id: 0,
        email: signer_email.to_string(),
        name: Some("Ravi Kumar".into()),
        signing_order: 1,
        mode: None,
        mobile: None,
        otp_sms: false,
    };
    let request = InitiateWorkflow {
        template_id: 0,
        name: Some("Loan agreement".into()),
        reference_no: None,
        workflow_type: 0,
        document_ids: vec![document.id.get()],
        signatories: vec![signatory],
        hsm_certificate_id: Some(profile),
        linked_workflow_id: 0,
        redirect_url: None,
        envelope_expiry: None,
        reminder_frequency: None,
        settings: WorkflowSettings::default(),
        message: None,
        attachments: Vec::new(),
        stamp: None,
        fields: Vec::new(),
        values: Default::default(),
        signer_lang: None,
    };
    initiate::initiate(svc, sender, request).await.map(drop)
}

async fn an_enrolled_certificate_signs_only_for_its_owner(backend: Backend) {
    let bank_ca = TestPki::new("Bank Signing CA");
    let trust_dir = tempfile::tempdir().expect("dir");
    let trust = trust_dir.path().join("trust.pem");
    std::fs::write(&trust, bank_ca.ca_pem()).expect("trust list");
    let kit = Assembled::with(backend, Config { certificate_trust_list: Some(trust), ..Config::default() }).await;
    let svc = &kit.services;
    let acme = kit.tenant("Acme Bank").await;
    let ravi = sender(svc, &acme, "ravi@acme.test").await;

    // Only a certificate from a trusted CA, opened with its password, is enrolled.
    let stranger = TestPki::new("Unknown CA").signer_p12("Ravi Kumar", None, "pw");
    let untrusted = field_errors(enrol(svc, &ravi, &stranger, "pw").await);
    assert!(untrusted["pfxBase64"].iter().any(|m| m.contains("chain")), "{untrusted:?}");
    let wrong_password = enrol(svc, &ravi, &bank_ca.signer_p12("Ravi Kumar", None, "pw"), "wrong").await;
    assert!(matches!(wrong_password, Err(Error::Validation(_))), "{wrong_password:?}");
    let profile =
        enrol(svc, &ravi, &bank_ca.signer_p12("Ravi Kumar", Some("Acme Bank"), "pw"), "pw").await.expect("enrolled");

    // A colleague naming Ravi's own certificate meets the refusal of a missing profile, and
    // so does another organisation's administrator.
    let colleague = sender(svc, &acme, "colleague@acme.test").await;
    let his = field_errors(naming(svc, &colleague, "ravi@acme.test", profile).await);
    let none = field_errors(naming(svc, &colleague, "ravi@acme.test", SigningProfileId::from(MISSING)).await);
    assert!(his.contains_key("hsmCertificateId"), "{his:?}");
    assert_eq!(his, none, "an enrolled certificate reads as a missing profile");
    let other = kit.tenant("Other Bank").await;
    let theirs = field_errors(naming(svc, &administrator(&other), "ravi@acme.test", profile).await);
    assert_eq!(theirs, none, "another organisation meets a missing profile");

    // The owner signs with it automatically only with their consent on record.
    let change = |consent_accepted| AutomatedSigningChange {
        enabled: true,
        profile_id: Some(profile),
        consent_accepted,
        reason: None,
        location: None,
    };
    let unconsented = field_errors(certificates::set_automated_signing(svc, &ravi, &change(false)).await);
    assert!(unconsented.contains_key("consentAccepted"), "{unconsented:?}");
    let (before, _) = certificates::automated_signing(svc, &ravi).await.expect("settings");
    assert!(!before.auto_sign_enabled, "a refusal changes nothing");
    certificates::set_automated_signing(svc, &ravi, &change(true)).await.expect("consented");
    let (after, name) = certificates::automated_signing(svc, &ravi).await.expect("settings");
    assert!(after.auto_sign_enabled && after.auto_sign_consent_at.is_some(), "{after:?}");
    assert_eq!((after.auto_sign_profile_id, name.as_deref()), (Some(profile), Some("Ravi's DSC")));
}
