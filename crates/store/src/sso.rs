//! Single sign-on through a tenant's OpenID Connect providers: the providers with the e-mail
//! domains they serve (a domain belongs to one provider of the installation), sign-ins under
//! way (kept as the hash of their state, taken once), accounts linked to a provider's subject,
//! and the one-time codes that finished sign-ins hand to the application.

use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::{Error, ErrorCode, PrincipalId, SsoProviderId, TenantId, now_millis};

use crate::{PrincipalCredentials, Result, Store, append_audit, db_err, is_unique_violation, on_db};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SsoProviderRow {
    #[sqlx(try_from = "i64")]
    pub id: SsoProviderId,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    pub name: String,
    pub display_name: String,
    pub issuer: String,
    pub client_id: String,
    /// Sealed by the services; `None` for a public client (PKCE only).
    pub client_secret: Option<Vec<u8>>,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub userinfo_endpoint: Option<String>,
    pub jwks_uri: String,
    /// One absolute URL per line: where a finished sign-in may hand its code.
    pub redirect_uris: String,
    pub disabled: bool,
    pub created_at: i64,
    pub updated_at: Option<i64>,
    /// The built-in role of whoever last saved the provider (`None`: saved before savers
    /// were recorded).
    pub saved_by_role: Option<String>,
    /// The permissions of that saver's tenant role, comma-separated, when they had one.
    pub saved_by_permissions: Option<String>,
}

impl SsoProviderRow {
    pub fn redirect_uri_list(&self) -> impl Iterator<Item = &str> {
        self.redirect_uris.lines().filter(|l| !l.is_empty())
    }
}

/// A provider as it is saved (its endpoints from its discovery document).
pub struct NewSsoProvider<'a> {
    pub name: &'a str,
    pub display_name: &'a str,
    pub issuer: &'a str,
    pub client_id: &'a str,
    pub client_secret: Option<&'a [u8]>,
    pub authorization_endpoint: &'a str,
    pub token_endpoint: &'a str,
    pub userinfo_endpoint: Option<&'a str>,
    pub jwks_uri: &'a str,
    pub redirect_uris: &'a [String],
    pub domains: &'a [String],
    /// Who saves it, with the access they have now.
    pub saved_by: SavedBy<'a>,
}

/// Whoever saves a provider and the access they have: the accounts a first sign-in may link.
pub struct SavedBy<'a> {
    pub actor: &'a str,
    pub role: &'a str,
    pub permissions: Option<&'a str>,
}

/// A sign-in under way, as its answer finds it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SsoLoginRow {
    #[sqlx(try_from = "i64")]
    pub provider_id: SsoProviderId,
    pub return_to: Option<String>,
    pub client_state: Option<String>,
}

/// An account's link to a provider, as `ManageInfoResponse` lists it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SsoIdentityRow {
    #[sqlx(try_from = "i64")]
    pub provider_id: SsoProviderId,
    pub name: String,
    pub display_name: String,
    pub disabled: bool,
    pub email: Option<String>,
    pub linked_at: i64,
}

const PROVIDER_COLUMNS: &str = "id, tenant_id, name, display_name, issuer, client_id, client_secret, \
     authorization_endpoint, token_endpoint, userinfo_endpoint, jwks_uri, redirect_uris, disabled, created_at, updated_at, \
     saved_by_role, saved_by_permissions";

impl Store {
    /// Saves a provider of the tenant with the domains it serves; a name the tenant uses, or a
    /// domain another provider serves, is a conflict.
    pub async fn create_sso_provider(
        &self,
        tenant_id: TenantId,
        new: &NewSsoProvider<'_>,
        actor: &Actor,
    ) -> Result<SsoProviderRow> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let row: SsoProviderRow = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "INSERT INTO sso_providers (tenant_id, name, display_name, issuer, client_id, client_secret, \
                 authorization_endpoint, token_endpoint, userinfo_endpoint, jwks_uri, redirect_uris, disabled, created_at, \
                 saved_by, saved_by_role, saved_by_permissions) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, FALSE, $12, $13, $14, $15) RETURNING {PROVIDER_COLUMNS}"
            )))
            .bind(tenant_id.get())
            .bind(new.name)
            .bind(new.display_name)
            .bind(new.issuer)
            .bind(new.client_id)
            .bind(new.client_secret)
            .bind(new.authorization_endpoint)
            .bind(new.token_endpoint)
            .bind(new.userinfo_endpoint)
            .bind(new.jwks_uri)
            .bind(new.redirect_uris.join("\n"))
            .bind(now)
            .bind(new.saved_by.actor)
            .bind(new.saved_by.role)
            .bind(new.saved_by.permissions)
            .fetch_one(&mut *tx)
            .await
            .map_err(|e| unique_conflict(e, "the tenant has a provider of this name"))?;
            for domain in new.domains {
                sqlx::query("INSERT INTO sso_domains (domain, provider_id, tenant_id) VALUES ($1, $2, $3)")
                    .bind(domain)
                    .bind(row.id.get())
                    .bind(tenant_id.get())
                    .execute(&mut *tx)
                    .await
                    .map_err(|e| unique_conflict(e, &format!("the domain {domain} is served by another provider")))?;
            }
            let detail = json!({"name": new.name, "issuer": new.issuer, "domains": new.domains});
            let event = actor.event("sso.provider_created", format!("sso-provider:{}", row.id), detail);
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// Changes a provider of the tenant to `changed` (its endpoints read again, its domains
    /// replaced), provided its sealed client secret is still `expected_secret` (what the caller
    /// read and resealed or replaced; a conflict otherwise); `secret_replaced` (a new secret, or
    /// none any more) goes into the audit trail. A new issuer ends the links to
    /// the old one's subjects and the sign-ins under way; a new client id ends the sign-ins
    /// under way. A name the tenant uses, or a domain another provider serves, is a conflict.
    pub async fn update_sso_provider(
        &self,
        tenant_id: TenantId,
        id: SsoProviderId,
        changed: &NewSsoProvider<'_>,
        expected_secret: Option<&[u8]>,
        secret_replaced: bool,
        actor: &Actor,
    ) -> Result<SsoProviderRow> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let found: Option<(String, String, Option<Vec<u8>>)> = sqlx::query_as(
                "SELECT issuer, client_id, client_secret FROM sso_providers WHERE tenant_id = $1 AND id = $2",
            )
            .bind(tenant_id.get())
            .bind(id.get())
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            let Some((issuer, client_id, secret)) = found else { return Err(Error::not_found("SSO provider")) };
            if secret.as_deref() != expected_secret {
                return Err(Error::rejected(ErrorCode::Conflict, "the provider was changed meanwhile; try again"));
            }
            let row: SsoProviderRow = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "UPDATE sso_providers SET name = $3, display_name = $4, issuer = $5, client_id = $6, client_secret = $7, \
                 authorization_endpoint = $8, token_endpoint = $9, userinfo_endpoint = $10, jwks_uri = $11, \
                 redirect_uris = $12, updated_at = $13, saved_by = $14, saved_by_role = $15, saved_by_permissions = $16 \
                 WHERE tenant_id = $1 AND id = $2 RETURNING {PROVIDER_COLUMNS}"
            )))
            .bind(tenant_id.get())
            .bind(id.get())
            .bind(changed.name)
            .bind(changed.display_name)
            .bind(changed.issuer)
            .bind(changed.client_id)
            .bind(changed.client_secret)
            .bind(changed.authorization_endpoint)
            .bind(changed.token_endpoint)
            .bind(changed.userinfo_endpoint)
            .bind(changed.jwks_uri)
            .bind(changed.redirect_uris.join("\n"))
            .bind(now)
            .bind(changed.saved_by.actor)
            .bind(changed.saved_by.role)
            .bind(changed.saved_by.permissions)
            .fetch_one(&mut *tx)
            .await
            .map_err(|e| unique_conflict(e, "the tenant has a provider of this name"))?;
            let mut ended: Vec<&str> = Vec::new();
            if issuer != changed.issuer || client_id != changed.client_id {
                ended.push("sso_logins");
            }
            if issuer != changed.issuer {
                ended.push("sso_identities");
            }
            ended.push("sso_domains");
            for table in ended.iter() {
                sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {table} WHERE provider_id = $1")))
                    .bind(id.get())
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
            }
            for domain in changed.domains {
                sqlx::query("INSERT INTO sso_domains (domain, provider_id, tenant_id) VALUES ($1, $2, $3)")
                    .bind(domain)
                    .bind(id.get())
                    .bind(tenant_id.get())
                    .execute(&mut *tx)
                    .await
                    .map_err(|e| unique_conflict(e, &format!("the domain {domain} is served by another provider")))?;
            }
            let detail = json!({
                "name": changed.name, "issuer": changed.issuer, "domains": changed.domains,
                "clientSecretReplaced": secret_replaced,
                "linksEnded": issuer != changed.issuer,
            });
            let event = actor.event("sso.provider_updated", format!("sso-provider:{id}"), detail);
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// The tenant's providers, each with its domains.
    pub async fn sso_providers(&self, tenant_id: TenantId) -> Result<Vec<(SsoProviderRow, Vec<String>)>> {
        let providers: Vec<SsoProviderRow> = on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {PROVIDER_COLUMNS} FROM sso_providers WHERE tenant_id = $1 ORDER BY id"
            )))
            .bind(tenant_id.get())
            .fetch_all(pool)
            .await
            .map_err(db_err)?
        });
        let domains: Vec<(i64, String)> = on_db!(self, pool => {
            sqlx::query_as("SELECT provider_id, domain FROM sso_domains WHERE tenant_id = $1 ORDER BY domain")
                .bind(tenant_id.get())
                .fetch_all(pool)
                .await
                .map_err(db_err)?
        });
        Ok(providers
            .into_iter()
            .map(|p| {
                let own = domains.iter().filter(|(id, _)| *id == p.id.get()).map(|(_, d)| d.clone()).collect();
                (p, own)
            })
            .collect())
    }

    /// A provider by its id alone (a sign-in names it before anyone is known).
    pub async fn sso_provider(&self, id: SsoProviderId) -> Result<Option<SsoProviderRow>> {
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {PROVIDER_COLUMNS} FROM sso_providers WHERE id = $1")))
                .bind(id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)
        })
    }

    /// The enabled provider serving an e-mail domain, if any: its tenant's, once the tenant
    /// has proven the domain (a pending proof serves nothing).
    pub async fn sso_provider_for_domain(&self, domain: &str) -> Result<Option<SsoProviderRow>> {
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {} FROM sso_providers p JOIN sso_domains d ON d.provider_id = p.id \
                 JOIN sso_domain_proofs f ON f.tenant_id = d.tenant_id AND f.domain = d.domain \
                 WHERE d.domain = lower($1) AND f.proven_at IS NOT NULL AND NOT p.disabled",
                PROVIDER_COLUMNS.split(", ").map(|c| format!("p.{c}")).collect::<Vec<_>>().join(", ")
            )))
            .bind(domain)
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }

    /// Deletes a provider of the tenant with its domains, sign-ins under way and links.
    pub async fn delete_sso_provider(&self, tenant_id: TenantId, id: SsoProviderId, actor: &Actor) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let found: Option<(String,)> = sqlx::query_as("SELECT name FROM sso_providers WHERE tenant_id = $1 AND id = $2")
                .bind(tenant_id.get())
                .bind(id.get())
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
            let Some((name,)) = found else { return Err(Error::not_found("SSO provider")) };
            for table in ["sso_domains", "sso_logins", "sso_identities"] {
                sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {table} WHERE provider_id = $1")))
                    .bind(id.get())
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
            }
            sqlx::query("DELETE FROM sso_providers WHERE id = $1").bind(id.get()).execute(&mut *tx).await.map_err(db_err)?;
            let event = actor.event("sso.provider_deleted", format!("sso-provider:{id}"), json!({"name": name}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Records a sign-in sent to the provider.
    pub async fn begin_sso_login(
        &self,
        state_hash: &str,
        provider_id: SsoProviderId,
        return_to: Option<&str>,
        client_state: Option<&str>,
        expires_at: i64,
    ) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query(
                "INSERT INTO sso_logins (state_hash, provider_id, return_to, client_state, expires_at, used_at, created_at) \
                 VALUES ($1, $2, $3, $4, $5, NULL, $6)",
            )
            .bind(state_hash)
            .bind(provider_id.get())
            .bind(return_to)
            .bind(client_state)
            .bind(expires_at)
            .bind(now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?;
            Ok(())
        })
    }

    /// Takes a sign-in under way by its state's hash: once, before it expires.
    pub async fn take_sso_login(&self, state_hash: &str) -> Result<Option<SsoLoginRow>> {
        let now = now_millis();
        on_db!(self, pool => {
            sqlx::query_as(
                "UPDATE sso_logins SET used_at = $2 WHERE state_hash = $1 AND used_at IS NULL AND expires_at > $2 \
                 RETURNING provider_id, return_to, client_state",
            )
            .bind(state_hash)
            .bind(now)
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }

    /// The account linked to a provider's subject.
    pub async fn sso_linked_principal(&self, provider_id: SsoProviderId, subject: &str) -> Result<Option<PrincipalId>> {
        let found: Option<(i64,)> = on_db!(self, pool => {
            sqlx::query_as("SELECT principal_id FROM sso_identities WHERE provider_id = $1 AND subject = $2")
                .bind(provider_id.get())
                .bind(subject)
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        Ok(found.map(|(id,)| PrincipalId::from(id)))
    }

    /// Links an account to a provider's subject (found by verified e-mail), audited; a subject
    /// linked meanwhile keeps its first link.
    pub async fn link_sso_identity(
        &self,
        provider: &SsoProviderRow,
        subject: &str,
        principal_id: PrincipalId,
        email: &str,
    ) -> Result<()> {
        let now = now_millis();
        let tenant_id = provider.tenant_id;
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let inserted = sqlx::query(
                "INSERT INTO sso_identities (provider_id, subject, principal_id, tenant_id, email, linked_at, last_login_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (provider_id, subject) DO NOTHING",
            )
            .bind(provider.id.get())
            .bind(subject)
            .bind(principal_id.get())
            .bind(tenant_id.get())
            .bind(email)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if inserted == 1 {
                let actor = Actor { id: format!("user:{principal_id}"), ip: None };
                let detail = json!({"provider": provider.name, "email": email});
                let event = actor.event("user.sso_linked", format!("user:{principal_id}"), detail);
                append_audit!(self, tx, tenant_id, &event);
            }
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Notes a sign-in through a linked subject.
    pub async fn touch_sso_identity(&self, provider_id: SsoProviderId, subject: &str) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query("UPDATE sso_identities SET last_login_at = $3 WHERE provider_id = $1 AND subject = $2")
                .bind(provider_id.get())
                .bind(subject)
                .bind(now_millis())
                .execute(pool)
                .await
                .map_err(db_err)?;
            Ok(())
        })
    }

    /// The providers an account of the tenant is linked to.
    pub async fn sso_identities_of(
        &self,
        tenant_id: TenantId,
        principal_id: PrincipalId,
    ) -> Result<Vec<SsoIdentityRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT i.provider_id, p.name, p.display_name, p.disabled, i.email, i.linked_at FROM sso_identities i \
                 JOIN sso_providers p ON p.id = i.provider_id WHERE i.tenant_id = $1 AND i.principal_id = $2 ORDER BY p.name",
            )
            .bind(tenant_id.get())
            .bind(principal_id.get())
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }

    /// Records the one-time code of a finished sign-in.
    pub async fn create_sso_code(
        &self,
        code_hash: &str,
        tenant_id: TenantId,
        principal_id: PrincipalId,
        expires_at: i64,
    ) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query(
                "INSERT INTO sso_codes (code_hash, principal_id, tenant_id, expires_at, used_at, created_at) \
                 VALUES ($1, $2, $3, $4, NULL, $5)",
            )
            .bind(code_hash)
            .bind(principal_id.get())
            .bind(tenant_id.get())
            .bind(expires_at)
            .bind(now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?;
            Ok(())
        })
    }

    /// Spends a sign-in's one-time code (once, in time): the credentials of its account.
    pub async fn take_sso_code(&self, code_hash: &str) -> Result<Option<PrincipalCredentials>> {
        let now = now_millis();
        let principal: Option<(i64,)> = on_db!(self, pool => {
            sqlx::query_as(
                "UPDATE sso_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL AND expires_at > $2 \
                 RETURNING principal_id",
            )
            .bind(code_hash)
            .bind(now)
            .fetch_optional(pool)
            .await
            .map_err(db_err)?
        });
        let Some((principal_id,)) = principal else { return Ok(None) };
        self.principal_credentials(PrincipalId::from(principal_id)).await
    }
}

/// A tenant's proof (or proof under way) that it owns an e-mail domain.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SsoDomainProofRow {
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    pub domain: String,
    /// What the domain's TXT record must hold.
    pub token: String,
    pub created_at: i64,
    pub proven_at: Option<i64>,
}

const PROOF_COLUMNS: &str = "tenant_id, domain, token, created_at, proven_at";

/// A finished sign-in that still owes the account's second factor.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SsoSecondFactorRow {
    #[sqlx(try_from = "i64")]
    pub principal_id: PrincipalId,
    #[sqlx(try_from = "i64")]
    pub tenant_id: TenantId,
    pub return_to: String,
    pub client_state: Option<String>,
}

impl Store {
    /// Every tenant's proofs of a domain (pending or proven).
    pub async fn sso_domain_proofs_of(&self, domain: &str) -> Result<Vec<SsoDomainProofRow>> {
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {PROOF_COLUMNS} FROM sso_domain_proofs WHERE domain = $1 ORDER BY tenant_id"
            )))
            .bind(domain)
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }

    /// The tenant's proofs, by domain.
    pub async fn sso_domain_proofs(&self, tenant_id: TenantId) -> Result<Vec<SsoDomainProofRow>> {
        on_db!(self, pool => {
            sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {PROOF_COLUMNS} FROM sso_domain_proofs WHERE tenant_id = $1 ORDER BY domain"
            )))
            .bind(tenant_id.get())
            .fetch_all(pool)
            .await
            .map_err(db_err)
        })
    }

    /// Starts the tenant's proof of a domain with `token`, audited; a proof already started is
    /// answered as it is (its token kept: the record may be published already).
    pub async fn start_sso_domain_proof(
        &self,
        tenant_id: TenantId,
        domain: &str,
        token: &str,
        actor: &Actor,
    ) -> Result<SsoDomainProofRow> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let inserted = sqlx::query(
                "INSERT INTO sso_domain_proofs (tenant_id, domain, token, created_by, created_at, proven_at) \
                 VALUES ($1, $2, $3, $4, $5, NULL) ON CONFLICT (tenant_id, domain) DO NOTHING",
            )
            .bind(tenant_id.get())
            .bind(domain)
            .bind(token)
            .bind(&actor.id)
            .bind(now)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if inserted == 1 {
                let event = actor.event("sso.domain_proof_started", format!("sso-domain:{domain}"), json!({"domain": domain}));
                append_audit!(self, tx, tenant_id, &event);
            }
            let row: SsoDomainProofRow = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "SELECT {PROOF_COLUMNS} FROM sso_domain_proofs WHERE tenant_id = $1 AND domain = $2"
            )))
            .bind(tenant_id.get())
            .bind(domain)
            .fetch_one(&mut *tx)
            .await
            .map_err(db_err)?;
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// Records that the tenant proved a domain, audited; another tenant's proof of it first is
    /// a conflict (a domain is proven by one tenant of the installation).
    pub async fn prove_sso_domain(
        &self,
        tenant_id: TenantId,
        domain: &str,
        actor: &Actor,
    ) -> Result<SsoDomainProofRow> {
        let now = now_millis();
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            let row: Option<SsoDomainProofRow> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
                "UPDATE sso_domain_proofs SET proven_at = $3 WHERE tenant_id = $1 AND domain = $2 AND proven_at IS NULL \
                 RETURNING {PROOF_COLUMNS}"
            )))
            .bind(tenant_id.get())
            .bind(domain)
            .bind(now)
            .fetch_optional(&mut *tx)
            .await
            .map_err(|e| unique_conflict(e, &format!("the domain {domain} is proven by another tenant")))?;
            let Some(row) = row else { return Err(Error::not_found("domain proof")) };
            let event = actor.event("sso.domain_proven", format!("sso-domain:{domain}"), json!({"domain": domain}));
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(row)
        })
    }

    /// Whether the tenant lets a single sign-on stand in for its users' second factor.
    pub async fn sso_replaces_second_factor(&self, tenant_id: TenantId) -> Result<bool> {
        let found: Option<(bool,)> = on_db!(self, pool => {
            sqlx::query_as("SELECT sso_replaces_second_factor FROM tenants WHERE id = $1")
                .bind(tenant_id.get())
                .fetch_optional(pool)
                .await
                .map_err(db_err)?
        });
        Ok(found.is_some_and(|(replaces,)| replaces))
    }

    /// Sets whether a single sign-on stands in for the tenant's users' second factor, audited.
    pub async fn set_sso_replaces_second_factor(
        &self,
        tenant_id: TenantId,
        replaces: bool,
        actor: &Actor,
    ) -> Result<()> {
        on_db!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_err)?;
            crate::chain::lock_tenant!(tx, tenant_id);
            sqlx::query("UPDATE tenants SET sso_replaces_second_factor = $2 WHERE id = $1")
                .bind(tenant_id.get())
                .bind(replaces)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            let detail = json!({"ssoReplacesSecondFactor": replaces});
            let event = actor.event("sso.settings_changed", format!("tenant:{}", tenant_id.get()), detail);
            append_audit!(self, tx, tenant_id, &event);
            tx.commit().await.map_err(db_err)?;
            Ok(())
        })
    }

    /// Records a finished sign-in that owes the account's second factor.
    pub async fn begin_sso_second_factor(
        &self,
        token_hash: &str,
        pending: &SsoSecondFactorRow,
        expires_at: i64,
    ) -> Result<()> {
        on_db!(self, pool => {
            sqlx::query(
                "INSERT INTO sso_second_factors (token_hash, principal_id, tenant_id, return_to, client_state, \
                 expires_at, used_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, NULL, $7)",
            )
            .bind(token_hash)
            .bind(pending.principal_id.get())
            .bind(pending.tenant_id.get())
            .bind(&pending.return_to)
            .bind(&pending.client_state)
            .bind(expires_at)
            .bind(now_millis())
            .execute(pool)
            .await
            .map_err(db_err)?;
            Ok(())
        })
    }

    /// A sign-in owing its second factor, while it is unused and in time (not taken).
    pub async fn sso_second_factor(&self, token_hash: &str) -> Result<Option<SsoSecondFactorRow>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT principal_id, tenant_id, return_to, client_state FROM sso_second_factors \
                 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
            )
            .bind(token_hash)
            .bind(now_millis())
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }

    /// Takes a sign-in owing its second factor (once, in time): it is paid.
    pub async fn take_sso_second_factor(&self, token_hash: &str) -> Result<bool> {
        let now = now_millis();
        on_db!(self, pool => {
            let taken = sqlx::query(
                "UPDATE sso_second_factors SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
            )
            .bind(token_hash)
            .bind(now)
            .execute(pool)
            .await
            .map_err(db_err)?
            .rows_affected();
            Ok(taken == 1)
        })
    }
}

impl Store {
    /// The domains of the e-mail addresses of the tenant's active users, lower case.
    pub async fn user_email_domains(&self, tenant_id: TenantId) -> Result<Vec<String>> {
        let emails: Vec<(String,)> = on_db!(self, pool => {
            sqlx::query_as(
                "SELECT email FROM principals WHERE tenant_id = $1 AND kind = 'user' AND email IS NOT NULL \
                 AND NOT disabled AND status = 'active'",
            )
            .bind(tenant_id.get())
            .fetch_all(pool)
            .await
            .map_err(db_err)?
        });
        let mut domains: Vec<String> =
            emails.iter().filter_map(|(e,)| e.rsplit_once('@').map(|(_, d)| d.to_ascii_lowercase())).collect();
        domains.sort();
        domains.dedup();
        Ok(domains)
    }

    /// A user's credentials by id (an account found through a linked identity).
    pub async fn principal_credentials(&self, principal_id: PrincipalId) -> Result<Option<PrincipalCredentials>> {
        on_db!(self, pool => {
            sqlx::query_as(
                "SELECT id, tenant_id, kind, secret_hash, security_stamp, disabled, status, login_mode FROM principals \
                 WHERE id = $1 AND kind = 'user'",
            )
            .bind(principal_id.get())
            .fetch_optional(pool)
            .await
            .map_err(db_err)
        })
    }

    /// Deletes sign-ins under way and one-time codes that expired before `before`.
    pub async fn purge_expired_sso(&self, before: i64) -> Result<u64> {
        let mut purged = 0;
        for table in ["sso_logins", "sso_codes", "sso_signup_logins", "sso_second_factors"] {
            purged += on_db!(self, pool => {
                sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {table} WHERE expires_at < $1")))
                    .bind(before)
                    .execute(pool)
                    .await
                    .map_err(db_err)?
                    .rows_affected()
            });
        }
        Ok(purged)
    }
}

/// A unique index's refusal as the conflict it means (`what` says which), else a database error.
fn unique_conflict(e: sqlx::Error, what: &str) -> Error {
    if is_unique_violation(&e) { Error::rejected(ErrorCode::Conflict, what.to_string()) } else { db_err(e) }
}
