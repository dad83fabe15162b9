//! contract/ is the published form of the manifest: CI fails when it drifts, when a file is
//! missing, or when a removed tool left its file behind.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use nexus_mcp_runtime::contract;
use std::path::Path;

#[test]
fn the_committed_contract_matches_the_manifest() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("contract");
    for surface in nexus_mcp::SURFACES {
        let problems = contract::check(&root, surface).unwrap();
        assert!(
            problems.is_empty(),
            "contract/{} drifted from the manifest; run `cargo run -- contract --write` and commit:\n{}",
            surface.name,
            problems.join("\n")
        );
    }
}

#[test]
fn drift_missing_files_and_leftovers_are_each_reported() {
    let surface = nexus_mcp::surface("nexus-code-kg").unwrap();
    let dir = tempfile::tempdir().unwrap();
    contract::write(dir.path(), surface).unwrap();
    assert!(
        contract::check(dir.path(), surface).unwrap().is_empty(),
        "a fresh write is current"
    );

    let files = dir.path().join(surface.name);
    let edited = files.join("kg_latest_graph.json");
    let text = std::fs::read_to_string(&edited).unwrap();
    std::fs::write(
        &edited,
        text.replace("\"access\": \"read\"", "\"access\": \"write\""),
    )
    .unwrap();
    std::fs::remove_file(files.join("kg_impact.json")).unwrap();
    std::fs::write(files.join("kg_removed_tool.json"), "{}\n").unwrap();

    let problems = contract::check(dir.path(), surface).unwrap();
    assert_eq!(problems.len(), 3, "{problems:#?}");
    let drift = problems.iter().find(|p| p.starts_with("drift:")).unwrap();
    assert!(
        drift.contains("kg_latest_graph.json")
            && drift.contains("-  \"access\": \"write\"")
            && drift.contains("+  \"access\": \"read\""),
        "{drift}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("missing:") && p.contains("kg_impact.json")),
        "{problems:#?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("leftover:") && p.contains("kg_removed_tool.json")),
        "{problems:#?}"
    );

    // --write repairs all three, removing the leftover.
    contract::write(dir.path(), surface).unwrap();
    assert!(contract::check(dir.path(), surface).unwrap().is_empty());
    assert!(!files.join("kg_removed_tool.json").exists());
}

#[test]
fn every_prompt_and_resource_of_code_kg_has_a_document() {
    let surface = nexus_mcp::surface("nexus-code-kg").unwrap();
    let docs = nexus_mcp_runtime::contract_extra::prompt_and_resource_documents(surface);
    assert_eq!(docs.len(), surface.prompts.len() + surface.resources.len());
    assert!(
        docs.iter()
            .any(|(name, text)| name == "prompts/fix_audit_risk.json"
                && text.contains("\"template\": \"Fix one Code KG finding"))
    );
}

#[test]
fn code_kg_fits_its_tool_list_budget() {
    use nexus_mcp_runtime::tool_cost::{costs, report};
    let surface = nexus_mcp::surface("nexus-code-kg").unwrap();
    let (costs, total) = costs(surface);
    assert_eq!(costs.len(), 10, "{costs:?}");
    let budget = surface.tool_list_budget.unwrap_or(0);
    assert!(total <= budget, "{total} > {budget}:\n{}", report(surface));
    assert!(report(surface).ends_with(&format!("{total}  (budget {budget})\n")));
}
