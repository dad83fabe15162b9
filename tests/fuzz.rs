//! Property-based fuzzing (proptest) of what hostile input reaches: manifest parsing and codegen
//! validation, JSON-RPC framing over stdio and HTTP, trimming and redaction, local path
//! resolution. Each target runs `NEXUS_MCP_FUZZ_CASES` cases (default: 2,000, or fewer for the
//! targets that are slow in a debug build, so each test stays around 20 s); `cargo bench --bench
//! fuzz` runs the same properties 100,000 times each and counts failures.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/fuzz_props.rs"]
mod props;

use proptest::prelude::*;

/// Per-target defaults, scaled to what a debug build runs in about 20 s on two shared cores.
const CASES: u32 = 2_000;
const SLOW_CASES: u32 = 1_000;
const MANIFEST_CASES: u32 = 200;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn mutated_manifests_fail_with_positions_inside_the_file() {
    props::check(
        "manifest",
        props::cases(MANIFEST_CASES),
        props::mutated_manifest(),
        props::manifest_property,
    );
}

#[test]
fn every_stdio_line_is_dispatched_or_answered() {
    props::check(
        "stdio_frame",
        props::cases(CASES),
        props::stdio_line(),
        props::frame_property,
    );
}

#[test]
fn the_stdio_transport_answers_each_malformed_line_once_in_whole_lines() {
    let rt = runtime();
    props::check(
        "stdio_transport",
        props::cases(SLOW_CASES),
        props::stdio_session(),
        |lines| props::transport_property(&rt, lines),
    );
}

#[test]
fn no_http_request_gets_a_server_error() {
    let rt = runtime();
    let app = props::app(Vec::new());
    props::check(
        "http",
        props::cases(SLOW_CASES),
        props::http_case(),
        |case| props::http_property(&rt, &app, case),
    );
}

#[test]
fn fit_budget_fits_or_has_nothing_left_to_cut() {
    props::check(
        "fit_budget",
        props::cases(SLOW_CASES),
        props::value_and_budget(),
        props::fit_budget_property,
    );
}

#[test]
fn shaped_results_with_their_envelope_fit_the_budget() {
    props::check(
        "shape_budget",
        props::cases(SLOW_CASES),
        (props::value_and_budget(), any::<prop::sample::Index>()),
        |(v, tool)| props::shape_property(v, tool),
    );
}

#[test]
fn a_planted_secret_never_survives_redaction() {
    props::check(
        "redact",
        props::cases(SLOW_CASES),
        props::planted_case(),
        props::redact_property,
    );
}

#[test]
fn local_paths_never_resolve_outside_the_root() {
    let world = props::path_world();
    props::check(
        "local_paths",
        props::cases(CASES),
        props::local_path(),
        |p| props::resolve_property(&world, p),
    );
}

/// Found while writing the fit_budget target: the longest string was chosen by bytes but cut
/// only when it had over 64 characters, so 60 four-byte characters stopped the budget while a
/// 300-character ASCII string stayed whole.
#[test]
fn a_short_multibyte_string_does_not_stop_the_budget() {
    let mut value = serde_json::json!({"a": "😀".repeat(60), "b": "x".repeat(300)});
    let mut report = nexus_mcp_runtime::trim::Report::default();
    nexus_mcp_runtime::trim::fit_budget(&mut value, 400, &mut report);
    assert!(
        nexus_mcp_runtime::trim::size(&value) <= 400,
        "{} characters left over a budget of 400: {value}",
        nexus_mcp_runtime::trim::size(&value)
    );
}

#[test]
fn terminal_text_prints_no_control_and_reads_back_unambiguously() {
    props::check(
        "terminal_text",
        props::cases(CASES),
        props::terminal_input(),
        props::terminal_property,
    );
}

// ---------- docs (issue 24, round 2) ----------

#[test]
fn hostile_frontmatter_is_bounded_work_and_deep_nesting_is_refused() {
    props::check(
        "docs_frontmatter",
        props::cases(SLOW_CASES),
        props::frontmatter_case(),
        props::frontmatter_property,
    );
}

#[test]
fn any_node_resource_id_answers_a_node_or_a_readable_error() {
    let world = props::docs_world();
    let node = props::read_node_resource(&world, "TASK-1").unwrap();
    let text = node["result"]["contents"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("body"), "the node resource reads: {node}");
    let dots = props::read_node_resource(&world, "..").unwrap();
    assert_eq!(dots["error"]["code"], -32602, "{dots}");
    let linked = props::read_node_resource(&world, "task-3").unwrap();
    assert!(
        linked["error"].is_object(),
        "the linked document is no node: {linked}"
    );
    props::check(
        "resource_id",
        props::cases(SLOW_CASES),
        props::resource_id(),
        |id| props::resource_id_property(&world, id),
    );
}

// ---------- gate / rules (issue 24, round 2) ----------

#[test]
fn a_proposal_with_terminal_controls_is_refused_or_writes_none() {
    props::check(
        "proposal_controls",
        props::cases(CASES),
        props::hostile_proposal(),
        props::proposal_controls_property,
    );
}

// ---------- local daemon views (issue 25) ----------

#[test]
fn a_client_view_answers_its_registered_routes_and_no_other_domain() {
    let world = props::view_world();
    props::check(
        "view_routes",
        props::cases(SLOW_CASES),
        props::registration_routes(),
        |routes| props::view_routes_property(&world, routes),
    );
}

// ---------- doc-kg mermaid (issue 26) ----------

#[test]
fn a_mermaid_flowchart_keeps_hostile_titles_inside_their_labels() {
    props::check(
        "docs_mermaid",
        props::cases(CASES),
        props::mermaid_graph(),
        props::mermaid_property,
    );
}

// ---------- gate --format github (issue 26) ----------

#[test]
fn a_workflow_annotation_is_one_command_with_its_own_values() {
    props::check(
        "workflow_command",
        props::cases(CASES),
        props::workflow_input(),
        props::workflow_property,
    );
}

// ---------- report_check analyser ids witnessed (issue 26) ----------

#[test]
fn an_analyser_id_pass_is_witnessed_only_where_the_gate_checked_it_and_saw_nothing() {
    props::check(
        "claim_witnessing",
        props::cases(CASES),
        props::claim_witnessing_input(),
        props::claim_witnessing_property,
    );
}

// ---------- playbook symlink chains (issue 26) ----------

#[test]
fn rule_files_linking_to_each_other_are_each_read_once_or_skipped_with_where_they_lead() {
    props::check(
        "playbook_links",
        props::cases(SLOW_CASES),
        props::link_case(),
        props::link_property,
    );
}

// ---------- doc-kg context page cuts (issue 26) ----------

#[test]
fn context_pages_measure_markdown_as_the_json_it_becomes() {
    props::check(
        "json_cut",
        props::cases(CASES),
        props::json_cut_input(),
        props::json_cut_property,
    );
}

// ---------- doc-kg audit pages (issue 26) ----------

#[test]
fn audit_pages_reach_every_finding_once_with_exact_counts() {
    props::check(
        "audit_pages",
        props::cases(CASES),
        props::audit_pages_input(),
        props::audit_pages_property,
    );
}

// ---------- gate baselines (issue 26, gatefeat) ----------

#[test]
fn a_baseline_waives_exactly_the_findings_its_live_waivers_name() {
    props::check(
        "baseline_waivers",
        props::cases(CASES),
        props::baseline_input(),
        props::baseline_property,
    );
}
