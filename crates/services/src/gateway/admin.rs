//! The gateway seen by its tenant and by integrators outside the signing flow: the tenant's
//! settings (file and signature types, the legacy envelope), a transaction and its kept result,
//! and the integrator's status query (`TransactionStatusRequest`, authorised by `Authtoken`).

use signet_domain::access::Permission;
use signet_domain::gateway::TransactionState;
use signet_domain::{AuthtokenId, Error, now_millis};
use signet_store::{AuthtokenRow, GatewaySettings, TransactionRow};

use crate::{Caller, Services, platform::secrets};

/// The file types a tenant can take through the gateway.
pub const FILE_TYPES: [&str; 4] = ["PDF", "XML", "DATA", "HASH"];
/// The signature types a tenant can take through the gateway.
pub const SIGNATURE_TYPES: [i64; 3] = [2, 3, 4];

/// A transaction state as the gateway's wire format names it (the status query's answer and
/// the tenant's view of a transaction).
pub fn wire_status(state: TransactionState) -> &'static str {
    match state {
        TransactionState::Initiated => "Initiated",
        TransactionState::Completed => "Completed",
        TransactionState::Failed => "Failed",
        TransactionState::Cancelled => "Cancelled",
        TransactionState::Expired => "Expired",
    }
}

/// A new Authtoken for the tenant's integrators, labelled `label` (1 to 100 characters): the
/// stored row (the token hashed, its last characters as a hint) and the token, shown once.
pub async fn create_authtoken(
    svc: &Services,
    caller: &Caller,
    label: Option<&str>,
) -> Result<(AuthtokenRow, String), Error> {
    caller.require(Permission::ManageSettings)?;
    let label = label.map(str::trim).unwrap_or("");
    if label.is_empty() || label.chars().count() > 100 || label.chars().any(char::is_control) {
        return Err(Error::field("label", "must be 1 to 100 characters without control characters"));
    }
    let authtoken = format!("sga_{}", secrets::random_token(32));
    let hint = format!("…{}", &authtoken[authtoken.len() - 4..]);
    let hash = secrets::hash_token(&authtoken);
    let row = svc.store.create_authtoken(caller.tenant_id, label, &hash, &hint, &caller.actor).await?;
    Ok((row, authtoken))
}

/// The tenant's Authtokens, revoked ones included (managing settings).
pub async fn authtokens(svc: &Services, caller: &Caller) -> Result<Vec<AuthtokenRow>, Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.authtokens(caller.tenant_id).await
}

/// Revokes one of the tenant's Authtokens (managing settings); another tenant's reads as missing.
pub async fn revoke_authtoken(svc: &Services, caller: &Caller, id: AuthtokenId) -> Result<(), Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.revoke_authtoken(caller.tenant_id, id, &caller.actor).await
}

/// The tenant's gateway settings (managing settings).
pub async fn settings(svc: &Services, caller: &Caller) -> Result<GatewaySettings, Error> {
    caller.require(Permission::ManageSettings)?;
    svc.store.gateway_settings(caller.tenant_id).await
}

/// Replaces the tenant's gateway settings (types upper-cased, sorted, once each).
pub async fn put_settings(
    svc: &Services,
    caller: &Caller,
    file_types: &[String],
    signature_types: &[i64],
    legacy_profile: bool,
) -> Result<GatewaySettings, Error> {
    caller.require(Permission::ManageSettings)?;
    let mut file_types: Vec<String> = file_types.iter().map(|t| t.trim().to_ascii_uppercase()).collect();
    if let Some(bad) = file_types.iter().find(|t| !FILE_TYPES.contains(&t.as_str())) {
        return Err(Error::field("fileTypes", format!("{bad} is not one of PDF, XML, DATA, HASH")));
    }
    let mut signature_types = signature_types.to_vec();
    if let Some(bad) = signature_types.iter().find(|t| !SIGNATURE_TYPES.contains(t)) {
        return Err(Error::field("signatureTypes", format!("{bad} is not one of 2, 3, 4")));
    }
    file_types.sort();
    file_types.dedup();
    signature_types.sort_unstable();
    signature_types.dedup();
    let settings = GatewaySettings { file_types, signature_types, legacy_profile };
    svc.store.put_gateway_settings(caller.tenant_id, &settings, &caller.actor).await?;
    Ok(settings)
}

/// A transaction of the tenant, with its result while it is kept (`Storetodb`), for whoever
/// manages settings; another tenant's reads as missing.
pub async fn transaction(
    svc: &Services,
    caller: &Caller,
    number: &str,
) -> Result<(TransactionRow, Option<String>), Error> {
    caller.require(Permission::ManageSettings)?;
    let row = svc.store.transaction(number).await?;
    let row = row.filter(|t| t.tenant_id == caller.tenant_id).ok_or_else(|| Error::not_found("transaction"))?;
    let returnvalue = match (&row.result_blob, result_kept(&row)) {
        (Some(key), true) => {
            let key = signet_blob::BlobKey::parse(key)?;
            let bytes = svc.blob.get(&key).await?;
            Some(String::from_utf8_lossy(&bytes).into_owned())
        }
        _ => None,
    };
    Ok((row, returnvalue))
}

/// Whether the transaction's result can still be fetched.
pub fn result_kept(row: &TransactionRow) -> bool {
    row.result_expires_at.is_some_and(|until| until > now_millis())
}

/// The integrator's status query: the transaction with this number and reference, of the
/// tenant whose `Authtoken` asks. A refusal carries the gateway's message.
///
/// Each answer tells whether an `Authtoken` is valid, so queries are counted per client
/// address (`gateway_status_per_minute`, refused rate limited), and a bogus `Authtoken` is a
/// strike of the address as at the gateway's door (an address barred there is refused here).
pub async fn status(
    svc: &Services,
    ip: std::net::IpAddr,
    authtoken: Option<&str>,
    number: Option<&str>,
    reference: Option<&str>,
) -> Result<Result<TransactionRow, &'static str>, Error> {
    svc.doors.gateway_status.check(ip)?;
    if svc.intake.barred(ip) {
        return Err(Error::RateLimited { retry_after_secs: super::intake::STRIKE_WINDOW.as_secs() });
    }
    let (Some(token), Some(number), Some(reference)) = (authtoken, number, reference) else {
        return Ok(Err("107: Invalid parameters"));
    };
    let Some((_, tenant_id)) = svc.store.authtoken_by_hash(&secrets::hash_token(token)).await? else {
        svc.intake.strike(ip);
        return Ok(Err("104: Invalid Authtoken"));
    };
    let transaction = svc.store.transaction(number).await?;
    Ok(transaction
        .filter(|t| t.tenant_id == tenant_id && t.reference_number == reference)
        .ok_or("Transaction not found"))
}
