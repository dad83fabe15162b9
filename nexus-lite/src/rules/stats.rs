//! Per-rule statistics of a repository: how often each rule broke (in gate runs and in
//! agents' self-checks), how often it was fixed (before a commit, within a pull request) and
//! how agents' claims about it stood against the gate. Deterministic: the same database gives
//! the same answer.

use crate::core::error::LiteError;
use crate::core::http::ApiError;
use crate::core::repos::ServedRepo;
use crate::rules::checks::witness::{Outcome, Standing, witness_standing};
use crate::rules::playbook;
use crate::rules::state::RulesState;
use rusqlite::{Connection, params};
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// One rule's statistics (RulesRuleStats).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuleStats {
    pub rule_id: String,
    pub title: Option<String>,
    pub in_playbook: bool,
    #[serde(flatten)]
    pub counts: Counts,
}

/// The counters of one rule, and of all rules together in [`Totals`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    pub times_broken: i64,
    pub gate_runs_broken: i64,
    pub gate_violations: i64,
    pub self_check_failures: i64,
    pub times_fixed: i64,
    pub fixed_before_commit: i64,
    pub fixed_in_pr: i64,
    pub claimed: i64,
    pub witnessed: i64,
    pub disputed: i64,
}

impl std::ops::AddAssign<&Counts> for Counts {
    fn add_assign(&mut self, o: &Counts) {
        self.times_broken += o.times_broken;
        self.gate_runs_broken += o.gate_runs_broken;
        self.gate_violations += o.gate_violations;
        self.self_check_failures += o.self_check_failures;
        self.times_fixed += o.times_fixed;
        self.fixed_before_commit += o.fixed_before_commit;
        self.fixed_in_pr += o.fixed_in_pr;
        self.claimed += o.claimed;
        self.witnessed += o.witnessed;
        self.disputed += o.disputed;
    }
}

/// What each column counts, one line each (the answer's `definitions`).
pub const DEFINITIONS: &[(&str, &str)] = &[
    ("timesBroken", "gateRunsBroken + selfCheckFailures"),
    (
        "gateRunsBroken",
        "stored gate runs with at least one violation of the rule",
    ),
    (
        "gateViolations",
        "violations of the rule over all stored gate runs",
    ),
    (
        "selfCheckFailures",
        "report_check results that said the rule failed",
    ),
    ("timesFixed", "fixedBeforeCommit + fixedInPr"),
    (
        "fixedBeforeCommit",
        "a session reported the rule failing, then passing in a later report of the same session",
    ),
    (
        "fixedInPr",
        "a gate run of a pull request broke the rule, and a later run of the same pull request did not (the rule enforced there, or the run complete)",
    ),
    (
        "claimed",
        "self-check results on the rule no gate run has judged yet",
    ),
    (
        "witnessed",
        "self-check results a gate run on the same tree agreed with",
    ),
    (
        "disputed",
        "self-check results a gate run on the same tree contradicted",
    ),
    (
        "inPlaybook",
        "the rule is in the work tree's current playbook",
    ),
];

/// Aggregates over all rules, and the counts of what was read.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    pub rules: i64,
    pub gate_runs: i64,
    pub checks: i64,
    pub sessions: i64,
    #[serde(flatten)]
    pub counts: Counts,
}

fn db(ctx: &'static str) -> impl FnOnce(rusqlite::Error) -> LiteError {
    LiteError::db(ctx)
}

/// The statistics of `repository`, sorted by timesBroken (desc) then ruleId. `playbook`: the
/// current rules (id, title), listed even when nothing happened to them. `since` (epoch
/// seconds): only gate runs analysed and self-checks reported from then on count, a fix only
/// when both its sides are in the window.
pub fn compute(
    conn: &Connection,
    repository: &str,
    playbook: &[(String, String)],
    since: Option<i64>,
) -> Result<(Vec<RuleStats>, Totals), LiteError> {
    let mut by_rule: BTreeMap<String, RuleStats> = BTreeMap::new();
    fn stat<'m>(m: &'m mut BTreeMap<String, RuleStats>, id: &str) -> &'m mut RuleStats {
        m.entry(id.to_string()).or_insert_with(|| RuleStats {
            rule_id: id.to_string(),
            ..RuleStats::default()
        })
    }
    for (id, title) in playbook {
        let s = stat(&mut by_rule, id);
        s.in_playbook = true;
        s.title = Some(title.clone());
    }
    let mut totals = Totals::default();

    // Gate side.
    {
        let mut st = conn
            .prepare(
                "SELECT o.rule_id, sum(o.violations > 0), sum(o.violations) FROM rule_gate_outcomes o
                 JOIN rule_gate_runs g ON g.record_id = o.record_id
                 WHERE g.repository = ?1 AND (?2 IS NULL OR g.analyzed_at >= ?2) GROUP BY o.rule_id",
            )
            .map_err(db("counting gate outcomes per rule"))?;
        let rows = st
            .query_map(params![repository, since], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, i64>(2)?,
                ))
            })
            .map_err(db("counting gate outcomes per rule"))?;
        for row in rows {
            let (id, runs, violations) = row.map_err(db("counting gate outcomes per rule"))?;
            if runs == 0 && violations == 0 && !by_rule.contains_key(&id) {
                // Enforced, never broken, and not in the playbook any more: nothing to show.
                continue;
            }
            let s = stat(&mut by_rule, &id);
            s.counts.gate_runs_broken = runs;
            s.counts.gate_violations = violations;
        }
        totals.gate_runs = conn
            .query_row(
                "SELECT count(*) FROM rule_gate_runs WHERE repository = ?1 AND (?2 IS NULL OR analyzed_at >= ?2)",
                params![repository, since],
                |r| r.get(0),
            )
            .map_err(db("counting gate runs"))?;
    }

    // Self-checks: failures, standings, and fail → pass within a session.
    {
        let mut st = conn
            .prepare(
                "SELECT c.session_id, r.rule_id, r.pass, r.witness FROM rule_check_results r
                 JOIN rule_checks c ON c.check_id = r.check_id
                 WHERE c.repository = ?1 AND (?2 IS NULL OR c.created_at >= ?2) ORDER BY c.session_id, r.rule_id, c.seq",
            )
            .map_err(db("reading self-check results"))?;
        let rows = st
            .query_map(params![repository, since], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, bool>(2)?,
                    r.get::<_, Option<String>>(3)?,
                ))
            })
            .map_err(db("reading self-check results"))?;
        let mut last: Option<(String, String, bool)> = None;
        for row in rows {
            let (session, rule, pass, witness) = row.map_err(db("reading self-check results"))?;
            let s = stat(&mut by_rule, &rule);
            if !pass {
                s.counts.self_check_failures += 1;
            }
            match witness_standing(witness.as_deref()) {
                Standing::Claimed => s.counts.claimed += 1,
                Standing::Witnessed => s.counts.witnessed += 1,
                Standing::Disputed => s.counts.disputed += 1,
            }
            if let Some((ls, lr, lp)) = &last
                && ls == &session
                && lr == &rule
                && !*lp
                && pass
            {
                s.counts.fixed_before_commit += 1;
            }
            last = Some((session, rule, pass));
        }
        let (checks, sessions): (i64, i64) = conn
            .query_row(
                "SELECT count(*), count(DISTINCT session_id) FROM rule_checks WHERE repository = ?1 AND (?2 IS NULL OR created_at >= ?2)",
                params![repository, since],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(db("counting self-checks"))?;
        totals.checks = checks;
        totals.sessions = sessions;
    }

    for (rule, n) in fixed_in_prs(conn, repository, since)? {
        stat(&mut by_rule, &rule).counts.fixed_in_pr = n;
    }
    titles_from_gate(conn, repository, &mut by_rule)?;

    let mut rules: Vec<RuleStats> = by_rule
        .into_values()
        .map(|mut s| {
            s.counts.times_broken = s.counts.gate_runs_broken + s.counts.self_check_failures;
            s.counts.times_fixed = s.counts.fixed_before_commit + s.counts.fixed_in_pr;
            s
        })
        .collect();
    rules.sort_by(|a, b| {
        b.counts
            .times_broken
            .cmp(&a.counts.times_broken)
            .then_with(|| a.rule_id.cmp(&b.rule_id))
    });
    totals.rules = rules.len() as i64;
    for s in &rules {
        totals.counts += &s.counts;
    }
    Ok((rules, totals))
}

/// Per rule: how many times a pull request's gate run broke it and a later run of the same
/// pull request no longer did (the rule enforced there with no violation, or the run complete).
pub(crate) fn fixed_in_prs(
    conn: &Connection,
    repository: &str,
    since: Option<i64>,
) -> Result<BTreeMap<String, i64>, LiteError> {
    let ctx = "reading pull requests' gate runs";
    let mut st = conn
        .prepare(
            "SELECT record_id, pr, complete FROM rule_gate_runs
             WHERE repository = ?1 AND pr IS NOT NULL AND (?2 IS NULL OR analyzed_at >= ?2) ORDER BY pr, seq",
        )
        .map_err(db(ctx))?;
    let runs = st
        .query_map(params![repository, since], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, bool>(2)?,
            ))
        })
        .map_err(db(ctx))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(db(ctx))?;
    let mut st = conn
        .prepare(
            "SELECT o.record_id, o.rule_id, o.enforced, o.violations FROM rule_gate_outcomes o
             JOIN rule_gate_runs g ON g.record_id = o.record_id
             WHERE g.repository = ?1 AND g.pr IS NOT NULL AND (?2 IS NULL OR g.analyzed_at >= ?2)",
        )
        .map_err(db(ctx))?;
    let mut outcomes: HashMap<String, HashMap<String, Outcome>> = HashMap::new();
    let rows = st
        .query_map(params![repository, since], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                Outcome {
                    enforced: r.get(2)?,
                    violations: r.get(3)?,
                },
            ))
        })
        .map_err(db(ctx))?;
    for row in rows {
        let (record, rule, o) = row.map_err(db(ctx))?;
        outcomes.entry(record).or_default().insert(rule, o);
    }
    let empty = HashMap::new();
    let mut fixed: BTreeMap<String, i64> = BTreeMap::new();
    let mut pr_now: Option<i64> = None;
    let mut broken: BTreeSet<String> = BTreeSet::new();
    for (record, pr, complete) in runs {
        if pr_now != Some(pr) {
            pr_now = Some(pr);
            broken.clear();
        }
        let here = outcomes.get(&record).unwrap_or(&empty);
        broken.retain(|rule| {
            let clean = match here.get(rule) {
                Some(o) => o.violations == 0 && (o.enforced || complete),
                None => complete,
            };
            if clean {
                *fixed.entry(rule.clone()).or_insert(0) += 1;
            }
            !clean
        });
        for (rule, o) in here {
            if o.violations > 0 {
                broken.insert(rule.clone());
            }
        }
    }
    Ok(fixed)
}

/// Titles of rules outside the playbook (analyser codes), from the gate's violations.
fn titles_from_gate(
    conn: &Connection,
    repository: &str,
    by_rule: &mut BTreeMap<String, RuleStats>,
) -> Result<(), LiteError> {
    let ctx = "reading rule titles from gate violations";
    let mut st = conn
        .prepare(
            "SELECT v.rule_id, max(v.rule_title) FROM gate_violations v
             JOIN gate_records g ON g.id = v.record WHERE g.repository = ?1 GROUP BY v.rule_id",
        )
        .map_err(db(ctx))?;
    let rows = st
        .query_map(params![repository], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
        })
        .map_err(db(ctx))?;
    for row in rows {
        let (rule, title) = row.map_err(db(ctx))?;
        if let Some(s) = by_rule.get_mut(&rule)
            && s.title.is_none()
        {
            s.title = title;
        }
    }
    Ok(())
}

/// GET /api/v1/rules/stats: all time, or the last `days` days.
pub fn answer(s: &RulesState, repo: &ServedRepo, days: Option<i64>) -> Result<Value, ApiError> {
    let (current, warning) = match playbook::load_worktree(&repo.root) {
        Ok(pb) => (
            pb.rules()
                .map(|r| (r.rule_id.clone(), r.title.clone()))
                .collect::<Vec<_>>(),
            None,
        ),
        Err(e) => (
            Vec::new(),
            Some(format!(
                "the current playbook could not be read ({e}), so inPlaybook is false everywhere and titles come from gate records only"
            )),
        ),
    };
    let conn = s.core.reader()?;
    let since = days.map(|d| crate::core::util::now_epoch() - d * 86_400);
    let (rules, totals) = compute(&conn, &repo.name, &current, since)?;
    let definitions: serde_json::Map<String, Value> = DEFINITIONS
        .iter()
        .map(|(k, v)| ((*k).to_string(), json!(v)))
        .collect();
    Ok(json!({
        "repository": repo.name,
        // What the counters cover: null for all time.
        "window": days.map(|d| json!({"days": d, "since": since})),
        "rules": rules,
        "totals": totals,
        "definitions": definitions,
        "note": note(),
        "warning": warning,
    }))
}

/// The columns in one line each (the answer's `note`).
fn note() -> String {
    let mut s = String::from(
        "Per rule, sorted by timesBroken (desc) then ruleId; gate counts cover the gate runs stored through POST /gate-results. One line per column:\n",
    );
    let lines: Vec<String> = DEFINITIONS
        .iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    s.push_str(&lines.join("\n"));
    s
}
