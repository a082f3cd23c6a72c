//! Schemas that the derive cannot say: bounds on the items of id lists.

use utoipa::openapi::schema::{ArrayBuilder, KnownFormat, ObjectBuilder, Schema, SchemaFormat, SchemaType, Type};

/// A positive int32 id.
pub fn positive_id() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)))
        .minimum(Some(1))
        .maximum(Some(i32::MAX))
}

fn id_list(description: &str, min: usize, max: usize) -> Schema {
    ArrayBuilder::new()
        .items(positive_id())
        .min_items(Some(min))
        .max_items(Some(max))
        .description(Some(description))
        .into()
}

/// `BulkDeleteDepartmentRequest.departmentIds`.
pub fn bulk_department_ids() -> Schema {
    id_list("1 to 1000 department ids, each positive; all are deleted or none.", 1, 1000)
}

/// `AssignAccessRequest.menuIds`.
pub fn menu_ids() -> Schema {
    id_list("1 to 1000 menu entries of the tenant.", 1, 1000)
}

/// `AssignAccessRequest.subscriberIds` and `departmentIds`.
pub fn grantee_ids() -> Schema {
    ArrayBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Array, Type::Null]))
        .items(positive_id())
        .max_items(Some(1000))
        .description(Some("Up to 1000 ids of the tenant's active users (or departments); absent or null: none."))
        .into()
}

/// `CreateRoleRequest.permissions`: the permissions a tenant's role may grant.
pub fn role_permissions() -> Schema {
    ArrayBuilder::new()
        .items(string_enum([
            "read_workflows",
            "send_workflows",
            "read_directory",
            "manage_people",
            "manage_settings",
            "read_audit",
        ]))
        .max_items(Some(6))
        .description(Some("What the role grants (repeats are ignored)."))
        .into()
}

/// `TokenRequest.grant_type`: the grants the token operation serves.
pub fn grant_type() -> Schema {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(["client_credentials", "password", "email_otp", "sso_code", "refresh_token"]))
        .description(Some("`client_credentials` (with `client_id`, `client_secret`), `password` (with `username`, `password`), `email_otp` (with `username` and the e-mailed `otp`), `sso_code` (with the `code` a single sign-on handed the application) or `refresh_token` (with `refresh_token`)."))
        .into()
}

fn string_enum<I: IntoIterator<Item = S>, S: Into<serde_json::Value>>(values: I) -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::String).enum_values(Some(values))
}

/// `GatewaySettings.fileTypes`.
pub fn gateway_file_types() -> Schema {
    ArrayBuilder::new()
        .items(string_enum(["PDF", "XML", "DATA", "HASH"]))
        .description(Some("Any of PDF, XML, DATA, HASH (repeats are folded)."))
        .into()
}

/// `GatewaySettings.signatureTypes`.
pub fn gateway_signature_types() -> Schema {
    ArrayBuilder::new()
        .items(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
                .enum_values(Some([2, 3, 4])),
        )
        .description(Some("Any of 2 (crypto token), 3 (Aadhaar eSign), 4 (electronic signature)."))
        .into()
}

/// `CreateWebhookRequest.eventTypes`.
pub fn webhook_event_types() -> Schema {
    let names = signet_domain::webhook::EVENT_TYPES;
    ArrayBuilder::new()
        .items(string_enum(std::iter::once("*").chain(names.iter().copied())))
        .min_items(Some(1))
        .max_items(Some(names.len()))
        .description(Some("Event types to receive, or `[\"*\"]` for all."))
        .into()
}

/// The `state` filter of the workflow list.
pub fn workflow_list_state() -> Schema {
    string_enum(["in_progress", "completed", "declined", "expired", "inactive"])
        .description(Some("One state: in_progress, completed, declined, expired, inactive."))
        .into()
}

/// Unicode white space, as Rust's `trim` removes it.
const SPACE: &str = "[\\t-\\r \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";

/// `TemplateField.page`: a page number, or "first", "last", "all" or a number as text.
pub fn template_page() -> Schema {
    let word =
        format!("^{SPACE}*([Ff][Ii][Rr][Ss][Tt]|[Ll][Aa][Ss][Tt]|[Aa][Ll][Ll]|\\+?0*[1-9][0-9]{{0,8}}){SPACE}*$");
    let number = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .minimum(Some(1))
        .maximum(Some(u32::MAX));
    utoipa::openapi::schema::OneOfBuilder::new()
        .item(number)
        .item(ObjectBuilder::new().schema_type(Type::String).pattern(Some(word)))
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .description(Some("A page number (from 1), \"first\", \"last\" or \"all\" (default \"last\")."))
        .into()
}

/// `TemplateField.kind`: what a placed box is for.
pub fn field_kind() -> Schema {
    string_enum(signet_domain::fields::FieldKind::ALL.map(|k| k.as_str()))
        .default(Some(serde_json::json!("signature")))
        .description(Some("signature (the default), initials, date, name, email, text or checkbox."))
        .into()
}

/// One of `values`, or null.
fn nullable_string_enum(values: &[&str], description: &str) -> Schema {
    utoipa::openapi::schema::OneOfBuilder::new()
        .item(string_enum(values.iter().copied()))
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .description(Some(description))
        .into()
}

/// `InitiateAndSignWorkflowConfig.eStampType`.
pub fn estamp_type() -> Schema {
    nullable_string_enum(
        &["", "inventory"],
        "`inventory` takes stamp papers of `state` that make up `denomination` from the tenant's inventory and puts \
         their certificate pages in front of the document (docs/stamps.md); empty or null for none.",
    )
}

/// `InitiateAndSignWorkflowConfig.state`: a state as `StampBulk.state` takes it, or null.
pub fn estamp_state() -> Schema {
    nullable_state("The state whose stamp papers pay the duty, with `eStampType`")
}

/// `Loan.state`: the state whose duty is paid, as `StampBulk.state` takes it, or null.
pub fn loan_state() -> Schema {
    nullable_state("The state whose stamp duty is paid (the request's `state` when both are given)")
}

fn nullable_state(what: &str) -> Schema {
    utoipa::openapi::schema::OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::String).pattern(Some(signet_domain::stamp::state_pattern())))
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .description(Some(format!("{what}: its ISO 3166-2:IN code or name, as `StampBulk.state` takes it.")))
        .into()
}

/// An origin that may frame the signer pages (`EmbedRequest.origin`, an item of
/// `EmbeddingSettings.allowedOrigins`): `scheme://host[:port]`, nothing after it.
pub fn embed_origin() -> Schema {
    origin_string().into()
}

fn origin_string() -> ObjectBuilder {
    use signet_domain::embedding::{MAX_ORIGIN_CHARS, ORIGIN_PATTERN};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(ORIGIN_PATTERN))
        .max_length(Some(MAX_ORIGIN_CHARS))
        .description(Some(
            "A web origin: http:// or https://, a host (or [IPv6]) and an optional port, nothing after it.",
        ))
        .examples(["https://app.example.com"])
}

/// `EmbeddingSettings.allowedOrigins`: at most 20 origins.
pub fn embed_origins() -> Schema {
    use signet_domain::embedding::MAX_ORIGINS;
    ArrayBuilder::new().items(origin_string()).max_items(Some(MAX_ORIGINS)).into()
}
