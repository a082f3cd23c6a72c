-- Jobs take turns between organisations (issue 31, fair share): a job records the tenant whose
-- work it is (NULL: the installation's own, such as housekeeping and sign-in mail), and a
-- claim takes each tenant's oldest due job before anyone's second, so one organisation's
-- 10,000-row bulk send or export does not hold back another's invitations and webhooks.
ALTER TABLE jobs ADD COLUMN tenant_id BIGINT;
