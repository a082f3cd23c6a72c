use serde_json::json;
use signet_domain::audit::{Actor, GENESIS_HASH};
use signet_domain::embedding::{Accent, EmbedOrigin, Embedding, Logo, LogoType};
use signet_domain::{Error, ErrorCode, PrincipalId, TenantId, Zone, now_millis};

use crate::{Result, Store, append_audit, db_err, is_unique_violation, on_db};

/// A tenant with its first administrator and its first API client; secrets arrive hashed.
pub struct NewTenant {
    pub name: String,
    pub admin_email: String,
    pub admin_password_hash: String,
    pub client_id: String,
    pub client_secret_hash: String,
    pub admin_stamp: String,
    pub client_stamp: String,
}

#[derive(Debug, Clone)]
pub struct CreatedTenant {
    pub tenant_id: TenantId,
    pub admin_id: PrincipalId,
    pub client_principal_id: PrincipalId,
}

impl Store {
    /// Creates the tenant, its administrator and API client, and the first audit entries, in
    /// one transaction.
    pub async fn create_tenant(&self, new: &NewTenant, actor: &Actor) -> Result<CreatedTenant> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            let (tenant_id,): (i64,) = sqlx::query_as(
                "INSERT INTO tenants (name, audit_head, created_at) VALUES ($1, $2, $3) RETURNING id",
            )
            .bind(&new.name)
            .bind(GENESIS_HASH)
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .map_err(db_err)?;
            let tenant_id = TenantId::from(tenant_id);
            let admin = sqlx::query_as::<_, (i64,)>(
                "INSERT INTO principals (tenant_id, kind, email, secret_hash, security_stamp, created_at) \
                 VALUES ($1, 'user', $2, $3, $4, $5) RETURNING id",
            )
            .bind(tenant_id.get())
            .bind(&new.admin_email)
            .bind(&new.admin_password_hash)
            .bind(&new.admin_stamp)
            .bind(now)
            .fetch_one(&mut *tx)
            .await;
            let (admin_id,) = admin.map_err(|e| {
                if is_unique_violation(&e) {
                    Error::rejected(ErrorCode::Conflict, "a user with this email already exists")
                } else {
                    db_err(e)
                }
            })?;
            let (client_principal_id,): (i64,) = sqlx::query_as(
                "INSERT INTO principals (tenant_id, kind, client_id, secret_hash, security_stamp, created_at) \
                 VALUES ($1, 'client', $2, $3, $4, $5) RETURNING id",
            )
            .bind(tenant_id.get())
            .bind(&new.client_id)
            .bind(&new.client_secret_hash)
            .bind(&new.client_stamp)
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.event(
                "tenant.created",
                format!("tenant:{tenant_id}"),
                json!({"name": new.name, "adminEmail": new.admin_email, "clientId": new.client_id}),
            );
            self.prepare_tenant_fields(tenant_id)?;
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(CreatedTenant {
                tenant_id,
                admin_id: PrincipalId::from(admin_id),
                client_principal_id: PrincipalId::from(client_principal_id),
            })
        })
    }
}

impl Store {
    /// The organisation's time zone, in which every time it shows is written; India Standard
    /// Time when it chose none (or a name this version does not know).
    pub async fn tenant_zone(&self, tenant_id: TenantId) -> Result<Zone> {
        let row: Option<(Option<String>,)> = on_db!(self, pool => {
            sqlx::query_as("SELECT time_zone FROM tenants WHERE id = $1")
                .bind(tenant_id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        let named = row.and_then(|(zone,)| zone);
        Ok(named.and_then(|name| Zone::from_name(&name).ok()).unwrap_or_default())
    }

    /// Sets the organisation's time zone, audited as `tenant.time_zone_changed`.
    pub async fn set_tenant_zone(&self, tenant_id: TenantId, zone: Zone, actor: &Actor) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            sqlx::query("UPDATE tenants SET time_zone = $2 WHERE id = $1")
                .bind(tenant_id.get())
                .bind(zone.iana())
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            let event = actor.event("tenant.time_zone_changed", format!("tenant:{tenant_id}"), json!({"timeZone": zone.iana()}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }
    /// What the organisation set for embedding its signer pages (the logo by its type); the
    /// default (no origin: embedding off) when it set nothing. A stored origin or colour this
    /// version cannot read is left out rather than trusted.
    pub async fn embedding(&self, tenant_id: TenantId) -> Result<Embedding> {
        type Row = (String, Option<String>, Option<String>);
        let row: Option<Row> = on_db!(self, pool => {
            sqlx::query_as("SELECT origins, accent, logo_type FROM tenant_embedding WHERE tenant_id = $1")
                .bind(tenant_id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        let Some((origins, accent, logo_type)) = row else { return Ok(Embedding::default()) };
        Ok(Embedding {
            origins: origins.lines().filter_map(|line| EmbedOrigin::parse(line).ok()).collect(),
            accent: accent.as_deref().and_then(Accent::parse),
            logo: logo_type.as_deref().and_then(LogoType::from_media_type),
        })
    }

    /// The organisation's logo for its embedded pages, if it set one.
    pub async fn embedding_logo(&self, tenant_id: TenantId) -> Result<Option<Logo>> {
        let row: Option<(Option<Vec<u8>>,)> = on_db!(self, pool => {
            sqlx::query_as("SELECT logo FROM tenant_embedding WHERE tenant_id = $1")
                .bind(tenant_id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        let bytes = row.and_then(|(logo,)| logo);
        Ok(bytes.and_then(|bytes| LogoType::sniff(&bytes).map(|kind| Logo { kind, bytes })))
    }

    /// Replaces what the organisation set for embedding, audited as `tenant.embedding_changed`
    /// (with the origins and colour; the logo by its size).
    pub async fn set_embedding(
        &self,
        tenant_id: TenantId,
        origins: &[EmbedOrigin],
        accent: Option<Accent>,
        logo: Option<&Logo>,
        actor: &Actor,
    ) -> Result<()> {
        let origins: Vec<&str> = origins.iter().map(EmbedOrigin::as_str).collect();
        let accent = accent.map(Accent::css);
        let details = json!({
            "allowedOrigins": origins,
            "accentColor": accent,
            "logoBytes": logo.map(|l| l.bytes.len()),
        });
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            sqlx::query(
                "INSERT INTO tenant_embedding (tenant_id, origins, accent, logo, logo_type, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (tenant_id) DO UPDATE SET origins = excluded.origins, \
                 accent = excluded.accent, logo = excluded.logo, logo_type = excluded.logo_type, \
                 updated_at = excluded.updated_at",
            )
            .bind(tenant_id.get())
            .bind(origins.join("\n"))
            .bind(&accent)
            .bind(logo.map(|l| l.bytes.as_slice()))
            .bind(logo.map(|l| l.kind.media_type()))
            .bind(now_millis())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            let event = actor.event("tenant.embedding_changed", format!("tenant:{tenant_id}"), details);
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }
}
