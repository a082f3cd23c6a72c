//! People: who may come in and what they are. Staff and their life cycle (`users`), the
//! tenant's roles, departments and menus (`roles`, `departments`, `menus`), signing in
//! (`login` by e-mail code, `sessions` of rotating refresh tokens, `totp` as a second factor,
//! `sso` through the organisation's identity provider, `passwords` with their rules), a
//! person's own signing certificate (`certificates`), the organisation's own settings
//! (`organisation`), and how a tenant comes to be (`provision` by the operator, `trial` by
//! self-service sign-up).

pub mod certificates;
pub mod departments;
pub mod login;
pub mod menus;
pub mod organisation;
pub mod passwords;
pub mod provision;
pub mod roles;
pub mod sessions;
pub mod sso;
pub mod totp;
pub mod trial;
pub mod users;
