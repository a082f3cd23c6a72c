//! Who may do what to whose resource: the rules the use cases apply, as pure functions over
//! what they have read (the caller's access, the resource's owner and tenant, the consent on
//! record). Every rule that holds a line against an attack lives here, one submodule per
//! capability, each with the unit tests that show where the line runs. The services call
//! these rules; the faces (API, console) only map HTTP to those calls.
//!
//! | rule | where | holds the line against |
//! |---|---|---|
//! | [`require`] | every use case | a role without the operation's permission (403 `forbidden`) |
//! | [`people::may_grant`] | users, applications, roles | giving a permission one does not hold |
//! | [`people::may_manage`] | users, second factors, password mails | a manager changing someone more powerful |
//! | [`signing::may_sign_with`] | workflows, automated signing | signing with someone else's certificate |
//! | [`templates::may_use_template`] | templates, workflows | reading or sending a template not granted |
//! | [`jobs::may_act_on_job`] | bulk sends | changing a job one may only watch |
//! | [`jobs::may_see_lot`] | lots | reading a colleague's lot |
//! | [`templates::may_read_templates`] | templates, workflows | template lookups by a role that neither reads nor sends |
//! | [`sessions::keeps_sessions`], [`sessions::move_ends_sessions`] | every request, status changes | a user marked inactive who keeps their sessions |
//! | [`sessions::admit_second_factor`], [`sessions::sign_in_answer`] | sign-in | guessing codes from many addresses; a refusal telling a right password |
//! | [`sso::provider_may_link`] | single sign-on | a provider's saver signing in as someone more powerful |
//! | [`sso::sso_satisfies_second_factor`] | single sign-on | SSO skipping an account's second factor |
//! | [`sso::may_claim_domain`], [`sso::serves_domain`] | SSO domain proofs | one tenant taking another's e-mail domain |
//! | [`stamps::may_fetch`], [`stamps::may_take`] | e-stamps from the provider | one tenant using another's stamp certificates |

pub mod jobs;
pub mod people;
pub mod sessions;
pub mod signing;
pub mod sso;
pub mod stamps;
pub mod templates;

use crate::access::{Access, Permission};
use crate::{Error, ErrorCode};

/// Refuses (`forbidden`) a caller whose role lacks `permission`.
pub fn require(access: &Access, permission: Permission) -> Result<(), Error> {
    if access.allows(permission) {
        Ok(())
    } else {
        Err(Error::rejected(ErrorCode::Forbidden, format!("the {} role does not allow this operation", access.name())))
    }
}
