//! Each tenant seals with its own certificate. With one platform key for everyone, tenant A
//! could make a document (or a bare hash signature) that validates as the platform's seal and
//! reads "Signed by Alice (workflow 42)" of tenant B. Instead the platform CA issues every
//! tenant a sealing certificate whose subject names the tenant's organisation, on first use,
//! and the gateway seals, hash signatures, workflow signatures and completion certificates of
//! that tenant are made with it: a validator shows whose statement a signature is.
//!
//! The key pair is stored like the platform keys (`signing_keys`, purpose `tenant-seal:<id>`),
//! so every instance uses the same one; concurrent first uses agree through the insert. With
//! an HSM configured the key is made inside it and the row keeps the certificate only
//! ([`crate::platform::keyring`]).
//!
//! A certificate within [`RENEW_BEFORE`] of its end is renewed on its next use (a new key and
//! certificate replace the stored ones; concurrent renewals agree through a compare-and-swap
//! on the key id), so a seal is never made with a certificate about to lapse. Signatures made
//! before keep validating: each carries its own certificate and a timestamp.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use signet_domain::Error;
use signet_sigcrypto::pki::{self, IssueOptions};
use signet_signing::RawSigner;
use signet_store::{SigningKeyRow, Store};

use crate::platform::keyring::Keyring;
use crate::platform::keys::{self, KeyPairDer};

/// How long before its end a sealing certificate is replaced.
pub const RENEW_BEFORE: std::time::Duration = std::time::Duration::from_secs(30 * 24 * 3600);

/// Longest organisation name put into a certificate subject (X.520 ub-organization-name).
const MAX_ORGANIZATION_CHARS: usize = 64;

/// The purpose under which a tenant's sealing key is stored.
pub fn purpose(tenant_id: signet_domain::TenantId) -> String {
    format!("tenant-seal:{tenant_id}")
}

/// The subject of a tenant's sealing certificate: the organisation as the tenant is named,
/// cut to what X.509 allows, with the platform named as the one who seals.
fn subject(tenant_name: &str) -> (String, String) {
    let cleaned: String = tenant_name.chars().filter(|c| !c.is_control()).collect::<String>().trim().to_string();
    let organization: String = if cleaned.is_empty() { "Unnamed tenant".to_string() } else { cleaned };
    let organization: String = organization.chars().take(MAX_ORGANIZATION_CHARS).collect();
    (format!("{organization} (sealed by Signet)"), organization)
}

/// A tenant's sealing signer and when its certificate ends (Unix seconds).
#[derive(Clone)]
struct Sealer {
    signer: Arc<dyn RawSigner>,
    not_after: u64,
}

impl Sealer {
    fn due_for_renewal(&self, now: u64) -> bool {
        self.not_after.saturating_sub(RENEW_BEFORE.as_secs()) <= now
    }
}

fn now_unix() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// Every tenant's sealing signer, cached after its first use.
pub struct TenantSeals {
    ca: KeyPairDer,
    keyring: Keyring,
    cache: Mutex<HashMap<signet_domain::TenantId, Sealer>>,
}

impl TenantSeals {
    pub fn new(ca: KeyPairDer, keyring: Keyring) -> TenantSeals {
        TenantSeals { ca, keyring, cache: Mutex::new(HashMap::new()) }
    }

    fn cached(&self, tenant_id: signet_domain::TenantId) -> Option<Sealer> {
        self.cache.lock().ok().and_then(|cache| cache.get(&tenant_id).cloned())
    }

    /// The tenant's sealing signer; its certificate is issued on the first call and renewed
    /// when it is within [`RENEW_BEFORE`] of its end.
    pub async fn for_tenant(
        &self,
        store: &Store,
        tenant_id: signet_domain::TenantId,
    ) -> Result<Arc<dyn RawSigner>, Error> {
        let now = now_unix();
        if let Some(sealer) = self.cached(tenant_id).filter(|s| !s.due_for_renewal(now)) {
            return Ok(sealer.signer);
        }
        let mut row = match store.signing_key(&purpose(tenant_id)).await? {
            Some(row) => row,
            None => {
                let made = self.issue(store, tenant_id).await?;
                let ours = keys::to_row(&made);
                let row = store.signing_key_get_or_insert(&purpose(tenant_id), &ours).await?;
                if row.kid != ours.kid {
                    self.keyring.discard(&made);
                }
                row
            }
        };
        let mut sealer = self.sealer_of(&row)?;
        if sealer.due_for_renewal(now) {
            let renewed = self.issue(store, tenant_id).await?;
            let ours = keys::to_row(&renewed);
            row = store.signing_key_replace(&purpose(tenant_id), &row.kid, &ours).await?;
            if row.kid != ours.kid {
                self.keyring.discard(&renewed);
            }
            sealer = self.sealer_of(&row)?;
            tracing::info!(%tenant_id, kid = %row.kid, "renewed a tenant's sealing certificate");
        }
        if let Ok(mut cache) = self.cache.lock() {
            cache.insert(tenant_id, sealer.clone());
        }
        Ok(sealer.signer)
    }

    /// A new key and certificate for the tenant (not yet stored).
    async fn issue(&self, store: &Store, tenant_id: signet_domain::TenantId) -> Result<KeyPairDer, Error> {
        let name = store
            .tenant_name(tenant_id)
            .await?
            .ok_or_else(|| Error::internal(format!("tenant {tenant_id} has no name")))?;
        let (common_name, organization) = subject(&name);
        let (ca, keyring, label) = (self.ca.clone(), self.keyring.clone(), purpose(tenant_id));
        tokio::task::spawn_blocking(move || {
            let options = IssueOptions { organization: Some(organization), ..IssueOptions::default() };
            keyring.new_sealing_key(&ca, &label, &common_name, &options).map_err(Error::internal)
        })
        .await
        .map_err(Error::internal)?
    }

    fn sealer_of(&self, row: &SigningKeyRow) -> Result<Sealer, Error> {
        let not_after = pki::not_after_unix(&row.public_raw).map_err(Error::internal)?;
        let pair = KeyPairDer { cert_der: row.public_raw.clone(), key_pkcs8_der: row.private_der.clone() };
        let signer = self.keyring.signer(&pair, vec![self.ca.cert_der.clone()]).map_err(Error::internal)?;
        Ok(Sealer { signer, not_after })
    }

    /// Issues the certificates of tenants that have none yet (installations from before
    /// per-tenant seals) and renews those due, one after the other so that start-up work
    /// stays small.
    pub async fn issue_missing(&self, store: &Store) -> Result<usize, Error> {
        let mut issued = 0;
        let now = now_unix();
        for tenant_id in store.tenant_ids().await? {
            let due = match store.signing_key(&purpose(tenant_id)).await? {
                None => true,
                Some(row) => pki::not_after_unix(&row.public_raw)
                    .map_or(true, |not_after| not_after.saturating_sub(RENEW_BEFORE.as_secs()) <= now),
            };
            if due {
                self.for_tenant(store, tenant_id).await?;
                issued += 1;
            }
        }
        Ok(issued)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subject_names_the_organisation_and_stays_within_bounds() {
        assert_eq!(subject("Acme Bank"), ("Acme Bank (sealed by Signet)".into(), "Acme Bank".into()));
        let (cn, org) = subject(&"x".repeat(500));
        assert_eq!(org.chars().count(), MAX_ORGANIZATION_CHARS);
        assert!(cn.ends_with("(sealed by Signet)"));
        assert_eq!(subject(" \u{7}\n ").1, "Unnamed tenant");
    }
}
