//! Billing and sales: the operator's tax invoices to tenants for their workflows (`invoices`)
//! and customer referrals with CRM leads (`sales`).

pub mod invoices;
pub mod sales;
