//! Typed identifiers: one newtype per kind of row, so that a workflow's id cannot be passed
//! where a document's is meant. Each wraps the database's `i64`, prints and serialises as the
//! bare number, and converts both ways (`From<i64>`, `.get()`). The store decodes them with
//! `#[sqlx(try_from = "i64")]` and binds `.get()`, so this crate stays free of SQL.

macro_rules! ids {
    ($($(#[$meta:meta])* $name:ident;)*) => {$(
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(i64);

        impl $name {
            /// The bare number, as stored and as shown in JSON.
            pub const fn get(self) -> i64 {
                self.0
            }
        }

        impl From<i64> for $name {
            fn from(id: i64) -> Self {
                $name(id)
            }
        }

        impl From<$name> for i64 {
            fn from(id: $name) -> i64 {
                id.0
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&self.0, f)
            }
        }
    )*};
}

ids! {
    /// A tenant (an organisation using the service).
    TenantId;
    /// A workflow (an envelope).
    WorkflowId;
    /// A document, on its own or in a workflow.
    DocumentId;
    /// A signatory of a workflow.
    SignatoryId;
    /// A workflow template.
    TemplateId;
    /// An entry of a tenant's menu: an activity, or a template's entry (see [`crate::menu`]).
    MenuId;
    /// An attachment of a workflow.
    AttachmentId;
    /// A department of a tenant.
    DepartmentId;
    /// A webhook endpoint of a tenant.
    WebhookId;
    /// A job of the background queue.
    JobId;
    /// A bulk job (a bulk send or a lot's signing), run in slices by the queue.
    BulkJobId;
    /// A lot: workflows a bulk send made together, signed together later.
    LotId;
    /// An export job (a CSV or archive of a tenant's records, written in the background).
    ExportJobId;
    /// One delivery of an event to a webhook endpoint.
    DeliveryId;
    /// An e-stamp paper in a tenant's stock.
    StampId;
    /// A signing gateway `Authtoken` of a tenant (the integrator's credential).
    AuthtokenId;
    /// A tenant's single sign-on (OpenID Connect) provider.
    SsoProviderId;
    /// A customer referral recorded by a tenant.
    ReferralId;
    /// A CRM lead of a tenant, pushed to its CRM through an outbox.
    LeadId;
    /// A principal: a user or an API client of a tenant (the two share one id space).
    PrincipalId;
    /// A signing profile: a certificate with its key (an HSM's or uploaded) that signs in the
    /// organisation's name, or one a user enrolled as their own.
    SigningProfileId;
    /// A tenant's own role (its stored id; the API's `roleId` adds
    /// [`crate::access::CUSTOM_ROLE_BASE`], see [`crate::access::RoleRef`]).
    RoleId;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_show_and_serialise_as_the_bare_number() {
        let id = WorkflowId::from(42);
        assert_eq!(id.get(), 42);
        assert_eq!(id.to_string(), "42");
        assert_eq!(format!("workflow:{id}"), "workflow:42");
        assert_eq!(serde_json::to_string(&id).ok().as_deref(), Some("42"));
        assert_eq!(serde_json::from_str::<WorkflowId>("42").ok(), Some(id));
        assert_eq!(i64::from(TenantId::from(7)), 7);
    }
}
