//! The rules domain's schema, in the version range 2000..=2999 (see `crate::core::db`).
//! Versions 2000..=2499 are the playbook side's (checks, skills, proposals, stats);
//! 2500..=2599 belong to the gate (`rules::gate`), appended after these in ascending order.

use crate::core::db::Migration;

pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 2000,
        description: "rules: self-checks (claimed/witnessed), gate outcomes per rule, skill fetches, proposals",
        sql: r#"
CREATE TABLE rule_checks(
  check_id TEXT PRIMARY KEY,
  repository TEXT NOT NULL,
  session_id TEXT NOT NULL,
  agent_name TEXT,
  model_id TEXT,
  tree_sha TEXT,
  head_sha TEXT,
  head_tree_sha TEXT,
  dirty INTEGER,
  status TEXT NOT NULL,
  witnessed_by TEXT,
  created_at INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX rule_checks_by_tree ON rule_checks(repository, tree_sha);
CREATE INDEX rule_checks_by_session ON rule_checks(repository, session_id, seq);
CREATE TABLE rule_check_results(
  check_id TEXT NOT NULL REFERENCES rule_checks(check_id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  rule_id TEXT NOT NULL,
  pass INTEGER NOT NULL,
  note TEXT,
  known INTEGER NOT NULL,
  witness TEXT,
  PRIMARY KEY(check_id, idx)
) WITHOUT ROWID;
CREATE INDEX rule_check_results_by_rule ON rule_check_results(rule_id);
CREATE TABLE rule_gate_runs(
  record_id TEXT PRIMARY KEY,
  repository TEXT NOT NULL,
  pr INTEGER,
  head_sha TEXT NOT NULL,
  tree_sha TEXT,
  complete INTEGER NOT NULL,
  analyzed_at INTEGER NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX rule_gate_runs_by_pr ON rule_gate_runs(repository, pr, seq);
CREATE TABLE rule_gate_outcomes(
  record_id TEXT NOT NULL REFERENCES rule_gate_runs(record_id) ON DELETE CASCADE,
  rule_id TEXT NOT NULL,
  enforced INTEGER NOT NULL,
  violations INTEGER NOT NULL,
  PRIMARY KEY(record_id, rule_id)
) WITHOUT ROWID;
CREATE TABLE skill_fetches(
  repository TEXT NOT NULL,
  name TEXT NOT NULL,
  path TEXT NOT NULL,
  digest TEXT NOT NULL,
  fetched_at INTEGER NOT NULL
);
CREATE INDEX skill_fetches_by_name ON skill_fetches(repository, name);
CREATE TABLE rule_proposals(
  proposal_id TEXT PRIMARY KEY,
  repository TEXT NOT NULL,
  kind TEXT NOT NULL,
  title TEXT NOT NULL,
  name TEXT,
  body TEXT NOT NULL,
  rationale TEXT,
  fields TEXT NOT NULL,
  source TEXT NOT NULL,
  proposed_by TEXT,
  ai_generated INTEGER NOT NULL,
  status TEXT NOT NULL,
  dedupe_key TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  decided_at INTEGER,
  decided_by TEXT,
  decision_note TEXT,
  written_path TEXT
);
CREATE INDEX rule_proposals_by_status ON rule_proposals(repository, status, created_at);
"#,
    },
    // rules::gate migrations (2500..=2599) go below this line.
    crate::rules::gate::record::MIGRATION_2500,
    crate::rules::gate::record::MIGRATION_2520,
];
