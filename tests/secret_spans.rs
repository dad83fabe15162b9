//! Issue 11, defect 3: a kg_file_context window that starts inside a PEM block never sees its
//! BEGIN line, so string redaction of the window alone let 11 of 13 key lines out in one call.
//! The attack, through the real server (embedded nexus-lite on a real git repository) over
//! stdio and over HTTP: windows starting at every line of the block, and one spanning it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use base64::Engine;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

const PATH: &str = "shop/signing.py";

/// The file: code, a 13-line RSA key in a string literal, code. Returns (lines, block range,
/// key body lines). The key is generated here, so the repository carries no key-shaped text.
fn signing_module() -> (Vec<String>, (usize, usize), Vec<String>) {
    let mut bytes = Vec::new();
    let mut block = Sha256::digest(b"defect 3").to_vec();
    while bytes.len() < 600 {
        bytes.extend_from_slice(&block);
        block = Sha256::digest(&block).to_vec();
    }
    bytes.truncate(600);
    let b64 = base64::engine::general_purpose::STANDARD.encode(bytes);
    let body: Vec<String> = b64
        .as_bytes()
        .chunks(64)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect();
    assert_eq!(body.len(), 13);
    let mut lines: Vec<String> = [
        "import hmac",
        "",
        "",
        "def sign(data):",
        "    return hmac.new(KEY.encode(), data, 'sha256').hexdigest()",
        "",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let first = lines.len() + 1;
    lines.push("KEY = \"\"\"-----BEGIN RSA PRIVATE KEY-----".to_owned());
    lines.extend(body.iter().cloned());
    lines.push("-----END RSA PRIVATE KEY-----\"\"\"".to_owned());
    let last = lines.len();
    lines.extend(
        [
            "",
            "",
            "def verify(data, mac):",
            "    return hmac.compare_digest(sign(data), mac)",
        ]
        .iter()
        .map(|s| (*s).to_owned()),
    );
    (lines, (first, last), body)
}

/// The shared fixture plus the signing module, committed.
fn fixture() -> (support::Fixture, Vec<String>, (usize, usize), Vec<String>) {
    let f = support::fixture_repo();
    let (lines, block, body) = signing_module();
    std::fs::write(f.path.join(PATH), lines.join("\n") + "\n").unwrap();
    support::git(&f.path, &["add", "-A"]);
    support::git(&f.path, &["commit", "-q", "-m", "signing"]);
    (f, lines, block, body)
}

async fn file_context<S: rmcp::service::Service<RoleClient>>(
    client: &RunningService<RoleClient, S>,
    line: usize,
    radius: usize,
) -> Value {
    let args =
        json!({"repository": support::REPO_NAME, "path": PATH, "line": line, "radius": radius});
    let result = client
        .call_tool(
            CallToolRequestParams::new("kg_file_context")
                .with_arguments(args.as_object().cloned().unwrap()),
        )
        .await
        .unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result.structured_content.unwrap()
}

/// No 16-character piece of a key line anywhere in the answer; every code line of the window
/// as in the file, at its own line number.
fn check(answer: &Value, lines: &[String], (first, last): (usize, usize), body: &[String]) {
    let text = answer.to_string();
    for key_line in body {
        for i in 0..key_line.len() - 16 {
            let piece = &key_line[i..i + 16];
            assert!(!text.contains(piece), "key text `{piece}` leaked: {text}");
        }
    }
    let snippet = &answer["snippet"];
    let start = snippet["start_line"].as_u64().unwrap() as usize;
    let end = snippet["end_line"].as_u64().unwrap() as usize;
    let shown: Vec<&str> = snippet["text"].as_str().unwrap().split('\n').collect();
    assert_eq!(
        shown.len(),
        end - start + 1,
        "line numbering is kept: {snippet}"
    );
    for (n, line) in (start..=end).zip(shown) {
        if (first..=last).contains(&n) {
            assert_eq!(
                line,
                format!("[REDACTED: private key block, lines {first}-{last}]"),
                "line {n}"
            );
        } else {
            assert_eq!(line, lines[n - 1], "code line {n} is shown as it is");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_window_shows_key_lines_over_stdio() {
    let (f, lines, block, body) = fixture();
    let data = tempfile::tempdir().unwrap();
    let mut cmd = tokio::process::Command::new(support::bin());
    cmd.arg("serve")
        .arg("--repo")
        .arg(f.repo_arg())
        .arg("--data-dir")
        .arg(data.path())
        .env("PATH", support::tool_path())
        .env_remove("NEXUS_API_URL");
    let client = ().serve(TokioChildProcess::new(cmd).unwrap()).await.unwrap();
    // A radius-2 window starting at every line of the block, then one spanning it.
    for start in block.0..=block.1 {
        let answer = file_context(&client, start + 2, 2).await;
        assert_eq!(answer["snippet"]["start_line"], start);
        check(&answer, &lines, block, &body);
    }
    let answer = file_context(&client, (block.0 + block.1) / 2, 14).await;
    assert_eq!(answer["snippet"]["start_line"], 1);
    check(&answer, &lines, block, &body);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_window_shows_key_lines_over_http() {
    let (f, lines, block, body) = fixture();
    let key = "defect-3-key-0123456789";
    let server = support::HttpServer::start(
        &f,
        support::HttpOptions {
            key: Some(key.to_owned()),
            ..Default::default()
        },
    );
    let client = support::http_client(server.url("/mcp"), key).await;
    // The window the probe used (starting two lines into the block), then one spanning it.
    for (center, radius) in [(block.0 + 8, 6), ((block.0 + block.1) / 2, 14)] {
        let answer = file_context(&client, center, radius).await;
        check(&answer, &lines, block, &body);
    }
    client.cancel().await.unwrap();
}
