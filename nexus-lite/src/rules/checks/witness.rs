//! What the gate witnessed of agents' self-checks (rules-gate.md §6). A stored gate run is
//! written per rule (`rule_gate_runs`, `rule_gate_outcomes`), then every self-check of the same
//! repository on the same tree is judged result by result against it:
//!
//! - the gate found violations of the rule: a `fail` is witnessed, a `pass` disputed (even from
//!   a partial run: what it found is there);
//! - the gate enforced the rule, found none, and ran completely and independently: a `pass`
//!   is witnessed, a `fail` disputed; a partial run, or one whose change edits an analyser
//!   configuration or adds an inline suppression (`GateRecord::blind_spots`), proves nothing
//!   here;
//! - the gate did not enforce the rule: the result stays claimed.
//!
//! An analyser id (`ruff:T201`) is enforced where the run checked it (`checkedRules`), and
//! violated by its findings, bound to a playbook rule or not.
//!
//! A disputed result stays disputed (both sides are kept: the claim in `pass`, the gate's side
//! in `witness`).

use crate::core::error::LiteError;
use crate::rules::analyser_rules;
use crate::rules::gate::binding;
use crate::rules::gate::model::GateRecord;
use crate::rules::gate::record::Stored;
use crate::rules::playbook::enforced_by_matches;
use rusqlite::{Connection, Transaction, params};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A result's standing against the gate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    Claimed,
    Witnessed,
    Disputed,
}

impl Standing {
    pub fn as_str(self) -> &'static str {
        match self {
            Standing::Claimed => "claimed",
            Standing::Witnessed => "witnessed",
            Standing::Disputed => "disputed",
        }
    }
    pub fn parse(s: &str) -> Standing {
        match s {
            "witnessed" => Standing::Witnessed,
            "disputed" => Standing::Disputed,
            _ => Standing::Claimed,
        }
    }
}

/// One rule's outcome in one gate run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Outcome {
    pub enforced: bool,
    pub violations: i64,
}

/// A stored gate run with its outcomes by rule id.
#[derive(Debug, Clone)]
pub struct Run {
    pub record_id: String,
    pub complete: bool,
    pub outcomes: BTreeMap<String, Outcome>,
}

/// What the run says of a result claiming `pass` (None: nothing).
pub fn judge(pass: bool, outcome: Option<Outcome>, complete: bool) -> Option<Standing> {
    let o = outcome?;
    if o.violations > 0 {
        return Some(if pass {
            Standing::Disputed
        } else {
            Standing::Witnessed
        });
    }
    if !o.enforced || !complete {
        return None;
    }
    Some(if pass {
        Standing::Witnessed
    } else {
        Standing::Disputed
    })
}

/// A check's status from its results' standings (`known`: the rule is in the playbook).
pub fn check_status(results: &[(bool, Standing)]) -> Standing {
    if results.iter().any(|(_, s)| *s == Standing::Disputed) {
        return Standing::Disputed;
    }
    let mut known = results.iter().filter(|(k, _)| *k).peekable();
    if known.peek().is_some() && known.all(|(_, s)| *s == Standing::Witnessed) {
        return Standing::Witnessed;
    }
    Standing::Claimed
}

/// The per-rule outcomes of a gate record: every enforced rule, and every rule id with
/// violations.
pub fn outcomes_of(rec: &GateRecord) -> BTreeMap<String, Outcome> {
    let mut out: BTreeMap<String, Outcome> = rec
        .enforced_rules
        .iter()
        .map(|r| {
            (
                r.clone(),
                Outcome {
                    enforced: true,
                    violations: 0,
                },
            )
        })
        .collect();
    for pattern in &rec.checked_rules {
        out.entry(pattern.clone()).or_default().enforced = true;
    }
    // A finding bound to a playbook rule is also a violation of its analyser id.
    for v in &rec.violations {
        out.entry(v.rule_id.clone()).or_default().violations += 1;
        if let Some(source) = v.source.as_ref().filter(|s| **s != v.rule_id) {
            out.entry(source.clone()).or_default().violations += 1;
        }
    }
    out
}

/// The run's outcome for `rule_id`: its own entry, enforced too when it is an analyser id a
/// checked pattern (`ruff:T201`, `bandit:*`) covers.
pub fn outcome_for(outcomes: &BTreeMap<String, Outcome>, rule_id: &str) -> Option<Outcome> {
    let mut exact = outcomes.get(rule_id).copied();
    let Some((tool, code)) = analyser_rules::analyser_id(rule_id) else {
        return exact;
    };
    // The gate keeps bandit's finding where ruff's port of the check fired on the same line.
    let twin = (tool == "ruff")
        .then(|| binding::bandit_twin(code))
        .flatten()
        .and_then(|b| outcomes.get(&format!("bandit:{b}")))
        .filter(|o| o.violations > 0);
    if let Some(t) = twin {
        let mut o = exact.unwrap_or_default();
        o.violations += t.violations;
        exact = Some(o);
    }
    let checked = outcomes.iter().any(|(pattern, o)| {
        o.enforced && pattern.contains(':') && enforced_by_matches(pattern, tool, code)
    });
    if !checked {
        return exact;
    }
    Some(Outcome {
        enforced: true,
        ..exact.unwrap_or_default()
    })
}

/// What recording a gate run did to the self-checks on its tree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Witnessing {
    /// Checks of the same repository on the same tree.
    pub checks: usize,
    pub witnessed: usize,
    pub disputed: usize,
}

/// Writes a stored gate record's run and per-rule outcomes (replacing the run it replaced),
/// then judges the self-checks on its head tree.
pub fn record_gate_run(
    conn: &mut Connection,
    rec: &GateRecord,
    stored: &Stored,
    now_epoch: i64,
) -> Result<Witnessing, LiteError> {
    let tx = conn
        .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
        .map_err(LiteError::db(
            "starting to record a gate run for witnessing",
        ))?;
    if let Some(old) = &stored.replaced {
        for sql in [
            "DELETE FROM rule_gate_outcomes WHERE record_id = ?1",
            "DELETE FROM rule_gate_runs WHERE record_id = ?1",
        ] {
            tx.execute(sql, params![old])
                .map_err(LiteError::db("removing the replaced gate run"))?;
        }
    }
    let seq: i64 = tx
        .query_row(
            "SELECT coalesce(max(seq), 0) + 1 FROM rule_gate_runs",
            [],
            |r| r.get(0),
        )
        .map_err(LiteError::db("numbering a gate run"))?;
    // A run that used the change's own analyser settings or suppressions did not check the
    // change independently: it witnesses no pass (what it found still counts).
    let complete = rec.verdict().detail_complete && rec.blind_spots().next().is_none();
    let tree = rec.head_tree_sha.as_deref().map(str::to_ascii_lowercase);
    tx.execute(
        "INSERT INTO rule_gate_runs(record_id, repository, pr, head_sha, tree_sha, complete, analyzed_at, seq)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            stored.record_id,
            rec.repository,
            rec.pr.map(|p| p as i64),
            rec.head_sha.trim().to_ascii_lowercase(),
            tree,
            complete,
            now_epoch,
            seq
        ],
    )
    .map_err(LiteError::db("recording a gate run"))?;
    let run = Run {
        record_id: stored.record_id.clone(),
        complete,
        outcomes: outcomes_of(rec),
    };
    {
        let mut st = tx
            .prepare(
                "INSERT INTO rule_gate_outcomes(record_id, rule_id, enforced, violations) VALUES (?1, ?2, ?3, ?4)",
            )
            .map_err(LiteError::db("recording a gate run's outcomes"))?;
        for (rule, o) in &run.outcomes {
            st.execute(params![run.record_id, rule, o.enforced, o.violations])
                .map_err(LiteError::db("recording a gate run's outcomes"))?;
        }
    }
    let mut w = Witnessing::default();
    if let Some(tree) = tree {
        let ids = check_ids_on_tree(&tx, &rec.repository, &tree)?;
        w.checks = ids.len();
        for id in ids {
            match apply(&tx, &run, &id, now_epoch)? {
                Standing::Witnessed => w.witnessed += 1,
                Standing::Disputed => w.disputed += 1,
                Standing::Claimed => {}
            }
        }
    }
    tx.commit()
        .map_err(LiteError::db("committing a gate run's witnessing"))?;
    Ok(w)
}

fn check_ids_on_tree(
    tx: &Transaction<'_>,
    repository: &str,
    tree: &str,
) -> Result<Vec<String>, LiteError> {
    let mut st = tx
        .prepare(
            "SELECT check_id FROM rule_checks WHERE repository = ?1 AND tree_sha = ?2 ORDER BY seq",
        )
        .map_err(LiteError::db("finding the self-checks on a tree"))?;
    st.query_map(params![repository, tree], |r| r.get(0))
        .map_err(LiteError::db("finding the self-checks on a tree"))?
        .collect::<Result<Vec<String>, _>>()
        .map_err(LiteError::db("finding the self-checks on a tree"))
}

/// The stored gate runs on `tree`, oldest first.
pub fn runs_on_tree(
    conn: &Connection,
    repository: &str,
    tree: &str,
) -> Result<Vec<Run>, LiteError> {
    let ctx = "reading the gate runs on a tree";
    let mut st = conn
        .prepare(
            "SELECT record_id, complete FROM rule_gate_runs WHERE repository = ?1 AND tree_sha = ?2 ORDER BY seq",
        )
        .map_err(LiteError::db(ctx))?;
    let heads = st
        .query_map(params![repository, tree], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, bool>(1)?))
        })
        .map_err(LiteError::db(ctx))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(LiteError::db(ctx))?;
    let mut st = conn
        .prepare(
            "SELECT rule_id, enforced, violations FROM rule_gate_outcomes WHERE record_id = ?1",
        )
        .map_err(LiteError::db(ctx))?;
    let mut runs = Vec::new();
    for (record_id, complete) in heads {
        let outcomes = st
            .query_map(params![record_id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    Outcome {
                        enforced: r.get(1)?,
                        violations: r.get(2)?,
                    },
                ))
            })
            .map_err(LiteError::db(ctx))?
            .collect::<Result<BTreeMap<_, _>, _>>()
            .map_err(LiteError::db(ctx))?;
        runs.push(Run {
            record_id,
            complete,
            outcomes,
        });
    }
    Ok(runs)
}

/// Judges check `check_id`'s results against `run`; stores and returns the check's status.
pub fn apply(
    tx: &Connection,
    run: &Run,
    check_id: &str,
    now_epoch: i64,
) -> Result<Standing, LiteError> {
    let ctx = "judging a self-check against a gate run";
    let results: Vec<(i64, String, bool, bool, Option<String>)> = {
        let mut st = tx
            .prepare(
                "SELECT idx, rule_id, pass, known, witness FROM rule_check_results WHERE check_id = ?1 ORDER BY idx",
            )
            .map_err(LiteError::db(ctx))?;
        st.query_map(params![check_id], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .map_err(LiteError::db(ctx))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(LiteError::db(ctx))?
    };
    let mut standings = Vec::with_capacity(results.len());
    let mut changed = false;
    for (idx, rule_id, pass, known, witness) in results {
        let old = witness_standing(witness.as_deref());
        let outcome = outcome_for(&run.outcomes, &rule_id);
        let new = match (old, judge(pass, outcome, run.complete)) {
            (Standing::Disputed, _) => Standing::Disputed,
            (_, Some(s)) => s,
            (old, None) => old,
        };
        if new != old {
            let o = outcome.unwrap_or_default();
            let w = json!({
                "status": new.as_str(),
                "recordId": run.record_id,
                "gateEnforced": o.enforced,
                "gateViolations": o.violations,
                "gateComplete": run.complete,
            });
            tx.execute(
                "UPDATE rule_check_results SET witness = ?1 WHERE check_id = ?2 AND idx = ?3",
                params![w.to_string(), check_id, idx],
            )
            .map_err(LiteError::db(ctx))?;
            changed = true;
        }
        standings.push((known, new));
    }
    let status = check_status(&standings);
    if changed {
        tx.execute(
            "UPDATE rule_checks SET status = ?1, witnessed_by = ?2, updated_at = ?3 WHERE check_id = ?4",
            params![status.as_str(), run.record_id, now_epoch, check_id],
        )
        .map_err(LiteError::db(ctx))?;
    }
    Ok(status)
}

/// A result's standing from its stored `witness` JSON (absent: claimed).
pub fn witness_standing(witness: Option<&str>) -> Standing {
    witness
        .and_then(|w| serde_json::from_str::<Value>(w).ok())
        .and_then(|v| v["status"].as_str().map(Standing::parse))
        .unwrap_or(Standing::Claimed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn o(enforced: bool, violations: i64) -> Option<Outcome> {
        Some(Outcome {
            enforced,
            violations,
        })
    }

    #[test]
    fn only_a_complete_run_witnesses_a_pass_and_any_run_that_saw_a_violation_disputes_one() {
        use Standing::*;
        assert_eq!(judge(true, o(true, 0), true), Some(Witnessed));
        assert_eq!(judge(true, o(true, 0), false), None);
        assert_eq!(judge(true, o(true, 2), false), Some(Disputed));
        assert_eq!(judge(false, o(true, 1), false), Some(Witnessed));
        assert_eq!(judge(false, o(true, 0), true), Some(Disputed));
        assert_eq!(judge(false, o(true, 0), false), None);
        assert_eq!(judge(true, o(false, 0), true), None);
        assert_eq!(judge(true, None, true), None);
    }

    #[test]
    fn an_analyser_id_is_enforced_only_where_a_checked_pattern_covers_it() {
        let outcomes: BTreeMap<String, Outcome> = [
            ("ruff:T201", o(true, 0)),
            ("bandit:*", o(true, 0)),
            ("ruff:S602", o(false, 2)),
            ("no-print", o(true, 0)),
        ]
        .into_iter()
        .filter_map(|(k, v)| Some((k.to_string(), v?)))
        .collect();
        assert_eq!(outcome_for(&outcomes, "ruff:T201"), o(true, 0));
        assert_eq!(outcome_for(&outcomes, "bandit:B602"), o(true, 0));
        assert_eq!(outcome_for(&outcomes, "ruff:E501"), None);
        assert_eq!(outcome_for(&outcomes, "ruff:S602"), o(false, 2));
        assert_eq!(outcome_for(&outcomes, "no-print"), o(true, 0));
        assert_eq!(outcome_for(&outcomes, "semgrep:x"), None);
        let mut twins = outcomes.clone();
        twins.insert(
            "bandit:B602".into(),
            Outcome {
                enforced: true,
                violations: 1,
            },
        );
        assert_eq!(outcome_for(&twins, "ruff:S602"), o(false, 3));
    }

    #[test]
    fn a_check_is_witnessed_only_when_every_known_result_is() {
        use Standing::*;
        assert_eq!(
            check_status(&[(true, Witnessed), (false, Claimed)]),
            Witnessed
        );
        assert_eq!(check_status(&[(true, Witnessed), (true, Claimed)]), Claimed);
        assert_eq!(
            check_status(&[(true, Witnessed), (false, Disputed)]),
            Disputed
        );
        assert_eq!(check_status(&[(false, Witnessed)]), Claimed);
        assert_eq!(check_status(&[]), Claimed);
    }
}
