//! The kinds of background work, stored as text in the job queue (`jobs.kind`) and in bulk jobs
//! (`bulk_jobs.kind`): declared once here, so that what enqueues a job and what runs it cannot
//! spell a kind two ways, and a stored kind that names nothing is an error, not a silent skip.

use crate::text_state::text_states;

text_states! {
    /// What a queued job does (`signet_services::platform::jobs::run_job` runs each).
    pub enum JobKind ("job kind") {
        /// Refresh tokens and single sign-on states past their end, deleted (periodic).
        PurgeExpiredTokens => "maintenance.purge_expired_tokens",
        /// Gateway transactions whose signer never finished, expired; kept results past their
        /// retention, deleted (periodic).
        GatewayHousekeeping => "gateway.housekeeping",
        /// Reminders, expiries and the next signing group's notices (periodic).
        WorkflowHousekeeping => "workflow.housekeeping",
        /// Completed documents whose long-term time-stamp runs out within the margin, renewed;
        /// those time-stamped before it was recorded, read (periodic).
        LtaRenewal => "lta.renewal",
        /// What follows a committed workflow event: e-mails, webhooks, automated signing.
        WorkflowEvent => "workflow.event",
        /// One e-mail.
        Mail => "mail.send",
        /// One text message.
        Sms => "sms.send",
        /// The answer to an e-mail address typed on the sign-in page (a code, or nothing).
        CheckAccount => "account.check",
        /// One webhook delivery.
        WebhookDeliver => "webhook.deliver",
        /// One lead pushed to the tenant's CRM.
        CrmPush => "crm.push",
        /// The low-stock alert of a tenant's stamp inventory.
        StampLowStock => "stamps.low_stock",
        /// One slice of a bulk job's items.
        BulkRun => "bulk.run",
        /// One slice of an export.
        ExportRun => "export.run",
        /// A workflow's signatures made long-term (PAdES B-LT) after a signature; retried
        /// while a CA or TSA does not answer.
        LongTermData => "workflow.long_term",
    }
}

text_states! {
    /// What a bulk job does with each of its items.
    pub enum BulkKind ("bulk job kind") {
        /// One workflow started per row of a sheet.
        Send => "bulk_send",
        /// One signature applied to each workflow of a lot.
        LotSign => "lot_sign",
    }
}
