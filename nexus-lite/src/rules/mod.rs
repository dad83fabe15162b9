//! The rules domain: a repository's own rule files as a playbook (`playbook`), its skills
//! (`skills`), agents' self-checks and what the gate witnessed of them (`checks`), proposals
//! waiting for a human (`proposals`), per-rule statistics (`stats`), analyser rule texts
//! (`analyser_rules`) and the CI gate (`gate`). See `crate::core` for how a domain plugs in.
//!
//! Library entry points other crates call (the gate command, `nexus-mcp rules`):
//! [`playbook::load_at_commit`], [`playbook::load_worktree`], [`playbook::diff_playbooks`],
//! [`checks::record_gate_run`], [`proposals`]'s queue functions and [`stats::compute`].

pub mod analyser_rules;
pub mod api;
pub mod checks;
// rules-gate: the CI gate (diff, analysers, records, get_gate_result, SARIF).
pub mod gate;
pub mod migrations;
pub mod playbook;
pub mod proposals;
pub mod skills;
pub mod state;
pub mod stats;

use crate::core::Domain;

pub use api::router;
pub use state::RulesState;

pub const DOMAIN: Domain = Domain {
    name: "rules",
    // 2500..=2599 of it belong to the gate (`rules::gate`).
    versions: 2000..=2999,
    migrations: migrations::MIGRATIONS,
    openapi: include_str!("openapi.json"),
    routes: &[
        ("GET", "/api/v1/rules/playbook"),
        ("GET", "/api/v1/rules/rules/{rule_id}"),
        ("POST", "/api/v1/rules/checks"),
        ("GET", "/api/v1/rules/checks"),
        ("GET", "/api/v1/rules/skills"),
        ("GET", "/api/v1/rules/skills/{name}"),
        ("GET", "/api/v1/rules/proposals"),
        ("POST", "/api/v1/rules/proposals"),
        ("POST", "/api/v1/rules/proposals/bootstrap"),
        ("POST", "/api/v1/rules/proposals/{proposal_id}/accept"),
        ("POST", "/api/v1/rules/proposals/{proposal_id}/reject"),
        ("GET", "/api/v1/rules/stats"),
        // rules::gate routes go below this line.
        ("GET", "/api/v1/rules/gate-results"),
        ("POST", "/api/v1/rules/gate-results"),
        ("GET", "/api/v1/rules/gate-runs"),
    ],
};
