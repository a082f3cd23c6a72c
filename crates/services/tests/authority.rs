//! The use cases decide (issue 30): the reads and changes the faces reach through the
//! services are called here directly, past the API's path table and the console's checks, by
//! callers of every kind: each built-in role, a tenant role holding exactly one permission (one
//! for each), and an administrator of another tenant. Each answers as the operation's rule says:
//! allowed, 403 `forbidden` for a caller whose role lacks the permission, and, for another
//! tenant's caller, 404 exactly as for an id that does not exist (and nothing changes). On both
//! backends.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};

use signet_domain::access::{Access, CustomRole, Permission, Role};
use signet_domain::department::DepartmentName;
use signet_domain::retention::RetentionPeriods;
use signet_domain::user::UserInput;
use signet_domain::{
    DepartmentId, DocumentId, Error, ErrorCode, PrincipalId, SignatoryId, SigningProfileId, TemplateId, WebhookId,
    WorkflowId,
};
use signet_services::records::{Grantee, LeadFilter, RetentionPolicies, Shelf, StampFilter, TemplateRow};
use signet_services::workflows::templates::TemplateDefinition;
use signet_services::{Caller, Services};
use signet_store::Backend;
use signet_testkit::on_both_backends;

use common::{Assembled, MISSING, caller};

on_both_backends!(
    each_operation_answers_each_caller_by_its_rule,
    templates_are_changed_by_their_maker_and_archived_ones_are_not_sent
);

/// Who may call an operation.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// Any signed-in user (their own things).
    Anyone,
    Needs(Permission),
    /// Either permission (reading a list the other permission's forms also offer).
    Either(Permission, Permission),
}

/// The resources of the first tenant that operations name.
struct Fixture {
    admin_user_id: PrincipalId,
    authtoken_id: signet_domain::AuthtokenId,
    menu_id: signet_domain::MenuId,
    /// A template made by the administrator, keeping its document.
    template_id: i64,
}

/// What an allowed caller gets from an operation as `call` makes it (an id no tenant has,
/// or input the operation refuses): done, 404, or a refusal of the input or the state.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Answer {
    Done,
    Missing,
    Invalid,
}

/// The operations, each with its rule, what an allowed caller gets, and whether it names one
/// of the fixture's resources (then another tenant's caller must get 404, as for a missing id).
const OPERATIONS: [(&str, Rule, Answer, bool); 99] = {
    use Answer::*;
    use Permission::*;
    use Rule::*;
    [
        ("gateway.authtokens", Needs(ManageSettings), Done, false),
        ("gateway.revoke_authtoken", Needs(ManageSettings), Done, true),
        ("gateway.settings", Needs(ManageSettings), Done, false),
        ("embedding.settings", Needs(ManageSettings), Done, false),
        ("embedding.set_settings", Needs(ManageSettings), Done, false),
        ("workflows.embed", Needs(SendWorkflows), Missing, false),
        ("profiles.revoke", Needs(ManageSettings), Missing, false),
        ("stamps.inventory", Needs(ReadWorkflows), Done, false),
        ("stamps.stamp", Needs(ReadWorkflows), Missing, false),
        ("stamps.retire", Needs(ManageSettings), Missing, false),
        ("stamps.stock", Needs(ReadWorkflows), Done, false),
        ("stamps.settings", Needs(ManageSettings), Done, false),
        ("sales.referrals", Needs(ManageSettings), Done, false),
        ("sales.referral", Needs(ManageSettings), Missing, false),
        ("sales.leads", Needs(ManageSettings), Done, false),
        ("sales.lead", Needs(ManageSettings), Missing, false),
        ("sales.crm_endpoint", Needs(ManageSettings), Done, false),
        ("menus.usable", Anyone, Done, false),
        ("menus.all", Needs(ReadDirectory), Done, false),
        ("menus.access_to", Needs(ReadDirectory), Done, true),
        ("menus.create_activity", Needs(ManagePeople), Invalid, false),
        ("menus.delete_activity", Needs(ManagePeople), Missing, false),
        ("menus.assign_access", Needs(ManagePeople), Invalid, false),
        ("menus.revoke_access", Needs(ManagePeople), Missing, false),
        ("users.me", Anyone, Done, false),
        ("users.sender_notices", Anyone, Done, false),
        ("users.set_sender_notices", Anyone, Done, false),
        ("users.get", Needs(ReadDirectory), Done, true),
        ("users.create_internal", Needs(ManagePeople), Invalid, false),
        ("users.update", Needs(ManagePeople), Invalid, false),
        ("users.disable", Needs(ManagePeople), Missing, false),
        ("users.mark_inactive", Needs(ManagePeople), Missing, false),
        ("users.reactivate", Needs(ManagePeople), Missing, false),
        ("users.delete", Needs(ManagePeople), Missing, false),
        ("users.decide_external", Needs(ManagePeople), Missing, false),
        ("users.send_password_email", Needs(ManagePeople), Missing, false),
        ("totp.reset", Needs(ManagePeople), Missing, false),
        ("departments.create", Needs(ManagePeople), Done, false),
        ("departments.get", Needs(ReadDirectory), Missing, false),
        ("departments.delete", Needs(ManagePeople), Missing, false),
        ("webhooks.endpoints", Needs(ManageSettings), Done, false),
        ("webhooks.delete_endpoint", Needs(ManageSettings), Missing, false),
        ("webhooks.deliveries", Needs(ManageSettings), Missing, false),
        ("webhooks.redeliver", Needs(ManageSettings), Missing, false),
        ("webhooks.resume_endpoint", Needs(ManageSettings), Missing, false),
        ("privacy.policies", Needs(ManageSettings), Done, false),
        ("privacy.set_policies", Needs(ManageSettings), Done, true),
        ("privacy.place_hold", Needs(ManageSettings), Missing, false),
        ("privacy.release_hold", Needs(ManageSettings), Missing, false),
        ("privacy.holds", Needs(ManageSettings), Done, false),
        ("privacy.request_erasure", Needs(ManageSettings), Done, false),
        ("audit.entries", Needs(ReadAudit), Done, false),
        ("audit.verify", Needs(ReadAudit), Done, false),
        ("sso.providers", Needs(ManageSettings), Done, false),
        ("sso.create_provider", Needs(ManageSettings), Invalid, false),
        ("sso.update_provider", Needs(ManageSettings), Missing, false),
        ("sso.delete_provider", Needs(ManageSettings), Missing, false),
        ("sso.replaces_second_factor", Needs(ManageSettings), Done, false),
        ("sso.domain_proofs", Needs(ManageSettings), Done, false),
        ("sso.start_proof", Needs(ManageSettings), Invalid, false),
        ("sso.check_proof", Needs(ManageSettings), Invalid, false),
        ("sso.identities", Anyone, Done, false),
        ("roles.list", Either(ReadDirectory, ManagePeople), Done, false),
        ("applications.list", Needs(ManageSettings), Done, false),
        ("invoices.billing_profile", Needs(ManageSettings), Done, false),
        ("documents.staged", Needs(SendWorkflows), Missing, false),
        ("workflows.attachments", Needs(ReadWorkflows), Missing, false),
        ("workflows.evidence_pack", Needs(ReadWorkflows), Missing, false),
        ("workflows.delegate", Needs(SendWorkflows), Missing, false),
        ("workflows.revoke_link", Needs(SendWorkflows), Missing, false),
        ("workflows.remind", Needs(SendWorkflows), Missing, false),
        ("workflows.hand_out_link", Needs(SendWorkflows), Missing, false),
        ("workflows.counts", Needs(ReadWorkflows), Done, false),
        ("workflows.waiting_for", Needs(ReadWorkflows), Done, false),
        ("workflows.decline", Needs(SendWorkflows), Missing, false),
        ("workflows.link", Needs(SendWorkflows), Missing, false),
        ("workflows.make_inactive", Needs(SendWorkflows), Missing, false),
        ("workflows.delete", Needs(SendWorkflows), Missing, false),
        ("documents.add_comment", Needs(SendWorkflows), Missing, false),
        ("documents.comments", Needs(ReadWorkflows), Missing, false),
        ("documents.set_category", Needs(SendWorkflows), Missing, false),
        ("documents.deactivate", Needs(SendWorkflows), Missing, false),
        ("templates.usable", Either(ReadWorkflows, SendWorkflows), Done, false),
        ("templates.template_for", Either(ReadWorkflows, SendWorkflows), Missing, false),
        ("templates.find_by_name", Either(ReadWorkflows, SendWorkflows), Done, false),
        ("templates.library", Either(ReadWorkflows, SendWorkflows), Done, false),
        ("templates.document", Either(ReadWorkflows, SendWorkflows), Done, true),
        ("templates.edit", Needs(SendWorkflows), Done, true),
        ("templates.duplicate", Needs(SendWorkflows), Done, true),
        ("templates.archive", Needs(SendWorkflows), Done, true),
        ("templates.document_for_send", Needs(SendWorkflows), Done, true),
        ("exports.workflows", Needs(ReadWorkflows), Done, false),
        ("exports.audit_events", Needs(ReadAudit), Done, false),
        ("audit.principal_names", Needs(ReadAudit), Done, false),
        ("exports.users", Needs(ReadDirectory), Done, false),
        ("lots.choices", Needs(SendWorkflows), Done, false),
        ("lots.create", Needs(SendWorkflows), Invalid, false),
        ("lots.get", Anyone, Missing, false),
        ("bulk.start", Needs(SendWorkflows), Invalid, false),
    ]
};

/// Calls `operation` as `caller`; only whether and how it was refused matters here.
async fn call(svc: &Services, caller: &Caller, operation: &str, fixture: &Fixture) -> Result<(), Error> {
    use signet_services::{billing::*, integrations::*, people::*, platform::*, workflows::*, *};
    let (missing_workflow, missing_document) = (WorkflowId::from(MISSING), DocumentId::from(MISSING));
    let nobody = UserInput::default();
    let no_provider = sso::ProviderInput {
        name: "",
        display_name: "",
        issuer: "",
        client_id: "",
        client_secret: None,
        email_domains: &[],
        redirect_uris: &[],
    };
    let export = |dataset| {
        let input = exports::ExportInput { format: "csv".into(), ..Default::default() };
        async move { exports::start(svc, caller, dataset, &input, true).await.map(drop) }
    };
    match operation {
        "gateway.authtokens" => gateway::admin::authtokens(svc, caller).await.map(drop),
        "gateway.revoke_authtoken" => gateway::admin::revoke_authtoken(svc, caller, fixture.authtoken_id).await,
        "gateway.settings" => gateway::admin::settings(svc, caller).await.map(drop),
        "embedding.settings" => embedding::settings(svc, caller).await.map(drop),
        "embedding.set_settings" => {
            embedding::set_settings(svc, caller, embedding::EmbeddingInput::default()).await.map(drop)
        }
        "workflows.embed" => {
            embedding::embed_url(svc, caller, missing_workflow, SignatoryId::from(MISSING), "https://app.example")
                .await
                .map(drop)
        }
        "profiles.revoke" => workflows::profiles::revoke(svc, caller, SigningProfileId::from(MISSING)).await,
        "stamps.inventory" => stamps::inventory(svc, caller, &StampFilter::default(), 0, 10).await.map(drop),
        "stamps.stamp" => stamps::stamp(svc, caller, MISSING.into()).await.map(drop),
        "stamps.retire" => stamps::retire(svc, caller, MISSING.into()).await.map(drop),
        "stamps.stock" => stamps::stock(svc, caller, None).await.map(drop),
        "stamps.settings" => stamps::settings(svc, caller).await.map(drop),
        "sales.referrals" => sales::referrals(svc, caller, None, 0, 10).await.map(drop),
        "sales.referral" => sales::referral(svc, caller, MISSING.into()).await.map(drop),
        "sales.leads" => sales::leads(svc, caller, &LeadFilter::default(), 0, 10).await.map(drop),
        "sales.lead" => sales::lead(svc, caller, MISSING.into()).await.map(drop),
        "sales.crm_endpoint" => sales::crm_endpoint(svc, caller).await.map(drop),
        "menus.usable" => menus::usable(svc, caller).await.map(drop),
        "menus.all" => menus::all(svc, caller).await.map(drop),
        "menus.access_to" => menus::access_to(svc, caller, fixture.menu_id).await.map(drop),
        "menus.create_activity" => menus::create_activity(svc, caller, None, "").await.map(drop),
        "menus.delete_activity" => menus::delete_activity(svc, caller, MISSING.into()).await,
        "menus.assign_access" => menus::assign_access(svc, caller, &[], &[], &[]).await.map(drop),
        "menus.revoke_access" => {
            menus::revoke_access(svc, caller, MISSING.into(), Grantee::User(PrincipalId::from(MISSING))).await
        }
        "users.me" => users::me(svc, caller).await.map(drop),
        "users.sender_notices" => users::sender_notices(svc, caller).await.map(drop),
        "users.set_sender_notices" => {
            let notices = signet_domain::user::SenderNotices { signed: true, ..Default::default() };
            users::set_sender_notices(svc, caller, notices).await
        }
        "users.get" => users::get(svc, caller, fixture.admin_user_id).await.map(drop),
        "users.create_internal" => users::create_internal(svc, caller, &nobody).await.map(drop),
        "users.update" => users::update(svc, caller, PrincipalId::from(MISSING), &nobody).await.map(drop),
        "users.disable" => users::disable(svc, caller, PrincipalId::from(MISSING), false).await.map(drop),
        "users.mark_inactive" => users::mark_inactive(svc, caller, PrincipalId::from(MISSING), None, false).await,
        "users.reactivate" => users::reactivate(svc, caller, PrincipalId::from(MISSING)).await,
        "users.delete" => users::delete(svc, caller, PrincipalId::from(MISSING)).await,
        "users.decide_external" => {
            users::decide_external(svc, caller, PrincipalId::from(MISSING), true, None).await.map(drop)
        }
        "users.send_password_email" => users::send_password_email(svc, caller, "nobody@nowhere.test").await,
        "totp.reset" => totp::reset(svc, caller, PrincipalId::from(MISSING)).await,
        "departments.create" => {
            static MADE: AtomicUsize = AtomicUsize::new(0);
            let made = MADE.fetch_add(1, Ordering::Relaxed);
            let name = DepartmentName::parse("name", Some(&format!("Desk {made}"))).expect("name");
            departments::create(svc, caller, &name).await.map(drop)
        }
        "departments.get" => departments::get(svc, caller, DepartmentId::from(MISSING)).await.map(drop),
        "departments.delete" => departments::delete(svc, caller, &[DepartmentId::from(MISSING)]).await,
        "webhooks.endpoints" => webhooks::endpoints(svc, caller).await.map(drop),
        "webhooks.delete_endpoint" => webhooks::delete_endpoint(svc, caller, WebhookId::from(MISSING)).await,
        "webhooks.deliveries" => webhooks::deliveries(svc, caller, WebhookId::from(MISSING)).await.map(drop),
        "webhooks.redeliver" => webhooks::redeliver(svc, caller, MISSING.into()).await,
        "webhooks.resume_endpoint" => webhooks::resume_endpoint(svc, caller, WebhookId::from(MISSING)).await,
        "privacy.policies" => privacy::retention::policies(svc, caller).await.map(drop),
        "privacy.set_policies" => {
            let template = (TemplateId::from(fixture.template_id), RetentionPeriods::default());
            let policies = RetentionPolicies { templates: vec![template], ..RetentionPolicies::default() };
            privacy::retention::set_policies(svc, caller, policies).await.map(drop)
        }
        "privacy.place_hold" => {
            privacy::retention::place_hold(svc, caller, missing_workflow, "litigation").await.map(drop)
        }
        "privacy.release_hold" => privacy::retention::release_hold(svc, caller, missing_workflow).await,
        "privacy.holds" => privacy::retention::holds(svc, caller, None, 10).await.map(drop),
        "privacy.request_erasure" => {
            let subject = privacy::erasure::Subject { email: Some("nobody@x.test".into()), phone: None };
            privacy::erasure::request(svc, caller, subject).await.map(drop)
        }
        "audit.entries" => audit::entries(svc, caller, 0, 10).await.map(drop),
        "audit.verify" => audit::verify(svc, caller).await.map(drop),
        "sso.providers" => sso::providers(svc, caller).await.map(drop),
        "sso.create_provider" => sso::create_provider(svc, caller, &no_provider).await.map(drop),
        "sso.update_provider" => sso::update_provider(svc, caller, MISSING.into(), &no_provider).await.map(drop),
        "sso.delete_provider" => sso::delete_provider(svc, caller, MISSING.into()).await,
        "sso.replaces_second_factor" => sso::replaces_second_factor(svc, caller).await.map(drop),
        "sso.domain_proofs" => sso::domains::proofs(svc, caller).await.map(drop),
        "sso.start_proof" => sso::domains::start_proof(svc, caller, "").await.map(drop),
        "sso.check_proof" => sso::domains::check_proof(svc, caller, "").await.map(drop),
        "sso.identities" => sso::identities(svc, caller).await.map(drop),
        "roles.list" => roles::list(svc, caller).await.map(drop),
        "applications.list" => applications::list(svc, caller).await.map(drop),
        "invoices.billing_profile" => invoices::billing_profile(svc, caller).await.map(drop),
        "documents.staged" => documents::staged(svc, caller, missing_document).await.map(drop),
        "workflows.attachments" => workflows::queries::attachments(svc, caller, missing_workflow).await.map(drop),
        "workflows.evidence_pack" => workflows::evidence::pack(svc, caller, missing_workflow).await.map(drop),
        "workflows.delegate" => {
            workflows::actions::delegate(svc, caller, missing_workflow, "to@else.test", None, "away").await.map(drop)
        }
        "workflows.revoke_link" => {
            workflows::actions::revoke_link(svc, caller, missing_workflow, SignatoryId::from(MISSING)).await.map(drop)
        }
        "workflows.remind" => {
            workflows::actions::remind(svc, caller, missing_workflow, SignatoryId::from(MISSING)).await.map(drop)
        }
        "workflows.hand_out_link" => {
            workflows::actions::hand_out_link(svc, caller, missing_workflow, SignatoryId::from(MISSING)).await.map(drop)
        }
        "workflows.counts" => workflows::queries::counts(svc, caller).await.map(drop),
        "workflows.waiting_for" => workflows::queries::waiting_for(svc, caller, &[]).await.map(drop),
        "workflows.decline" => workflows::actions::decline(svc, caller, missing_workflow, None).await,
        "workflows.link" => workflows::actions::link(svc, caller, missing_workflow, Vec::new()).await,
        "workflows.make_inactive" => workflows::actions::make_inactive(svc, caller, missing_workflow).await,
        "workflows.delete" => workflows::actions::delete(svc, caller, missing_workflow).await,
        "documents.add_comment" => workflows::actions::add_comment(svc, caller, missing_document, "note").await,
        "documents.comments" => workflows::actions::comments(svc, caller, missing_document).await.map(drop),
        "documents.set_category" => {
            workflows::actions::set_category(svc, caller, missing_workflow, missing_document, 1).await
        }
        "documents.deactivate" => {
            workflows::actions::deactivate_document(svc, caller, missing_document, None, false).await
        }
        "templates.usable" => workflows::templates::usable(svc, caller).await.map(drop),
        "templates.template_for" => workflows::templates::template_for(svc, caller, MISSING).await.map(drop),
        "templates.find_by_name" => workflows::templates::find_by_name(svc, caller, "Loan", "api").await.map(drop),
        "templates.library" => {
            workflows::templates::library(svc, caller, Shelf::Archived, Some("Loan")).await.map(drop)
        }
        "templates.document" => workflows::templates::document(svc, caller, fixture.template_id).await.map(drop),
        "templates.edit" => {
            let change = workflows::templates::TemplateChange {
                name: "Loan agreement".into(),
                description: None,
                definition: Default::default(),
            };
            workflows::templates::edit(svc, caller, fixture.template_id, change).await.map(drop)
        }
        "templates.duplicate" => {
            workflows::templates::duplicate(svc, caller, fixture.template_id, "Copy").await.map(drop)
        }
        "templates.archive" => workflows::templates::archive(svc, caller, fixture.template_id, false).await.map(drop),
        "templates.document_for_send" => {
            workflows::templates::document_for_send(svc, caller, fixture.template_id).await.map(drop)
        }
        "exports.workflows" => export(exports::Dataset::Workflows).await,
        "exports.audit_events" => export(exports::Dataset::AuditEvents).await,
        "audit.principal_names" => signet_services::platform::audit::principal_names(svc, caller, &[]).await.map(drop),
        "exports.users" => export(exports::Dataset::Users).await,
        "lots.choices" => bulk::lots::choices(svc, caller, None).await.map(drop),
        "lots.create" => bulk::lots::create(svc, caller, "", PrincipalId::from(MISSING), &[]).await.map(drop),
        "lots.get" => bulk::lots::get(svc, caller, MISSING.into()).await.map(drop),
        "bulk.start" => {
            let send = bulk::send::BulkSend {
                template_id: 0,
                document_ids: Vec::new(),
                file_base64: String::new(),
                dry_run: true,
            };
            bulk::send::start(svc, caller, send).await.map(drop)
        }
        other => panic!("no call for {other}"),
    }
}

fn allows(rule: Rule, access: &Access) -> bool {
    match rule {
        Rule::Anyone => true,
        Rule::Needs(permission) => access.allows(permission),
        Rule::Either(one, other) => access.allows(one) || access.allows(other),
    }
}

/// Every built-in role, then a tenant role for each permission a tenant role may list.
fn accesses() -> Vec<Access> {
    let mut all: Vec<Access> = Role::ALL.iter().map(|role| Access::builtin(*role)).collect();
    for (i, permission) in Permission::ALL.into_iter().filter(|p| *p != Permission::Authenticated).enumerate() {
        let custom = CustomRole {
            id: signet_domain::RoleId::from(1 + i as i64),
            name: format!("only {}", permission.as_str()),
            permissions: vec![permission],
        };
        all.push(Access { role: Role::Signer, custom: Some(custom) });
    }
    all
}

async fn make_fixture(svc: &Services, tenant: &signet_services::people::provision::ProvisionedTenant) -> Fixture {
    let admin = caller(tenant, tenant.admin_user_id, Access::builtin(Role::Administrator));
    let (token, _) =
        signet_services::gateway::admin::create_authtoken(svc, &admin, Some("ERP")).await.expect("authtoken");
    let menu = signet_services::people::menus::create_activity(svc, &admin, None, &format!("Loans {}", token.id))
        .await
        .expect("menu");
    let template = loan_template(svc, &admin).await;
    Fixture {
        admin_user_id: tenant.admin_user_id,
        authtoken_id: token.id,
        menu_id: menu.id,
        template_id: template.id.get(),
    }
}

/// A two-page loan agreement (ReportLab's PDF), checked as an upload.
fn loan_pdf() -> signet_services::workflows::documents::CheckedPdf {
    use signet_testkit::pdf::{Page, reportlab_pdf};
    let pdf = reportlab_pdf(&[Page::text("Loan agreement"), Page::text("Borrower signs below")]);
    signet_services::workflows::documents::check_pdf("document", "loan.pdf".into(), pdf).expect("a PDF")
}

/// A template keeping the loan agreement, with the borrower's signature and a loan number.
async fn loan_template(svc: &Services, maker: &Caller) -> TemplateRow {
    let definition: TemplateDefinition = serde_json::from_value(serde_json::json!({"fields": [
        {"signatory": 1, "page": 2, "left": 72, "top": 600, "width": 160, "height": 50},
        {"signatory": 1, "kind": "text", "label": "Loan number", "page": 1, "left": 72, "top": 120, "width": 160, "height": 20}
    ]}))
    .expect("definition");
    signet_services::workflows::templates::create_keeping(
        svc,
        maker,
        Some("Loan agreement"),
        None,
        definition,
        Some(loan_pdf()),
    )
    .await
    .expect("template")
}

async fn each_operation_answers_each_caller_by_its_rule(backend: Backend) {
    let kit = Assembled::new(backend).await;
    let ours = kit.tenant("Rule Bank").await;
    let theirs = kit.tenant("Other Bank").await;
    let svc = &kit.services;
    let fixture = make_fixture(svc, &ours).await;
    for access in accesses() {
        let me = caller(&ours, ours.admin_user_id, access.clone());
        for (operation, rule, answer, _) in OPERATIONS {
            let result = call(svc, &me, operation, &fixture).await;
            let code = result.as_ref().err().map(Error::code);
            let expected = match (allows(rule, &access), answer) {
                (false, _) => Some(ErrorCode::Forbidden),
                (true, Answer::Missing) => Some(ErrorCode::NotFound),
                (true, Answer::Invalid) => Some(ErrorCode::ValidationFailed),
                (true, Answer::Done) => None,
            };
            // Revoking the fixture's token succeeds once; after that it reads as missing.
            let revoked_before = operation == "gateway.revoke_authtoken" && code == Some(ErrorCode::NotFound);
            assert!(
                code == expected || (revoked_before && expected.is_none()),
                "{operation} as {}: {result:?}, expected {expected:?}",
                access.name()
            );
        }
    }
    // Another tenant's administrator may do everything in their own tenant, and meets the
    // first tenant's resources as ids that do not exist.
    let fresh = make_fixture(svc, &ours).await;
    let stranger = caller(&theirs, theirs.admin_user_id, Access::builtin(Role::Administrator));
    for (operation, ..) in OPERATIONS.into_iter().filter(|(.., named)| *named) {
        let answer = call(svc, &stranger, operation, &fresh).await;
        assert_eq!(answer.as_ref().err().map(Error::code), Some(ErrorCode::NotFound), "{operation}: {answer:?}");
    }
    let tokens = signet_services::gateway::admin::authtokens(
        svc,
        &caller(&ours, ours.admin_user_id, Access::builtin(Role::Administrator)),
    )
    .await
    .expect("tokens");
    let untouched = tokens.iter().find(|t| t.id == fresh.authtoken_id).expect("the token");
    assert!(untouched.revoked_at.is_none(), "another tenant revoked our token");
}

/// The inbox is the caller's own: another person's signature, or one of another tenant,
/// reads as missing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inbox_holds_only_the_callers_own_signatures() {
    let kit = Assembled::new(Backend::Sqlite).await;
    let ours = kit.tenant("Inbox Bank").await;
    let svc = &kit.services;
    let admin = caller(&ours, ours.admin_user_id, Access::builtin(Role::Administrator));
    let waiting = signet_services::workflows::inbox::waiting(svc, &admin).await.expect("waiting");
    assert!(waiting.due.is_empty() && waiting.lots.is_empty());
    let missing = signet_services::workflows::inbox::own_turn(svc, &admin, SignatoryId::from(MISSING)).await;
    assert_eq!(missing.err().map(|e| e.code()), Some(ErrorCode::NotFound));
    let client = Caller { is_user: false, ..admin };
    assert!(signet_services::workflows::inbox::waiting(svc, &client).await.expect("client").due.is_empty());
    assert_eq!(
        signet_services::people::users::me(svc, &client).await.err().map(|e| e.code()),
        Some(ErrorCode::NotFound)
    );
}

on_both_backends!(managing_a_person_depends_on_whom_and_whose);

/// Whom a caller may manage (`authority::people::may_manage`): the same operations answer by
/// the relation of caller and target. A person of each kind is the target (a signer, a sender,
/// an administrator, a holder of a tenant role wider than the manager's, the manager
/// themselves, and a user of another tenant), and each caller (the administrator, a sender, a
/// tenant role with `manage_people` + `read_directory`) reactivates them (an active person:
/// refused as a state conflict once allowed, so nothing changes) and resets their second
/// factor. The expected answer is the rule's: 403 without `manage_people` or over someone the
/// caller does not cover, 404 for another tenant's person.
async fn managing_a_person_depends_on_whom_and_whose(backend: Backend) {
    use signet_domain::access::{CUSTOM_ROLE_BASE, RoleRef};
    use signet_domain::authority::people::may_manage;
    use signet_services::{people::roles, people::totp, people::users};
    let kit = Assembled::new(backend).await;
    let ours = kit.tenant("People Bank").await;
    let theirs = kit.tenant("Far Bank").await;
    let svc = &kit.services;
    let admin = caller(&ours, ours.admin_user_id, Access::builtin(Role::Administrator));
    let tenant_role = |name: &'static str, permissions: &'static [Permission]| {
        let admin = admin.clone();
        async move {
            let names: Vec<String> = permissions.iter().map(|p| p.as_str().to_string()).collect();
            let row = roles::create(svc, &admin, name, &names).await.expect("role");
            CustomRole { id: row.id, name: name.to_string(), permissions: permissions.to_vec() }
        }
    };
    let desk = tenant_role("People desk", &[Permission::ManagePeople, Permission::ReadDirectory]).await;
    let wide = tenant_role("Settings and people", &[Permission::ManagePeople, Permission::ManageSettings]).await;
    let person = |tenant_admin: Caller, email: &'static str, role_id: i64| async move {
        let input = UserInput {
            name: Some(email.split('@').next().unwrap_or("someone").to_string()),
            email: Some(email.to_string()),
            role_id: Some(role_id),
            ..UserInput::default()
        };
        users::create_internal(svc, &tenant_admin, &input).await.expect("user").user.id
    };
    let manager_id = person(admin.clone(), "desk@people.test", RoleRef::Custom(desk.id).wire_id()).await;
    let targets = [
        ("signer", person(admin.clone(), "signer@people.test", 3).await, Access::builtin(Role::Signer)),
        ("sender", person(admin.clone(), "sender@people.test", 2).await, Access::builtin(Role::Sender)),
        ("administrator", ours.admin_user_id, Access::builtin(Role::Administrator)),
        (
            "wider role",
            person(admin.clone(), "wide@people.test", RoleRef::Custom(wide.id).wire_id()).await,
            Access { role: Role::Signer, custom: Some(wide) },
        ),
        ("the manager", manager_id, Access { role: Role::Signer, custom: Some(desk.clone()) }),
    ];
    let stranger_admin = caller(&theirs, theirs.admin_user_id, Access::builtin(Role::Administrator));
    let stranger = person(stranger_admin, "far@far.test", 3).await;
    let sender_id = targets[1].1;
    let callers = [
        ("administrator", caller(&ours, ours.admin_user_id, Access::builtin(Role::Administrator))),
        ("sender", caller(&ours, sender_id, Access::builtin(Role::Sender))),
        ("people desk", caller(&ours, manager_id, Access { role: Role::Signer, custom: Some(desk) })),
    ];
    for (who, me) in &callers {
        for (whom, id, access) in &targets {
            let expected = match (me.access.allows(Permission::ManagePeople), may_manage(&me.access, access)) {
                (true, true) => (Some(ErrorCode::StateConflict), None),
                _ => (Some(ErrorCode::Forbidden), Some(ErrorCode::Forbidden)),
            };
            let reactivated = users::reactivate(svc, me, *id).await.err().map(|e| e.code());
            let reset = totp::reset(svc, me, *id).await.err().map(|e| e.code());
            assert_eq!((reactivated, reset), expected, "{who} managing {whom}");
        }
        let foreign = (
            users::reactivate(svc, me, stranger).await.err().map(|e| e.code()),
            totp::reset(svc, me, stranger).await.err().map(|e| e.code()),
        );
        let expected = match me.access.allows(Permission::ManagePeople) {
            true => Some(ErrorCode::NotFound),
            false => Some(ErrorCode::Forbidden),
        };
        assert_eq!(foreign, (expected, expected), "{who} managing another tenant's user");
    }
    // A manager never gives more than they hold: not the administrator role, not a tenant role.
    let desk_caller = &callers[2].1;
    for role_id in
        [1, callers[2].1.access.custom.as_ref().map_or(CUSTOM_ROLE_BASE, |c| RoleRef::Custom(c.id).wire_id())]
    {
        let input = UserInput {
            name: Some("Raised".into()),
            email: Some(format!("raised{role_id}@people.test")),
            role_id: Some(role_id),
            ..UserInput::default()
        };
        let refused = users::create_internal(svc, desk_caller, &input).await.err().map(|e| e.code());
        assert_eq!(refused, Some(ErrorCode::Forbidden), "the desk gives role {role_id}");
    }
}

/// Templates as a library (issue 37, item 9), through the services: a sender granted a template
/// sends from it and may copy it, but only its maker or an administrator changes or archives it;
/// the copy is the sender's (with its own copy of the document) and theirs to change; an archived
/// template leaves the templates offered on send and cannot start a workflow, yet stays readable
/// with its document; another tenant's administrator meets every template as a missing one.
async fn templates_are_changed_by_their_maker_and_archived_ones_are_not_sent(backend: Backend) {
    use signet_services::{people::menus, people::users, workflows::templates};
    let kit = Assembled::new(backend).await;
    let ours = kit.tenant("Template Bank").await;
    let theirs = kit.tenant("Other Template Bank").await;
    let svc = &kit.services;
    let admin = caller(&ours, ours.admin_user_id, Access::builtin(Role::Administrator));
    let input = UserInput {
        name: Some("Meena Iyer".into()),
        email: Some("meena@templates.test".into()),
        role_id: Some(2),
        ..UserInput::default()
    };
    let sender_id = users::create_internal(svc, &admin, &input).await.expect("sender").user.id;
    let sender = caller(&ours, sender_id, Access::builtin(Role::Sender));
    let loan = loan_template(svc, &admin).await;
    let id = loan.id.get();
    let code = |result: Result<(), Error>| result.err().map(|e| e.code());

    // Not granted: the sender neither lists, reads nor copies it.
    assert!(templates::library(svc, &sender, Shelf::Active, None).await.expect("library").is_empty());
    assert_eq!(code(templates::duplicate(svc, &sender, id, "Mine").await.map(drop)), Some(ErrorCode::NotFound));
    let entry = menus::all(svc, &admin).await.expect("menus").into_iter().find(|m| m.template_id == Some(loan.id));
    menus::assign_access(svc, &admin, &[entry.expect("its menu entry").id], &[sender_id], &[]).await.expect("grant");

    // Granted: listed (searched by name) and sent from, not changed nor archived.
    let listed = templates::library(svc, &sender, Shelf::Active, Some("loan")).await.expect("library");
    assert_eq!(listed.iter().map(|t| t.id.get()).collect::<Vec<_>>(), vec![id]);
    let change = || templates::TemplateChange {
        name: "Loan agreement (2026)".into(),
        description: Some("Home loans".into()),
        definition: serde_json::from_str(&loan.definition).expect("definition"),
    };
    assert_eq!(code(templates::edit(svc, &sender, id, change()).await.map(drop)), Some(ErrorCode::Forbidden));
    assert_eq!(code(templates::archive(svc, &sender, id, true).await.map(drop)), Some(ErrorCode::Forbidden));
    let (kept, bytes) = templates::document(svc, &sender, id).await.expect("the kept document");
    assert_eq!((kept.name.as_str(), kept.pages), ("loan.pdf", 2));
    assert!(bytes.starts_with(b"%PDF-"));
    let copy = templates::duplicate(svc, &sender, id, "Meena's loan agreement").await.expect("copy");
    assert_eq!(copy.created_by, format!("user:{sender_id}"), "the copy is the sender's");
    assert_eq!(copy.definition, loan.definition, "with the same places");
    let copied = copy.document().expect("a copy of the document");
    assert_ne!(copied.blob_key, kept.blob_key, "its own copy of the document");
    let (_, copied_bytes) = templates::document(svc, &sender, copy.id.get()).await.expect("copied document");
    assert_eq!(copied_bytes, bytes);
    let renamed = templates::TemplateChange { name: "Meena's home loan".into(), ..change() };
    let edited = templates::edit(svc, &sender, copy.id.get(), renamed).await.expect("the sender changes their copy");
    assert_eq!(edited.name, "Meena's home loan");
    assert_eq!(templates::read(svc, ours.tenant_id, id).await.expect("read").0, "Loan agreement", "the original stays");
    let bad = templates::TemplateChange { name: "  ".into(), ..change() };
    assert_eq!(code(templates::edit(svc, &admin, id, bad).await.map(drop)), Some(ErrorCode::ValidationFailed));

    // The administrator changes and archives it: no longer offered, still readable.
    assert_eq!(templates::edit(svc, &admin, id, change()).await.expect("edit").name, "Loan agreement (2026)");
    assert!(templates::archive(svc, &admin, id, true).await.expect("archive").is_archived());
    let offered = templates::usable(svc, &sender).await.expect("usable");
    assert!(!offered.iter().any(|t| t.id.get() == id), "an archived template is not offered on send");
    let shelved = templates::library(svc, &sender, Shelf::Archived, None).await.expect("archived");
    assert_eq!(shelved.iter().map(|t| t.id.get()).collect::<Vec<_>>(), vec![id]);
    assert!(templates::template_for(svc, &sender, id).await.is_ok(), "still readable");
    assert!(templates::document(svc, &sender, id).await.is_ok(), "with its document");
    let refused = templates::read_for(svc, &sender, id).await.map(drop);
    assert_eq!(code(refused), Some(ErrorCode::ValidationFailed), "no new workflow starts from it");
    assert!(!templates::archive(svc, &admin, id, false).await.expect("restore").is_archived());
    assert!(templates::read_for(svc, &sender, id).await.is_ok(), "brought back, it is sent from again");

    // Another tenant's administrator: every one of our templates reads as missing.
    let stranger = caller(&theirs, theirs.admin_user_id, Access::builtin(Role::Administrator));
    assert!(templates::library(svc, &stranger, Shelf::Active, None).await.expect("theirs").is_empty());
    for answer in [
        templates::edit(svc, &stranger, id, change()).await.map(drop),
        templates::archive(svc, &stranger, id, true).await.map(drop),
        templates::duplicate(svc, &stranger, id, "Taken").await.map(drop),
        templates::document(svc, &stranger, id).await.map(drop),
        templates::document_for_send(svc, &stranger, id).await.map(drop),
    ] {
        assert_eq!(code(answer), Some(ErrorCode::NotFound));
    }
    let untouched = templates::template_for(svc, &admin, id).await.expect("ours");
    assert!(!untouched.is_archived() && untouched.name == "Loan agreement (2026)");
}
