//! The organisation's own settings that are not a capability's: its time zone, in which every
//! time it shows (pages, e-mails, certificates, signature appearances) is written.

use signet_domain::access::Permission;
use signet_domain::{Error, TenantId, Zone};

use crate::{Caller, Services};

/// The organisation's time zone; India Standard Time when it chose none or it cannot be read
/// now (a time in the default zone, named, misleads no one).
pub async fn zone_of(svc: &Services, tenant_id: TenantId) -> Zone {
    svc.store.tenant_zone(tenant_id).await.unwrap_or_else(|error| {
        tracing::warn!(%error, %tenant_id, "time zone not read; India Standard Time used");
        Zone::default()
    })
}

/// Sets the caller's organisation's time zone by its IANA name (managing settings).
pub async fn set_time_zone(svc: &Services, caller: &Caller, name: &str) -> Result<Zone, Error> {
    caller.require(Permission::ManageSettings)?;
    let zone = Zone::from_name(name).map_err(|unknown| Error::field("timeZone", unknown.to_string()))?;
    svc.store.set_tenant_zone(caller.tenant_id, zone, &caller.actor).await?;
    Ok(zone)
}
