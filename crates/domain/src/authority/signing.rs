//! Whose certificate signs whose turn. A signature must mean that the named person chose to
//! sign, so a certificate a user enrolled as their own signs only their own turns, and only
//! through the automated signing they consented to; a workflow may name (`hsmCertificateId`)
//! only the organisation's profiles, uploaded by its administrators for that purpose.

use crate::PrincipalId;

/// Who a signing profile belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileOwner {
    /// Uploaded by the tenant for automated signing in its name.
    Organisation,
    /// Enrolled by this user as their own certificate.
    User(PrincipalId),
}

impl ProfileOwner {
    pub fn of(owner_id: Option<PrincipalId>) -> ProfileOwner {
        owner_id.map_or(ProfileOwner::Organisation, ProfileOwner::User)
    }
}

/// How a signatory's turn would be signed with a profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SigningBy {
    /// The workflow names the profile (`hsmCertificateId`).
    NamedProfile,
    /// The signatory's own automated signing: the user it is, and whether their consent is on
    /// record.
    AutomatedSigning { user_id: PrincipalId, consented: bool },
}

/// Whether a profile of `owner` may sign a turn `by`.
pub fn may_sign_with(owner: ProfileOwner, by: SigningBy) -> bool {
    match (owner, by) {
        (ProfileOwner::Organisation, SigningBy::NamedProfile) => true,
        (ProfileOwner::User(owner), SigningBy::AutomatedSigning { user_id, consented }) => {
            owner == user_id && consented
        }
        (ProfileOwner::User(_), SigningBy::NamedProfile)
        | (ProfileOwner::Organisation, SigningBy::AutomatedSigning { .. }) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_personal_certificate_signs_only_its_owners_consented_turns() {
        let own = ProfileOwner::User(PrincipalId::from(7));
        assert!(may_sign_with(own, SigningBy::AutomatedSigning { user_id: PrincipalId::from(7), consented: true }));
        assert!(!may_sign_with(own, SigningBy::AutomatedSigning { user_id: PrincipalId::from(7), consented: false }));
        assert!(!may_sign_with(own, SigningBy::AutomatedSigning { user_id: PrincipalId::from(8), consented: true }));
        assert!(!may_sign_with(own, SigningBy::NamedProfile), "a sender cannot name a colleague's certificate");
    }

    #[test]
    fn workflows_name_organisation_profiles_only() {
        assert!(may_sign_with(ProfileOwner::Organisation, SigningBy::NamedProfile));
        assert!(!may_sign_with(
            ProfileOwner::Organisation,
            SigningBy::AutomatedSigning { user_id: PrincipalId::from(7), consented: true }
        ));
        assert_eq!(ProfileOwner::of(None), ProfileOwner::Organisation);
        assert_eq!(ProfileOwner::of(Some(PrincipalId::from(3))), ProfileOwner::User(PrincipalId::from(3)));
    }
}
