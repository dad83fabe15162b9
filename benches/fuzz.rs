//! The fuzz targets of tests/fuzz.rs at volume: `NEXUS_MCP_FUZZ_CASES` cases per target
//! (default 100,000), every case run (no stop at the first failure), printing per target the
//! cases, the failures, the time and the first failing input. Exits non-zero on any failure.
//! `cargo bench --bench fuzz [target…]` runs the named targets only.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../tests/support/fuzz_props.rs"]
mod props;

use proptest::prelude::*;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cases = props::cases(100_000);
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let run = |name: &str| wanted.is_empty() || wanted.iter().any(|w| w == name);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let app = props::app(Vec::new());
    let world = props::path_world();
    // Quiet: the HTTP target makes the server log every refused request.
    let mut tallies = Vec::new();
    let mut record = |name: &'static str, tally: props::Tally| {
        println!(
            "{name:<16} cases {:>7}  failures {:>5}  {:>8.1?}",
            tally.cases, tally.failures, tally.elapsed
        );
        if let Some(first) = &tally.first_failure {
            println!("  first failure: {first}");
        }
        tallies.push(tally.failures);
    };
    if run("manifest") {
        record(
            "manifest",
            props::count(cases, props::mutated_manifest(), props::manifest_property),
        );
    }
    if run("stdio_frame") {
        record(
            "stdio_frame",
            props::count(cases, props::stdio_line(), props::frame_property),
        );
    }
    if run("stdio_transport") {
        record(
            "stdio_transport",
            props::count(cases, props::stdio_session(), |l| {
                props::transport_property(&rt, l)
            }),
        );
    }
    if run("http") {
        record(
            "http",
            props::count(cases, props::http_case(), |c| {
                props::http_property(&rt, &app, c)
            }),
        );
    }
    if run("fit_budget") {
        record(
            "fit_budget",
            props::count(cases, props::value_and_budget(), props::fit_budget_property),
        );
    }
    if run("shape_budget") {
        record(
            "shape_budget",
            props::count(
                cases,
                (props::value_and_budget(), any::<prop::sample::Index>()),
                |(v, t)| props::shape_property(v, t),
            ),
        );
    }
    if run("redact") {
        record(
            "redact",
            props::count(cases, props::planted_case(), props::redact_property),
        );
    }
    if run("local_paths") {
        record(
            "local_paths",
            props::count(cases, props::local_path(), |p| {
                props::resolve_property(&world, p)
            }),
        );
    }
    if run("terminal_text") {
        record(
            "terminal_text",
            props::count(cases, props::terminal_input(), props::terminal_property),
        );
    }
    // ---------- docs (issue 24, round 2) ----------
    if run("docs_frontmatter") {
        record(
            "docs_frontmatter",
            props::count(
                cases,
                props::frontmatter_case(),
                props::frontmatter_property,
            ),
        );
    }
    if run("resource_id") {
        let docs = props::docs_world();
        record(
            "resource_id",
            props::count(cases, props::resource_id(), |id| {
                props::resource_id_property(&docs, id)
            }),
        );
    }
    // ---------- gate / rules (issue 24, round 2) ----------
    if run("proposal_controls") {
        record(
            "proposal_controls",
            props::count(
                cases,
                props::hostile_proposal(),
                props::proposal_controls_property,
            ),
        );
    }
    // ---------- local daemon views (issue 25) ----------
    if run("view_routes") {
        let world = props::view_world();
        record(
            "view_routes",
            props::count(cases, props::registration_routes(), |routes| {
                props::view_routes_property(&world, routes)
            }),
        );
    }
    // ---------- doc-kg mermaid (issue 26) ----------
    if run("docs_mermaid") {
        record(
            "docs_mermaid",
            props::count(cases, props::mermaid_graph(), props::mermaid_property),
        );
    }
    // ---------- gate --format github (issue 26) ----------
    if run("workflow_command") {
        record(
            "workflow_command",
            props::count(cases, props::workflow_input(), props::workflow_property),
        );
    }
    // ---------- report_check analyser ids witnessed (issue 26) ----------
    if run("claim_witnessing") {
        record(
            "claim_witnessing",
            props::count(
                cases,
                props::claim_witnessing_input(),
                props::claim_witnessing_property,
            ),
        );
    }
    // ---------- playbook symlink chains (issue 26) ----------
    if run("playbook_links") {
        record(
            "playbook_links",
            props::count(cases, props::link_case(), props::link_property),
        );
    }
    // ---------- doc-kg context page cuts (issue 26) ----------
    if run("json_cut") {
        record(
            "json_cut",
            props::count(cases, props::json_cut_input(), props::json_cut_property),
        );
    }
    // ---------- doc-kg audit pages (issue 26) ----------
    if run("audit_pages") {
        record(
            "audit_pages",
            props::count(
                cases,
                props::audit_pages_input(),
                props::audit_pages_property,
            ),
        );
    }
    // ---------- gate baselines (issue 26, gatefeat) ----------
    if run("baseline_waivers") {
        record(
            "baseline_waivers",
            props::count(cases, props::baseline_input(), props::baseline_property),
        );
    }
    if tallies.iter().any(|f| *f > 0) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
