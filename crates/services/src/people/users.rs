//! Users and their life cycle (issue 13): staff created by an administrator, their profile,
//! role and status; disabling (refused while they have workflows in progress unless forced,
//! which makes those workflows inactive), marking inactive, deleting (personal data erased,
//! signed history kept); set-password links by e-mail. National ids are kept as their last
//! four digits and a keyed digest only.

use aws_lc_rs::{digest, hmac};
use signet_domain::access::{Access, CustomRole, Permission, Role, parse_permissions};
use signet_domain::authority::{people, sessions};
use signet_domain::paging::Page;
use signet_domain::user::{SenderNotices, UserDetails, UserInput, UserKind, UserStatus, validate_user};
use signet_domain::workflow::WorkflowState;
use signet_domain::{Error, ErrorCode, PrincipalId, WorkflowId, now_millis};
use signet_store::{UserFields, UserFilter, UserRow};

use crate::people::passwords::{MAX_PASSWORD_CHARS, MIN_PASSWORD_CHARS, check_password};
use crate::platform::mail::{self, Mail};
use crate::{Caller, Services, platform::secrets};

/// How long a set-password link works.
pub const PASSWORD_LINK_TTL_MS: i64 = 72 * 3600 * 1000;

/// The key of national-id digests, derived from the platform's derivation secret: the
/// digest finds a user by the number without the number being stored.
pub struct IdentityKey(hmac::Key);

impl IdentityKey {
    pub fn derive(secret: &[u8]) -> IdentityKey {
        let mut ctx = digest::Context::new(&digest::SHA256);
        ctx.update(b"signet national ids v1\0");
        ctx.update(secret);
        IdentityKey(hmac::Key::new(hmac::HMAC_SHA256, ctx.finish().as_ref()))
    }

    fn digest(&self, tenant_id: signet_domain::TenantId, digits: &str) -> String {
        hex::encode(hmac::sign(&self.0, format!("{tenant_id}:{digits}").as_bytes()).as_ref())
    }
}

fn fields<'a>(details: &'a UserDetails, national_id: &'a Option<(String, String)>) -> UserFields<'a> {
    UserFields {
        name: &details.name,
        email: &details.email,
        alternative_email: details.alternative_email.as_deref(),
        contact_number: details.contact_number.as_deref(),
        organization: details.organization.as_deref(),
        department_id: details.department_id,
        geo_profile_id: details.geo_profile_id,
        designation: details.designation.as_deref(),
        signature_type: details.signature_type.as_str(),
        profile_ref: details.profile_id.as_deref(),
        signature_option: details.signature_option,
        login_mode: details.login,
        national_id: national_id.as_ref().map(|(last4, digest)| (last4.as_str(), digest.as_str())),
        pan_number: details.pan.as_deref(),
        time_zone: details.time_zone.as_deref(),
        dob: details.dob,
        role: details.role,
        custom_role_id: details.custom_role,
    }
}

fn national_id(svc: &Services, tenant_id: signet_domain::TenantId, details: &UserDetails) -> Option<(String, String)> {
    details
        .national_id
        .as_ref()
        .map(|digits| (digits[digits.len() - 4..].to_string(), svc.identity_key.digest(tenant_id, digits)))
}

/// The outcome of creating a user.
pub struct Created {
    pub user: UserRow,
    /// Whether a set-password invitation was e-mailed.
    pub invited: bool,
}

/// Creates a staff user; when e-mail is configured and they sign in with a password, they
/// get a set-password invitation.
pub async fn create_internal(svc: &Services, caller: &Caller, input: &UserInput) -> Result<Created, Error> {
    caller.require(Permission::ManagePeople)?;
    let details = validate_user(input, now_millis())?;
    check_grant(svc, caller, &details).await?;
    crate::people::trial::allow(svc, caller.tenant_id, crate::people::trial::Making::User).await?;
    let national_id = national_id(svc, caller.tenant_id, &details);
    let stamp = secrets::random_token(16);
    let user = svc
        .store
        .create_user(
            caller.tenant_id,
            UserKind::Internal,
            UserStatus::Active,
            &fields(&details, &national_id),
            &stamp,
            &caller.actor,
        )
        .await?;
    let invited = svc.mailer.is_configured() && details.login == signet_domain::user::LoginMode::Password;
    if invited {
        send_password_link(svc, caller, &user, "Your Signet account").await?;
    }
    Ok(Created { user, invited })
}

/// Replaces a user's profile and role. A changed role or sign-in mode ends their sessions.
pub async fn update(svc: &Services, caller: &Caller, id: PrincipalId, input: &UserInput) -> Result<UserRow, Error> {
    caller.require(Permission::ManagePeople)?;
    let details = validate_user(input, now_millis())?;
    let current = svc.store.user(caller.tenant_id, id).await?;
    check_manage(svc, caller, id).await?;
    check_grant(svc, caller, &details).await?;
    if is_self(caller, id) && (current.role != details.role || current.custom_role_id != details.custom_role) {
        return Err(Error::rejected(ErrorCode::StateConflict, "you cannot change your own role"));
    }
    let national_id = match (&details.national_id, &input.national_id) {
        (Some(_), _) => national_id(svc, caller.tenant_id, &details),
        // Not sent again: the stored digest stays (the number itself is not kept to resend).
        (None, None) => None,
        (None, Some(_)) => None,
    };
    let keep_national_id = input.national_id.is_none() && current.national_id_last4.is_some();
    let stamp = secrets::random_token(16);
    let mut stored = fields(&details, &national_id);
    let kept;
    if keep_national_id {
        kept = svc.store.user_national_id(caller.tenant_id, id).await?;
        stored.national_id = kept.as_ref().map(|(last4, digest)| (last4.as_str(), digest.as_str()));
    }
    svc.store.update_user(caller.tenant_id, id, &stored, &stamp, &caller.actor).await
}

/// Refuses a role the caller may not give (`authority::people::may_grant`): only
/// administrators give the administrator role or a tenant's own role, and nobody gives a
/// permission they lack.
async fn check_grant(svc: &Services, caller: &Caller, details: &UserDetails) -> Result<(), Error> {
    let granted = match details.custom_role {
        None => Access::builtin(details.role),
        Some(id) => {
            let role = svc.store.roles(caller.tenant_id).await?.into_iter().find(|r| r.id == id);
            let (name, permissions) = role.map(|r| (r.name, parse_permissions(&r.permissions))).unwrap_or_default();
            Access { role: details.role, custom: Some(CustomRole { id, name, permissions }) }
        }
    };
    if !people::may_grant(&caller.access, &granted) {
        return Err(Error::rejected(ErrorCode::Forbidden, "your role cannot give this role"));
    }
    Ok(())
}

/// The access of a user of the caller's tenant (404 for an unknown id).
pub async fn access_of_user(svc: &Services, caller: &Caller, id: PrincipalId) -> Result<Access, Error> {
    let auth = svc.store.principal_auth(caller.tenant_id, id).await?.ok_or(Error::not_found("user"))?;
    Ok(auth.access())
}

/// Refuses to change, disable, delete, reset or re-address someone whose role the caller's
/// does not cover (`authority::people::may_manage`).
pub async fn check_manage(svc: &Services, caller: &Caller, id: PrincipalId) -> Result<(), Error> {
    caller.require(Permission::ManagePeople)?;
    let target = access_of_user(svc, caller, id).await?;
    if !people::may_manage(&caller.access, &target) {
        return Err(Error::rejected(
            ErrorCode::Forbidden,
            "only administrators change administrators or people whose role allows more than yours",
        ));
    }
    Ok(())
}

fn is_self(caller: &Caller, id: PrincipalId) -> bool {
    caller.is_user && caller.principal_id == id
}

/// Disables a user. While they have workflows in progress (sent by them, or waiting for
/// their signature) this is refused, unless `force`: then those workflows become inactive
/// (cancelled, with the reason recorded in each one's events) before the user is disabled.
pub async fn disable(svc: &Services, caller: &Caller, id: PrincipalId, force: bool) -> Result<Vec<WorkflowId>, Error> {
    caller.require(Permission::ManagePeople)?;
    if is_self(caller, id) {
        return Err(Error::rejected(ErrorCode::StateConflict, "you cannot disable your own account"));
    }
    let user = svc.store.user(caller.tenant_id, id).await?;
    check_manage(svc, caller, id).await?;
    check_move(user.status, UserStatus::Disabled)?;
    let in_progress = svc.store.workflows_in_progress_of_user(caller.tenant_id, id).await?;
    if !in_progress.is_empty() && !force {
        let list: Vec<String> = in_progress.iter().map(WorkflowId::to_string).collect();
        return Err(Error::rejected(
            ErrorCode::StateConflict,
            format!(
                "the user has workflows in progress ({}); finish them or disable with forceDisableWithWorkflow",
                list.join(", ")
            ),
        ));
    }
    let mut cancelled = Vec::new();
    for workflow in in_progress {
        let reason = format!("user {id} was disabled");
        match svc
            .store
            .change_workflow_state(caller.tenant_id, workflow, WorkflowState::Inactive, Some(&reason), &caller.actor)
            .await
        {
            Ok(_) => cancelled.push(workflow),
            // Finished meanwhile: nothing left to cancel.
            Err(error) if error.code() == ErrorCode::StateConflict => {}
            Err(error) => return Err(error),
        }
    }
    let stamp = secrets::random_token(16);
    svc.store
        .set_user_status(caller.tenant_id, id, user.status, UserStatus::Disabled, None, &stamp, true, &caller.actor)
        .await?;
    Ok(cancelled)
}

fn check_move(from: UserStatus, to: UserStatus) -> Result<(), Error> {
    if from.may_become(to) {
        Ok(())
    } else {
        Err(Error::rejected(ErrorCode::StateConflict, format!("a user who is {from} cannot become {to}")))
    }
}

/// Marks a user inactive: they cannot sign in, and every session of theirs ends at once,
/// whatever `invalidate_tokens` says (`authority::sessions::move_ends_sessions`; the field
/// stays for the API's callers).
pub async fn mark_inactive(
    svc: &Services,
    caller: &Caller,
    id: PrincipalId,
    reason: Option<&str>,
    invalidate_tokens: bool,
) -> Result<(), Error> {
    caller.require(Permission::ManagePeople)?;
    if is_self(caller, id) {
        return Err(Error::rejected(ErrorCode::StateConflict, "you cannot mark your own account inactive"));
    }
    if let Some(reason) = reason
        && (reason.chars().count() > 500 || reason.chars().any(char::is_control))
    {
        return Err(Error::field("reason", "must be at most 500 characters without control characters"));
    }
    let user = svc.store.user(caller.tenant_id, id).await?;
    check_manage(svc, caller, id).await?;
    check_move(user.status, UserStatus::Inactive)?;
    let stamp = secrets::random_token(16);
    svc.store
        .set_user_status(
            caller.tenant_id,
            id,
            user.status,
            UserStatus::Inactive,
            reason,
            &stamp,
            sessions::move_ends_sessions(UserStatus::Inactive, invalidate_tokens),
            &caller.actor,
        )
        .await
}

/// Makes a disabled or inactive user active again.
pub async fn reactivate(svc: &Services, caller: &Caller, id: PrincipalId) -> Result<(), Error> {
    caller.require(Permission::ManagePeople)?;
    let user = svc.store.user(caller.tenant_id, id).await?;
    check_manage(svc, caller, id).await?;
    check_move(user.status, UserStatus::Active)?;
    let stamp = secrets::random_token(16);
    svc.store
        .set_user_status(caller.tenant_id, id, user.status, UserStatus::Active, None, &stamp, false, &caller.actor)
        .await
}

/// Deletes a user: personal data erased, sign-in impossible, the id kept for the history.
pub async fn delete(svc: &Services, caller: &Caller, id: PrincipalId) -> Result<(), Error> {
    caller.require(Permission::ManagePeople)?;
    if is_self(caller, id) {
        return Err(Error::rejected(ErrorCode::StateConflict, "you cannot delete your own account"));
    }
    svc.store.user(caller.tenant_id, id).await?;
    check_manage(svc, caller, id).await?;
    let in_progress = svc.store.workflows_in_progress_of_user(caller.tenant_id, id).await?;
    if !in_progress.is_empty() {
        return Err(Error::rejected(
            ErrorCode::StateConflict,
            "the user has workflows in progress; disable them with forceDisableWithWorkflow first",
        ));
    }
    svc.store.erase_user(caller.tenant_id, id, &secrets::random_token(16), &caller.actor).await
}

/// Users of the tenant (`GetInternalUsersRequest` / `GetUsersRequest` filters), for whoever
/// reads the directory or places people (the forms that manage people offer them).
pub async fn search(
    svc: &Services,
    caller: &Caller,
    mut filter: UserFilter,
    national_id: Option<&str>,
    page: Page,
) -> Result<(Vec<UserRow>, i64), Error> {
    if !caller.access.allows(signet_domain::access::Permission::ManagePeople) {
        caller.require(signet_domain::access::Permission::ReadDirectory)?;
    }
    let tenant_id = caller.tenant_id;
    if let Some(number) = national_id.map(str::trim).filter(|n| !n.is_empty()) {
        let digits = signet_domain::user::parse_aadhaar(number).map_err(|m| Error::field("nationalId", m))?;
        filter.national_id_digest = Some(svc.identity_key.digest(tenant_id, &digits));
    }
    svc.store.users(tenant_id, &filter, page).await
}

/// Whether a password link (its token as mailed) still works: not used, not expired.
pub async fn password_link_live(svc: &Services, token: &str) -> Result<bool, Error> {
    let token = token.trim();
    if token.is_empty() || token.len() > 200 {
        return Ok(false);
    }
    Ok(svc.store.password_link_email(&secrets::hash_token(token)).await?.is_some())
}

/// E-mails a user a single-use link to set their password (`AdminPasswordSettingsEmailRequest`).
pub async fn send_password_email(svc: &Services, caller: &Caller, email: &str) -> Result<(), Error> {
    caller.require(Permission::ManagePeople)?;
    if !signet_domain::workflow::is_email_shaped(email) {
        return Err(Error::field("emailID", "must be an e-mail address"));
    }
    let id = svc.store.user_id_by_email(caller.tenant_id, email).await?.ok_or(Error::not_found("user"))?;
    let user = svc.store.user(caller.tenant_id, id).await?;
    check_manage(svc, caller, id).await?;
    if matches!(user.status, UserStatus::Deleted | UserStatus::Pending | UserStatus::Rejected) {
        return Err(Error::rejected(
            ErrorCode::StateConflict,
            format!("a user who is {} cannot set a password", user.status),
        ));
    }
    if !svc.mailer.is_configured() {
        return Err(Error::rejected(
            ErrorCode::StateConflict,
            "e-mail is not configured on this installation (smtp_url)",
        ));
    }
    send_password_link(svc, caller, &user, "Set your Signet password").await
}

async fn send_password_link(svc: &Services, caller: &Caller, user: &UserRow, subject: &str) -> Result<(), Error> {
    mail_password_link(svc, caller.tenant_id, user, subject, &caller.actor).await
}

/// A set-password link for a user who asked for one themselves (forgot their password).
pub async fn send_reset_link(svc: &Services, user: &UserRow) -> Result<(), Error> {
    let tenant_id = svc.store.tenant_of_principal(user.id).await?.ok_or(Error::not_found("user"))?;
    let actor = signet_domain::audit::Actor { id: format!("user:{}", user.id), ip: None };
    mail_password_link(svc, tenant_id, user, "Reset your Signet password", &actor).await
}

async fn mail_password_link(
    svc: &Services,
    tenant_id: signet_domain::TenantId,
    user: &UserRow,
    subject: &str,
    actor: &signet_domain::audit::Actor,
) -> Result<(), Error> {
    let email = user.email.clone().ok_or(Error::not_found("user"))?;
    let token = secrets::random_token(32);
    let expires_at = now_millis() + PASSWORD_LINK_TTL_MS;
    svc.store.create_password_link(tenant_id, user.id, &secrets::hash_token(&token), expires_at, actor).await?;
    let link = format!("{}/account/password?token={token}", svc.config.public_base());
    let name = user.name.clone().unwrap_or_default();
    let text = format!(
        "Hello {name},\n\nset your password for Signet here (the link works once, for 72 hours):\n{link}\n\n\
         Your sign-in name is {email}.\n"
    );
    let mail = Mail {
        to_email: email,
        to_name: name,
        subject: subject.to_string(),
        text,
        html: None,
        attachments: Vec::new(),
    };
    mail::enqueue(&svc.store, &mail, None).await
}

/// Sets a password through a link (the token from the e-mail): once, before it expires.
pub async fn set_password(svc: &Services, token: &str, password: &str) -> Result<(), Error> {
    if token.is_empty() || token.chars().count() > 200 {
        return Err(Error::field("token", "must be the 1 to 200 characters of the link's token"));
    }
    if !(MIN_PASSWORD_CHARS..=MAX_PASSWORD_CHARS).contains(&password.chars().count()) {
        return Err(Error::field(
            "password",
            format!("must be {MIN_PASSWORD_CHARS} to {MAX_PASSWORD_CHARS} characters"),
        ));
    }
    let token_hash = secrets::hash_token(token.trim());
    let email = svc
        .store
        .password_link_email(&token_hash)
        .await?
        .ok_or_else(|| Error::rejected(ErrorCode::LinkExpired, "this link has expired or was already used"))?;
    check_password(password, Some(&email))?;
    let hash = svc.doors.passwords.hash(password.to_string()).await?;
    svc.store.set_password_with_link(&token_hash, &hash, &secrets::random_token(16)).await?;
    Ok(())
}

/// What a person gives when they register with a tenant.
pub struct Registration<'a> {
    pub name: &'a str,
    pub email: &'a str,
    pub contact_number: Option<&'a str>,
    pub organization: Option<&'a str>,
}

/// A customer or counterparty registers with a tenant: they wait, as a pending external user,
/// for an administrator's decision. An address already known, or a tenant that does not exist,
/// changes nothing, and the answer is the same (it reveals neither). They set their password
/// only once approved, through the e-mailed link, which proves the address is theirs.
pub async fn register_external(
    svc: &Services,
    tenant_id: signet_domain::TenantId,
    registration: &Registration<'_>,
) -> Result<(), Error> {
    let input = UserInput {
        name: Some(registration.name.to_string()),
        email: Some(registration.email.to_string()),
        contact_number: registration.contact_number.map(str::to_string),
        organization: registration.organization.map(str::to_string),
        role_id: Some(i64::from(Role::Signer.id())),
        ..UserInput::default()
    };
    let details = validate_user(&input, now_millis())?;
    if svc.store.tenant_name(tenant_id).await?.is_none()
        || svc.store.principal_by_email(&details.email).await?.is_some()
    {
        return Ok(());
    }
    let actor = signet_domain::audit::Actor { id: "registration".into(), ip: None };
    let created = svc
        .store
        .create_user(
            tenant_id,
            UserKind::External,
            UserStatus::Pending,
            &fields(&details, &None),
            &secrets::random_token(16),
            &actor,
        )
        .await;
    match created {
        // Registered meanwhile by a concurrent request: the same as known.
        Err(error) if error.code() == ErrorCode::Conflict => Ok(()),
        other => other.map(|_| ()),
    }
}

/// An administrator's decision on a registration (`ApproveExternalUserRequest`): approved
/// users become active and get a set-password link; rejected ones keep the reason, and are
/// told by e-mail.
pub async fn decide_external(
    svc: &Services,
    caller: &Caller,
    id: PrincipalId,
    approve: bool,
    reason: Option<&str>,
) -> Result<UserRow, Error> {
    caller.require(Permission::ManagePeople)?;
    if let Some(reason) = reason
        && (reason.chars().count() > 500 || reason.chars().any(char::is_control))
    {
        return Err(Error::field("reason", "must be at most 500 characters without control characters"));
    }
    let user = svc.store.user(caller.tenant_id, id).await?;
    if user.user_type != UserKind::External {
        return Err(Error::not_found("external user"));
    }
    let to = if approve { UserStatus::Active } else { UserStatus::Rejected };
    check_move(user.status, to)?;
    if user.status != UserStatus::Pending {
        return Err(Error::rejected(
            ErrorCode::StateConflict,
            format!("the registration was already decided ({})", user.status),
        ));
    }
    svc.store
        .set_user_status(
            caller.tenant_id,
            id,
            user.status,
            to,
            reason,
            &secrets::random_token(16),
            false,
            &caller.actor,
        )
        .await?;
    let user = svc.store.user(caller.tenant_id, id).await?;
    if svc.mailer.is_configured() {
        if approve {
            send_password_link(svc, caller, &user, "Your Signet registration is approved").await?;
        } else if let Some(email) = user.email.clone() {
            let name = user.name.clone().unwrap_or_default();
            let why = reason.map(|r| format!("\n\nThe reason given: {r}")).unwrap_or_default();
            let text = format!("Hello {name},\n\nyour registration with Signet was not approved.{why}\n");
            let mail = Mail {
                to_email: email,
                to_name: name,
                subject: "Your Signet registration".into(),
                text,
                html: None,
                attachments: Vec::new(),
            };
            mail::enqueue(&svc.store, &mail, None).await?;
        }
    }
    Ok(user)
}

/// The signed-in user (a user of the tenant; an API client has no user record and reads as
/// missing).
pub async fn me(svc: &Services, caller: &Caller) -> Result<UserRow, Error> {
    if !caller.is_user {
        return Err(Error::not_found("user"));
    }
    svc.store.user(caller.tenant_id, caller.principal_id).await
}

/// What the signed-in user is e-mailed about the workflows they send (their own choice; an
/// API client sends no e-mail to itself and reads as missing).
pub async fn sender_notices(svc: &Services, caller: &Caller) -> Result<SenderNotices, Error> {
    if !caller.is_user {
        return Err(Error::not_found("user"));
    }
    svc.store.sender_notices(caller.tenant_id, caller.principal_id).await
}

/// Keeps the signed-in user's choice of e-mails; nobody chooses for another person.
pub async fn set_sender_notices(svc: &Services, caller: &Caller, notices: SenderNotices) -> Result<(), Error> {
    if !caller.is_user {
        return Err(Error::not_found("user"));
    }
    svc.store.set_sender_notices(caller.tenant_id, caller.principal_id, notices, &caller.actor).await
}

/// One user of the tenant (reading the directory); an id out of range or of another tenant
/// reads as missing.
pub async fn get(svc: &Services, caller: &Caller, id: PrincipalId) -> Result<UserRow, Error> {
    caller.require(signet_domain::access::Permission::ReadDirectory)?;
    if !(1..=i64::from(i32::MAX)).contains(&id.get()) {
        return Err(Error::not_found("user"));
    }
    svc.store.user(caller.tenant_id, id).await
}
