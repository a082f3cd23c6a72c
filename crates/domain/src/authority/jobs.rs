//! Bulk jobs: whoever started one follows and stops it; others of the tenant follow it when
//! they read its workflows, and stop it only when they may send (an auditor, who changes
//! nothing, watches).

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
}
