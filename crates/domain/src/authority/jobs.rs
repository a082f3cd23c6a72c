//! Bulk jobs and lots: whoever started a job follows and stops it; others of the tenant follow
//! it when they read its workflows, and stop it only when they may send (an auditor, who
//! changes nothing, watches). A lot is seen by its signer, whatever their role, and by those
//! who read the tenant's workflows.

use crate::access::{Access, Permission};

/// What a caller does to a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobAct {
    /// Its status and report.
    Follow,
    /// Cancel it.
    Stop,
}

/// Whether the caller may `act` on a job (`started_it`: the caller started it).
pub fn may_act_on_job(access: &Access, started_it: bool, act: JobAct) -> bool {
    started_it
        || match act {
            JobAct::Follow => access.allows(Permission::ReadWorkflows),
            JobAct::Stop => access.allows(Permission::SendWorkflows),
        }
}

/// Whether the caller may see a lot (`is_its_signer`: the lot waits for the caller's signature).
pub fn may_see_lot(access: &Access, is_its_signer: bool) -> bool {
    is_its_signer || access.allows(Permission::ReadWorkflows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::Role;

    #[test]
    fn auditors_watch_and_never_stop_a_colleagues_job() {
        let auditor = Access::builtin(Role::Auditor);
        assert!(may_act_on_job(&auditor, false, JobAct::Follow));
        assert!(!may_act_on_job(&auditor, false, JobAct::Stop));
        assert!(may_act_on_job(&Access::builtin(Role::Sender), false, JobAct::Stop));
        let signer = Access::builtin(Role::Signer);
        assert!(may_act_on_job(&signer, true, JobAct::Stop), "their own lot's job");
        assert!(!may_act_on_job(&signer, false, JobAct::Follow));
    }

    #[test]
    fn a_lot_is_its_signers_and_its_readers() {
        let signer = Access::builtin(Role::Signer);
        assert!(may_see_lot(&signer, true));
        assert!(!may_see_lot(&signer, false), "a colleague's lot");
        assert!(may_see_lot(&Access::builtin(Role::Auditor), false));
    }
}
