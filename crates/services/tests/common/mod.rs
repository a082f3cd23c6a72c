//! What the use-case tests share: the services assembled on a database of their own (either
//! backend, through the test kit), tenants provisioned as the CLI and the sign-up do, and
//! callers of any role, as the API and the console hand them to the use cases.
//!
//! The kit's server spawner is not used here: it builds the whole server, and these tests
//! call the use cases themselves.

#![allow(dead_code)] // each test binary uses its own part of the kit

use signet_blob::BlobStore;
use signet_domain::PrincipalId;
use signet_domain::access::{Access, Role};
use signet_domain::audit::Actor;
use signet_services::people::provision::{self, ProvisionedTenant};
use signet_services::platform::config::Config;
use signet_services::{Caller, Services};
use signet_testkit::Backend;
use signet_testkit::db::TestDb;

/// The password every provisioned administrator signs in with.
pub const PASSWORD: &str = "a long and private passphrase";

/// An id no tenant has.
pub const MISSING: i64 = 2_000_000_000;

/// The services on their own database and key folder, which live as long as this does.
pub struct Assembled {
    pub services: Services,
    /// The same database, for provisioning (which the CLI and the sign-up do before any
    /// caller exists).
    store: signet_store::Store,
    _db: TestDb,
    _dir: tempfile::TempDir,
}

impl Assembled {
    /// The test defaults: no background workers, a small gateway key (key generation is the
    /// slowest part of assembling).
    pub async fn new(backend: Backend) -> Assembled {
        Assembled::with(backend, Config::default()).await
    }

    /// `config`'s settings, on a fresh database of `backend` and a key folder of its own.
    pub async fn with(backend: Backend, config: Config) -> Assembled {
        let db = TestDb::new(backend).await;
        let store = db.open().await;
        let dir = tempfile::tempdir().expect("key folder");
        let config = Config { data_dir: dir.path().to_path_buf(), workers: false, gateway_key_bits: 2048, ..config };
        let services = Services::assemble(config, store.clone(), BlobStore::memory()).await.expect("services");
        Assembled { services, store, _db: db, _dir: dir }
    }

    /// A new tenant called `name` whose administrator, at `email`, signs in with [`PASSWORD`].
    pub async fn tenant_with_admin(&self, name: &str, email: &str) -> ProvisionedTenant {
        provision::create_tenant(&self.store, name, email, Some(PASSWORD), &Actor::system()).await.expect("tenant")
    }

    /// A new tenant called `name`, its administrator at an address of its own.
    pub async fn tenant(&self, name: &str) -> ProvisionedTenant {
        let domain: String = name.chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_lowercase();
        self.tenant_with_admin(name, &format!("admin@{domain}.test")).await
    }
}

/// A user of `tenant` with `access`, as the faces hand them to the use cases.
pub fn caller(tenant: &ProvisionedTenant, principal_id: PrincipalId, access: Access) -> Caller {
    let actor = Actor { id: format!("user:{principal_id}"), ip: Some("127.0.0.1".into()) };
    Caller { tenant_id: tenant.tenant_id, principal_id, is_user: true, access, actor }
}

/// The tenant's first administrator.
pub fn administrator(tenant: &ProvisionedTenant) -> Caller {
    caller(tenant, tenant.admin_user_id, Access::builtin(Role::Administrator))
}
