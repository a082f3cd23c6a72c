//! The use cases decide (issue 30): the reads and changes the faces reach through the
//! services are called here directly, past the API's path table and the console's checks, by
//! callers of every kind: each built-in role, a tenant role holding exactly one permission (one
//! for each), and an administrator of another tenant. Each answers as the operation's rule says:
//! allowed, 403 `forbidden` for a caller whose role lacks the permission, and, for another
//! tenant's caller, 404 exactly as for an id that does not exist (and nothing changes). On both
//! backends.

use signet_domain::access::{Access, CustomRole, Permission, Role};
use signet_domain::{DocumentId, Error, ErrorCode, SignatoryId, WebhookId, WorkflowId};
use signet_services::records::{LeadFilter, StampFilter, WorkflowActor};
use signet_services::{Caller, Services};
use signet_store::Backend;
use signet_testkit::on_both_backends;
use signet_testkit::server::{TestApp, spawn};

on_both_backends!(each_operation_answers_each_caller_by_its_rule);

/// An id no tenant has.
const MISSING: i64 = 2_000_000_000;

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
    admin_user_id: i64,
    authtoken_id: i64,
    menu_id: i64,
}

/// The operations, each with its rule and whether it names one of the fixture's resources
/// (then another tenant's caller must get 404, as for a missing id).
const OPERATIONS: [(&str, Rule, bool); 31] = [
    ("gateway.authtokens", Rule::Needs(Permission::ManageSettings), false),
    ("gateway.revoke_authtoken", Rule::Needs(Permission::ManageSettings), true),
    ("gateway.settings", Rule::Needs(Permission::ManageSettings), false),
    ("profiles.revoke", Rule::Needs(Permission::ManageSettings), false),
    ("stamps.inventory", Rule::Needs(Permission::ReadWorkflows), false),
    ("stamps.stamp", Rule::Needs(Permission::ReadWorkflows), false),
    ("stamps.retire", Rule::Needs(Permission::ManageSettings), false),
    ("stamps.stock", Rule::Needs(Permission::ReadWorkflows), false),
    ("stamps.settings", Rule::Needs(Permission::ManageSettings), false),
    ("sales.referrals", Rule::Needs(Permission::ManageSettings), false),
    ("sales.referral", Rule::Needs(Permission::ManageSettings), false),
    ("sales.leads", Rule::Needs(Permission::ManageSettings), false),
    ("sales.lead", Rule::Needs(Permission::ManageSettings), false),
    ("sales.crm_endpoint", Rule::Needs(Permission::ManageSettings), false),
    ("menus.usable", Rule::Anyone, false),
    ("menus.all", Rule::Needs(Permission::ReadDirectory), false),
    ("menus.access_to", Rule::Needs(Permission::ReadDirectory), true),
    ("users.me", Rule::Anyone, false),
    ("users.get", Rule::Needs(Permission::ReadDirectory), true),
    ("webhooks.endpoints", Rule::Needs(Permission::ManageSettings), false),
    ("webhooks.delete_endpoint", Rule::Needs(Permission::ManageSettings), false),
    ("webhooks.deliveries", Rule::Needs(Permission::ManageSettings), false),
    ("webhooks.redeliver", Rule::Needs(Permission::ManageSettings), false),
    ("audit.entries", Rule::Needs(Permission::ReadAudit), false),
    ("audit.verify", Rule::Needs(Permission::ReadAudit), false),
    ("sso.providers", Rule::Needs(Permission::ManageSettings), false),
    ("roles.list", Rule::Either(Permission::ReadDirectory, Permission::ManagePeople), false),
    ("applications.list", Rule::Needs(Permission::ManageSettings), false),
    ("invoices.billing_profile", Rule::Needs(Permission::ManageSettings), false),
    ("documents.staged", Rule::Needs(Permission::SendWorkflows), false),
    ("workflows.attachments", Rule::Needs(Permission::ReadWorkflows), false),
];

/// Calls `operation` as `caller`; only whether and how it was refused matters here.
async fn call(svc: &Services, caller: &Caller, operation: &str, fixture: &Fixture) -> Result<(), Error> {
    use signet_services::*;
    match operation {
        "gateway.authtokens" => gateway::admin::authtokens(svc, caller).await.map(drop),
        "gateway.revoke_authtoken" => gateway::admin::revoke_authtoken(svc, caller, fixture.authtoken_id).await,
        "gateway.settings" => gateway::admin::settings(svc, caller).await.map(drop),
        "profiles.revoke" => workflows::profiles::revoke(svc, caller, MISSING).await,
        "stamps.inventory" => stamps::inventory(svc, caller, &StampFilter::default(), 0, 10).await.map(drop),
        "stamps.stamp" => stamps::stamp(svc, caller, MISSING).await.map(drop),
        "stamps.retire" => stamps::retire(svc, caller, MISSING).await.map(drop),
        "stamps.stock" => stamps::stock(svc, caller, None).await.map(drop),
        "stamps.settings" => stamps::settings(svc, caller).await.map(drop),
        "sales.referrals" => sales::referrals(svc, caller, None, 0, 10).await.map(drop),
        "sales.referral" => sales::referral(svc, caller, MISSING).await.map(drop),
        "sales.leads" => sales::leads(svc, caller, &LeadFilter::default(), 0, 10).await.map(drop),
        "sales.lead" => sales::lead(svc, caller, MISSING).await.map(drop),
        "sales.crm_endpoint" => sales::crm_endpoint(svc, caller).await.map(drop),
        "menus.usable" => menus::usable(svc, caller).await.map(drop),
        "menus.all" => menus::all(svc, caller).await.map(drop),
        "menus.access_to" => menus::access_to(svc, caller, fixture.menu_id).await.map(drop),
        "users.me" => users::me(svc, caller).await.map(drop),
        "users.get" => users::get(svc, caller, fixture.admin_user_id).await.map(drop),
        "webhooks.endpoints" => webhooks::endpoints(svc, caller).await.map(drop),
        "webhooks.delete_endpoint" => webhooks::delete_endpoint(svc, caller, WebhookId::from(MISSING)).await,
        "webhooks.deliveries" => webhooks::deliveries(svc, caller, WebhookId::from(MISSING)).await.map(drop),
        "webhooks.redeliver" => webhooks::redeliver(svc, caller, MISSING).await,
        "audit.entries" => audit::entries(svc, caller, 0, 10).await.map(drop),
        "audit.verify" => audit::verify(svc, caller).await.map(drop),
        "sso.providers" => sso::providers(svc, caller).await.map(drop),
        "roles.list" => roles::list(svc, caller).await.map(drop),
        "applications.list" => applications::list(svc, caller).await.map(drop),
        "invoices.billing_profile" => invoices::billing_profile(svc, caller).await.map(drop),
        "documents.staged" => documents::staged(svc, caller, DocumentId::from(MISSING)).await.map(drop),
        "workflows.attachments" => {
            workflows::queries::attachments(svc, caller, WorkflowId::from(MISSING)).await.map(drop)
        }
        other => panic!("no call for {other}"),
    }
}

/// Operations that name an id no tenant has: allowed callers get 404 from them.
fn names_a_missing_id(operation: &str) -> bool {
    [
        "profiles.revoke",
        "stamps.stamp",
        "stamps.retire",
        "sales.referral",
        "sales.lead",
        "webhooks.delete_endpoint",
        "webhooks.deliveries",
        "webhooks.redeliver",
        "documents.staged",
        "workflows.attachments",
    ]
    .contains(&operation)
}

fn allows(rule: Rule, access: &Access) -> bool {
    match rule {
        Rule::Anyone => true,
        Rule::Needs(permission) => access.allows(permission),
        Rule::Either(one, other) => access.allows(one) || access.allows(other),
    }
}

fn caller(tenant: &signet_server::provision::ProvisionedTenant, principal_id: i64, access: Access) -> Caller {
    let actor = WorkflowActor { id: format!("user:{principal_id}"), ip: Some("127.0.0.1".into()) };
    Caller { tenant_id: tenant.tenant_id, principal_id, is_user: true, access, actor }
}

/// Every built-in role, then a tenant role for each permission a tenant role may list.
fn accesses() -> Vec<Access> {
    let mut all: Vec<Access> = Role::ALL.iter().map(|role| Access::builtin(*role)).collect();
    for (i, permission) in Permission::ALL.into_iter().filter(|p| *p != Permission::Authenticated).enumerate() {
        let custom = CustomRole {
            id: 1 + i as i64,
            name: format!("only {}", permission.as_str()),
            permissions: vec![permission],
        };
        all.push(Access { role: Role::Signer, custom: Some(custom) });
    }
    all
}

async fn make_fixture(app: &TestApp, tenant: &signet_server::provision::ProvisionedTenant) -> Fixture {
    let svc = &app.state.services;
    let admin = caller(tenant, tenant.admin_user_id, Access::builtin(Role::Administrator));
    let (token, _) =
        signet_services::gateway::admin::create_authtoken(svc, &admin, Some("ERP")).await.expect("authtoken");
    let menu =
        signet_services::menus::create_activity(svc, &admin, 0, &format!("Loans {}", token.id)).await.expect("menu");
    Fixture { admin_user_id: tenant.admin_user_id, authtoken_id: token.id, menu_id: menu.id }
}

async fn each_operation_answers_each_caller_by_its_rule(backend: Backend) {
    let app = spawn(backend).await;
    let ours = app.tenant("Rule Bank").await;
    let theirs = app.tenant("Other Bank").await;
    let fixture = make_fixture(&app, &ours).await;
    let svc = &app.state.services;
    for access in accesses() {
        let me = caller(&ours, ours.admin_user_id, access.clone());
        for (operation, rule, _) in OPERATIONS {
            let answer = call(svc, &me, operation, &fixture).await;
            let code = answer.as_ref().err().map(Error::code);
            let expected = match (allows(rule, &access), names_a_missing_id(operation)) {
                (false, _) => Some(ErrorCode::Forbidden),
                (true, true) => Some(ErrorCode::NotFound),
                (true, false) => None,
            };
            // Revoking the fixture's token succeeds once; after that it reads as missing.
            let revoked_before = operation == "gateway.revoke_authtoken" && code == Some(ErrorCode::NotFound);
            assert!(
                code == expected || (revoked_before && expected.is_none()),
                "{operation} as {}: {answer:?}, expected {expected:?}",
                access.name()
            );
        }
    }
    // Another tenant's administrator may do everything in their own tenant, and meets the
    // first tenant's resources as ids that do not exist.
    let fresh = make_fixture(&app, &ours).await;
    let stranger = caller(&theirs, theirs.admin_user_id, Access::builtin(Role::Administrator));
    for (operation, _, _) in OPERATIONS.into_iter().filter(|(_, _, named)| *named) {
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
    let app = spawn(Backend::Sqlite).await;
    let ours = app.tenant("Inbox Bank").await;
    let svc = &app.state.services;
    let admin = caller(&ours, ours.admin_user_id, Access::builtin(Role::Administrator));
    let waiting = signet_services::inbox::waiting(svc, &admin).await.expect("waiting");
    assert!(waiting.due.is_empty() && waiting.lots.is_empty());
    let missing = signet_services::inbox::own_turn(svc, &admin, SignatoryId::from(MISSING)).await;
    assert_eq!(missing.err().map(|e| e.code()), Some(ErrorCode::NotFound));
    let client = Caller { is_user: false, ..admin };
    assert!(signet_services::inbox::waiting(svc, &client).await.expect("client").due.is_empty());
    assert_eq!(signet_services::users::me(svc, &client).await.err().map(|e| e.code()), Some(ErrorCode::NotFound));
}
