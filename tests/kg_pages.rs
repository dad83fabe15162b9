//! Every cut of a code-kg answer is reachable: on a real project (the paramiko 3.5.1 sdist under
//! NEXUS_LITE_SDIST_TEST=1, as CI runs it), kg_file_context paged to its end over a real MCP
//! client shows every symbol and every finding the graph counts, each once, and no page cuts a
//! list without a cursor to the rest.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use std::collections::BTreeSet;

mod support;

const REPO: &str = support::REPO_NAME;
const LISTS: [&str; 4] = ["symbols", "imports", "imported_by", "findings"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kg_file_context_pages_reach_every_symbol_and_finding_of_a_real_project() {
    if !support::sdist::wanted("paramiko==3.5.1") || !support::analysers_on_path() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let python = support::python_with_mcp().unwrap_or_else(|| "python3".into());
    let repo = support::sdist::fetch(&python, "paramiko==3.5.1", tmp.path());
    support::corpora::commit_folder(&repo, "paramiko 3.5.1 as released");
    let data = tmp.path().join("data");
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_nexus-mcp"));
    cmd.arg("serve")
        .arg("--repo")
        .arg(format!("{REPO}={}", repo.display()))
        .arg("--data-dir")
        .arg(&data)
        .env("PATH", support::tool_path())
        .env_remove("NEXUS_API_URL");
    let client: support::McpClient = ().serve(TokioChildProcess::new(cmd).unwrap()).await.unwrap();
    let spec = nexus_mcp::surface("nexus-code-kg")
        .unwrap()
        .tool("kg_file_context")
        .unwrap();
    let schema: Value = serde_json::from_str(spec.output_schema).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();

    let latest = support::call_tool(&client, "kg_latest_graph", json!({"repository": REPO}))
        .await
        .unwrap();
    let graph_id = latest["graph"]["graph_id"].as_str().unwrap().to_owned();
    let counts = &latest["graph"]["counts"];
    let files = support::git(&repo, &["ls-files"]);
    let (mut symbols, mut findings, mut in_graph, mut paged_files) = (0, 0, 0, 0);
    for path in files.lines() {
        let mut arguments = json!({"graph_id": graph_id, "path": path});
        let mut seen: Vec<BTreeSet<String>> = vec![BTreeSet::new(); LISTS.len()];
        let mut pages = 0;
        loop {
            pages += 1;
            assert!(pages < 50, "{path}: paging does not end");
            let page = support::call_tool(&client, "kg_file_context", arguments.clone())
                .await
                .unwrap_or_else(|e| panic!("{path}: {e}"));
            let problems: Vec<String> = validator
                .iter_errors(&page)
                .map(|e| format!("{e} at {}", e.instance_path()))
                .collect();
            assert!(problems.is_empty(), "{path}: {problems:?}");
            let size = page.to_string().len();
            assert!(size <= 8000, "{path} page {pages}: {size} characters");
            for (list, seen) in LISTS.iter().zip(&mut seen) {
                for item in page[*list].as_array().unwrap() {
                    assert!(
                        seen.insert(item.to_string()),
                        "{path}: {list} item shown twice: {item}"
                    );
                }
            }
            let cursor = page["next_cursor"].as_str();
            let cuts = page["truncation"]["cuts"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            match cursor {
                Some(c) => arguments["cursor"] = json!(c),
                None => {
                    assert!(cuts.is_empty(), "{path}: a cut with no cursor: {cuts:?}");
                    in_graph += usize::from(page["in_graph"] == true);
                    break;
                }
            }
        }
        paged_files += usize::from(pages > 1);
        symbols += seen[0].len();
        findings += seen[3].len();
    }
    assert_eq!(
        in_graph as u64,
        counts["files"].as_u64().unwrap(),
        "{counts}"
    );
    assert_eq!(
        symbols as u64,
        counts["classes"].as_u64().unwrap() + counts["functions"].as_u64().unwrap(),
        "every class, function and method, through the pages: {counts}"
    );
    assert_eq!(
        findings as u64,
        counts["findings"].as_u64().unwrap(),
        "{counts}"
    );
    assert!(
        paged_files >= 3,
        "paramiko has files over one answer: {paged_files} paged"
    );
    client.cancel().await.unwrap();
}
