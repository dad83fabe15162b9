//! Adding a mapped tool is a manifest edit only: a copy of manifest/ gets one more tool, the real
//! binary is rebuilt from it (build.rs reads NEXUS_MCP_MANIFEST_DIR), lists the tool and calls it
//! against a test HTTP backend. A broken copy, or one whose tool list is over its budget, fails
//! that same build at file:line:column.
//!
//! The builds use their own target directory (target/manifest-edit) so the binary built from the
//! real manifest is never overwritten; the first run therefore compiles every dependency once.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::mpsc;

const WORKSPACE: &str = env!("CARGO_MANIFEST_DIR");

/// Mapped onto nexus-lite's `GET /api/v1/repositories`; not in the real manifest.
const ECHO_TOOL: &str = r#"  - name: kg_echo_repositories
    title: Echo repositories
    description: Repositories Nexus knows, with their default branch. Added by tests/manifest_edit.rs.
    scope: kg:read
    access: read
    handler: mapped
    input:
      type: object
      properties: {}
      additionalProperties: false
    output:
      type: object
      properties:
        items:
          type: array
          items:
            type: object
            properties:
              name: {type: string}
              default_branch: {type: string}
    nexus:
      method: GET
      path: /api/v1/repositories
    response:
      pick: [items.*.name, items.*.default_branch]
"#;

/// A tool whose scope is not declared; `scope:` is its fifth line.
const BAD_SCOPE_TOOL: &str = r#"  - name: kg_bad_scope
    title: Bad scope
    description: Uses a scope the manifest does not declare.
    scope: kg:nope
    access: read
    handler: mapped
    input: {type: object, properties: {}}
    output: {type: object, properties: {}}
    nexus: {method: GET, path: /api/v1/repositories}
"#;

/// A copy of manifest/ in a fresh temporary directory, with `tool` appended to `tools:`.
/// Returns the directory, the copied manifest's path and the 1-based line the tool starts on.
fn manifest_copy_with(tool: &str) -> (tempfile::TempDir, PathBuf, usize) {
    let dir = tempfile::tempdir().expect("tempdir");
    for entry in std::fs::read_dir(Path::new(WORKSPACE).join("manifest")).expect("read manifest/") {
        let entry = entry.expect("dir entry");
        std::fs::copy(entry.path(), dir.path().join(entry.file_name())).expect("copy");
    }
    let path = dir.path().join("nexus-code-kg.yaml");
    let source = std::fs::read_to_string(&path).expect("read the copied manifest");
    // The tools list ends where the top-level `prompts:` key starts.
    let at = source
        .find("\nprompts:\n")
        .expect("manifest has a prompts: section")
        + 1;
    let line = source[..at].lines().count() + 1;
    let edited = format!("{}{tool}{}", &source[..at], &source[at..]);
    std::fs::write(&path, edited).expect("write the edited manifest");
    (dir, path, line)
}

/// Sets `server.tool_list_budget` of the copied manifest at `path`; answers its 1-based line.
fn set_tool_list_budget(path: &Path, budget: usize) -> usize {
    let source = std::fs::read_to_string(path).expect("read the copied manifest");
    let (index, old) = source
        .lines()
        .enumerate()
        .find(|(_, l)| l.trim_start().starts_with("tool_list_budget:"))
        .expect("the manifest declares tool_list_budget");
    let indent = &old[..old.len() - old.trim_start().len()];
    let edited = source.replacen(old, &format!("{indent}tool_list_budget: {budget}"), 1);
    std::fs::write(path, edited).expect("write the edited manifest");
    index + 1
}

fn target_dir() -> PathBuf {
    Path::new(WORKSPACE).join("target").join("manifest-edit")
}

/// `cargo build --bin nexus-mcp` with build.rs reading manifests from `manifest_dir`.
fn build_with(manifest_dir: &Path) -> Output {
    Command::new(env!("CARGO"))
        .args(["build", "--bin", "nexus-mcp"])
        .current_dir(WORKSPACE)
        .env("NEXUS_MCP_MANIFEST_DIR", manifest_dir)
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .expect("run cargo")
}

fn binary() -> PathBuf {
    target_dir()
        .join("debug")
        .join(format!("nexus-mcp{}", std::env::consts::EXE_SUFFIX))
}

/// What the test backend saw of one request.
struct Seen {
    request_line: String,
    authorization: Option<String>,
}

/// An HTTP backend on 127.0.0.1 that answers every request with `body` and reports what it saw.
/// Each request is reported before it is answered, so once the client has its answer the report
/// is already in the channel.
fn backend(body: &'static str) -> (u16, mpsc::Receiver<Seen>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("local addr").port();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
            let mut request_line = String::new();
            reader.read_line(&mut request_line).expect("request line");
            let mut authorization = None;
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).expect("header") == 0 || header == "\r\n" {
                    break;
                }
                if let Some((name, value)) = header.split_once(':')
                    && name.eq_ignore_ascii_case("authorization")
                {
                    authorization = Some(value.trim().to_owned());
                }
            }
            let seen = Seen {
                request_line: request_line.trim_end().to_owned(),
                authorization,
            };
            if tx.send(seen).is_err() {
                return;
            }
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            stream.write_all(response.as_bytes()).expect("answer");
        }
    });
    (port, rx)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// One test, because both halves build into the same target directory.
#[test]
fn a_manifest_edit_adds_a_tool_and_a_broken_manifest_fails_the_build() {
    // (a) A new mapped tool: manifest edit, build, list, call. The extra tool also costs room in
    // the tool list, so this copy's budget grows with it.
    let (dir, path, _line) = manifest_copy_with(ECHO_TOOL);
    set_tool_list_budget(&path, 9000);
    let build = build_with(dir.path());
    assert!(
        build.status.success(),
        "the edited manifest must build:\n{}",
        text(&build.stderr)
    );

    let tools = Command::new(binary())
        .arg("tools")
        .output()
        .expect("run nexus-mcp tools");
    assert!(tools.status.success(), "{}", text(&tools.stderr));
    let listing = text(&tools.stdout);
    let row = listing
        .lines()
        .find(|l| l.starts_with("kg_echo_repositories "))
        .unwrap_or_else(|| panic!("kg_echo_repositories is not listed:\n{listing}"));
    let columns: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        columns[..3],
        ["kg_echo_repositories", "kg:read", "read"],
        "{row}"
    );
    assert!(row.ends_with("Echo repositories"), "{row}");

    let (port, seen) = backend(
        r#"{"items":[{"name":"acme/widgets","default_branch":"main","branches":["main"],"latest_graph_id":"g-1"}]}"#,
    );
    let call = Command::new(binary())
        .args(["call", "kg_echo_repositories", "{}"])
        .env("NEXUS_API_URL", format!("http://127.0.0.1:{port}"))
        .env("NEXUS_API_TOKEN", "secret-t")
        .env_remove("NEXUS_MCP_SCOPES")
        .output()
        .expect("run nexus-mcp call");
    assert!(
        call.status.success(),
        "the call failed:\n{}",
        text(&call.stderr)
    );
    let result: serde_json::Value =
        serde_json::from_slice(&call.stdout).expect("the call prints JSON");
    assert_eq!(
        result["items"],
        serde_json::json!([{"name": "acme/widgets", "default_branch": "main"}]),
        "the backend's data, trimmed by `pick`: {result}"
    );
    let request = seen.try_recv().expect("the backend was called");
    assert!(
        request
            .request_line
            .starts_with("GET /api/v1/repositories "),
        "{}",
        request.request_line
    );
    assert_eq!(request.authorization.as_deref(), Some("Bearer secret-t"));
    assert!(
        seen.try_recv().is_err(),
        "one tool call is one backend request"
    );

    // (b) A broken manifest fails the same build, pointing at the offending key.
    let (dir, path, line) = manifest_copy_with(BAD_SCOPE_TOOL);
    let build = build_with(dir.path());
    assert!(
        !build.status.success(),
        "a manifest with an unknown scope must not build"
    );
    let stderr = text(&build.stderr);
    // Outside the crate the path is shown as given (absolute); inside it, relative to the crate.
    let expected = format!(
        "{}:{}:5: tool `kg_bad_scope`: unknown scope `kg:nope`. Declare it under `scopes:` or \
         use one of: kg:read, kg:local, kg:regenerate.",
        path.display(),
        line + 3
    );
    assert!(
        stderr.contains(&expected),
        "expected `{expected}` in the build output:\n{stderr}"
    );

    // (c) A tool list over its budget fails the same build, naming the heaviest tools.
    let (dir, path, _line) = manifest_copy_with("");
    let line = set_tool_list_budget(&path, 1000);
    let build = build_with(dir.path());
    assert!(
        !build.status.success(),
        "a tool list over budget must not build"
    );
    let stderr = text(&build.stderr);
    let expected = format!("{}:{line}:3: the tool list costs ", path.display());
    assert!(
        stderr.contains(&expected)
            && stderr.contains("over tool_list_budget 1000 (heaviest: kg_list_audit_risks "),
        "expected `{expected}…` in the build output:\n{stderr}"
    );
}
