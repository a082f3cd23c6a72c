//! The retention sweep's two statements of one rule agree: `due_workflows` (the index-friendly
//! SQL filter) names exactly the workflows that `signet_domain::retention::sweep_due` (the rule
//! the sweep re-checks before erasing) says are due, over a table of states, ages, holds and
//! template periods, on SQLite and PostgreSQL.

#[macro_use]
mod support;

use serde_json::json;
use signet_domain::audit::Actor;
use signet_domain::retention::{DAY_MS, Ended, RetentionPeriods, sweep_due};
use signet_domain::{TemplateId, WorkflowId, now_millis};
use signet_store::{Backend, NewTemplate, RetentionPolicies};
use support::{TestDb, tenant};

on_both_backends!(the_sweeps_sql_filter_and_the_domain_rule_name_the_same_workflows);

const STATES: [&str; 5] = ["completed", "declined", "expired", "in_progress", "deleted"];
/// Days since the workflow ended, around each period's edge (`None`: never ended).
const AGES: [Option<i64>; 6] = [None, Some(0), Some(29), Some(30), Some(31), Some(400)];

async fn the_sweeps_sql_filter_and_the_domain_rule_name_the_same_workflows(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = db.open().await;
    let tenant_id = tenant(&store, "Rules").await;
    let definition = json!({"fields": []});
    let new = NewTemplate { tenant_id, name: "Loan", description: None, definition: &definition, document: None };
    let template = store.create_template(&new, &Actor::system()).await.expect("template").id;
    // The organisation keeps completed for 30 days, declined for ever, expired not at all; the
    // template keeps completed for 365 days and declined for 30, and inherits expired.
    let policies = RetentionPolicies {
        organisation: RetentionPeriods {
            completed_days: Some(30),
            declined_days: None,
            expired_days: Some(0),
            gateway_days: None,
        },
        templates: vec![(
            template,
            RetentionPeriods {
                completed_days: Some(365),
                declined_days: Some(30),
                expired_days: None,
                gateway_days: None,
            },
        )],
    };
    store.set_retention_policies(tenant_id, &policies, &Actor::system()).await.expect("policies");

    let now = now_millis();
    let mut ids = Vec::new();
    for state in STATES {
        for age in AGES {
            for held in [false, true] {
                for with_template in [false, true] {
                    ids.push(
                        seed(
                            &store,
                            tenant_id,
                            state,
                            age.map(|d| now - d * DAY_MS),
                            held,
                            with_template.then_some(template),
                        )
                        .await,
                    );
                }
            }
        }
    }

    let mut by_sql: Vec<WorkflowId> = Vec::new();
    for ended in Ended::ALL {
        let days = policies.organisation.for_state(ended.state());
        by_sql.extend(store.due_workflows(tenant_id, ended, days, now, 0, 1_000).await.expect("due"));
    }
    let mut by_rule = Vec::new();
    for chunk in ids.chunks(signet_store::MAX_ERASURE_BATCH) {
        for facts in store.erasure_facts(tenant_id, chunk).await.expect("facts") {
            if !facts.erased && sweep_due(facts.standing(), &policies.for_template(facts.workflow.template_id), now) {
                by_rule.push(facts.workflow.id);
            }
        }
    }
    by_sql.sort();
    by_rule.sort();
    assert!(!by_rule.is_empty() && by_rule.len() < ids.len() / 4, "the table has both answers: {}", by_rule.len());
    assert_eq!(by_sql, by_rule);
}

/// One workflow in `state`, ended at `ended_at`, held or not, from `template` or none.
async fn seed(
    store: &signet_store::Store,
    tenant_id: signet_domain::TenantId,
    state: &str,
    ended_at: Option<i64>,
    held: bool,
    template: Option<TemplateId>,
) -> WorkflowId {
    let now = now_millis();
    let sql = format!(
        "INSERT INTO workflows (tenant_id, template_id, name, workflow_type, state, current_order, settings, linked_ids, \
         created_by, event_head, created_at, updated_at, ended_at, hold_reason, hold_by, hold_at) \
         VALUES ({tenant}, {template}, 'rule', 1, '{state}', 1, '{{}}', '[]', 'seed', '', {now}, {now}, {ended}, {hold}) \
         RETURNING id",
        tenant = tenant_id.get(),
        template = template.map_or("NULL".into(), |t| t.get().to_string()),
        ended = ended_at.map_or("NULL".into(), |e| e.to_string()),
        hold = if held { format!("'court', 'user:1', {now}") } else { "NULL, NULL, NULL".into() },
    );
    let id = store.fetch_id_for_tests(Box::leak(sql.into_boxed_str())).await.expect("seeded");
    WorkflowId::from(id)
}
