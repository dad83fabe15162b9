#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Private keys in a repository never come back through file-context windows, finding or
//! anomaly messages, whatever line a window starts at (issue 11, defect 3).

mod common;

use base64::Engine;
use common::*;
use sha2::{Digest, Sha256};
use std::path::Path;

/// Base64 lines of a fake key, generated here so the repository carries no key-shaped text.
fn key_body(seed: &str, lines: usize) -> Vec<String> {
    let mut bytes = Vec::new();
    let mut block = Sha256::digest(seed.as_bytes()).to_vec();
    while bytes.len() < lines * 48 {
        bytes.extend_from_slice(&block);
        block = Sha256::digest(&block).to_vec();
    }
    bytes.truncate(lines * 48 - 20);
    let b64 = base64::engine::general_purpose::STANDARD.encode(bytes);
    b64.as_bytes()
        .chunks(64)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect()
}

/// Whether `text` holds any 16-character piece of a key line.
fn leaks(text: &str, body: &[String]) -> Option<String> {
    body.iter().find_map(|line| {
        (0..line.len().saturating_sub(16))
            .map(|i| &line[i..i + 16])
            .find(|piece| text.contains(piece))
            .map(|piece| format!("`{piece}` of key line `{line}`"))
    })
}

struct KeyFile {
    path: &'static str,
    lines: Vec<String>,
    body: Vec<String>,
    /// 1-based lines of the block.
    block: (usize, usize),
}

fn key_file(path: &'static str, before: &[&str], block: Vec<String>, after: &[&str]) -> KeyFile {
    let body: Vec<String> = block
        .iter()
        .filter(|l| !l.contains("-----"))
        .cloned()
        .collect();
    let start = before.len() + 1;
    let end = before.len() + block.len();
    let mut lines: Vec<String> = before.iter().map(|s| (*s).to_owned()).collect();
    lines.extend(block);
    lines.extend(after.iter().map(|s| (*s).to_owned()));
    KeyFile {
        path,
        lines,
        body,
        block: (start, end),
    }
}

fn pem(label: &str, seed: &str, open: &str, close: &str) -> Vec<String> {
    let mut out = vec![format!("{open}-----BEGIN {label}-----")];
    out.extend(key_body(seed, 13));
    out.push(format!("-----END {label}-----{close}"));
    out
}

fn repo(dir: &Path) -> Vec<KeyFile> {
    git(dir, &["init", "-q", "-b", "main"]);
    let files = vec![
        // A key in a string literal in the middle of code.
        key_file(
            "app/keys.py",
            &[
                "import os",
                "",
                "",
                "def signer():",
                "    return os.environ.get('SIGNER')",
                "",
            ],
            pem("RSA PRIVATE KEY", "py", "KEY = \"\"\"", "\"\"\""),
            &["", "", "def verify(data):", "    return len(data) > 0"],
        ),
        // A key pasted into code: a syntax error whose message would quote it.
        key_file(
            "app/pasted.py",
            &["def a():", "    return 1", ""],
            pem("PRIVATE KEY", "pasted", "", ""),
            &["", "def b():", "    return 2"],
        ),
        // A file nexus-lite does not parse.
        key_file(
            "deploy/id_ed25519",
            &[],
            pem("OPENSSH PRIVATE KEY", "ssh", "", ""),
            &[],
        ),
    ];
    for f in &files {
        write(dir, f.path, &(f.lines.join("\n") + "\n"));
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "keys"]);
    files
}

#[test]
fn no_window_shows_a_line_of_a_private_key_block() {
    let dir = tempfile::tempdir().unwrap();
    let repo_dir = dir.path().join("repo");
    std::fs::create_dir_all(&repo_dir).unwrap();
    let files = repo(&repo_dir);
    let data = dir.path().join("data");
    let server = start_server(&repo_dir, &data, Some("acme/keys"), true);
    let a = server.addr;
    for f in &files {
        let (first, last) = f.block;
        let marker = format!("[REDACTED: private key block, lines {first}-{last}]");
        // Windows starting at every line inside the block, and one spanning it whole.
        let mut windows: Vec<(usize, usize)> = (first..=last).map(|l| (l + 2, 2)).collect();
        windows.push(((first + last) / 2, 12));
        for (center, radius) in windows {
            let r = get(
                a,
                &format!(
                    "/api/v1/file-context?repository=acme/keys&path={}&line={center}&radius={radius}",
                    enc(f.path)
                ),
            );
            assert_eq!(r.status, 200, "{}", r.body);
            let answer = r.body.to_string();
            assert!(
                leaks(&answer, &f.body).is_none(),
                "{} window at {center}±{radius} leaks {:?}",
                f.path,
                leaks(&answer, &f.body)
            );
            let snippet = &r.body["snippet"];
            let start = snippet["start_line"].as_u64().unwrap() as usize;
            let end = snippet["end_line"].as_u64().unwrap() as usize;
            let shown: Vec<&str> = snippet["text"].as_str().unwrap().split('\n').collect();
            assert_eq!(shown.len(), end - start + 1, "line numbering kept");
            for (n, text) in (start..=end).zip(&shown) {
                if (first..=last).contains(&n) {
                    assert_eq!(*text, marker, "{}:{n}", f.path);
                } else {
                    assert_eq!(*text, f.lines[n - 1], "{}:{n}: code stays", f.path);
                }
            }
        }
    }
    // Messages about lines of a block are withheld (the syntax error near the pasted key).
    let anomalies = get(
        a,
        "/api/v1/anomalies?repository=acme/keys&path=app/pasted.py",
    );
    assert_eq!(anomalies.status, 200, "{}", anomalies.body);
    let pasted = &files[1];
    assert!(
        anomalies.body["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["kind"] == "parse_error"),
        "the pasted key breaks the syntax: {}",
        anomalies.body
    );
    let findings = get(a, "/api/v1/findings?repository=acme/keys&limit=500");
    for answer in [&anomalies.body, &findings.body] {
        let text = answer.to_string();
        assert!(leaks(&text, &pasted.body).is_none(), "{text}");
        assert!(leaks(&text, &files[0].body).is_none(), "{text}");
    }
    // The spans are stored with the graph, also for a file nexus-lite does not parse.
    let conn = rusqlite::Connection::open(data.join("nexus-lite.sqlite3")).unwrap();
    let stored: Vec<(String, i64, i64, String)> = conn
        .prepare("SELECT path, start_line, end_line, kind FROM secret_spans ORDER BY path")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut expected: Vec<(String, i64, i64, String)> = files
        .iter()
        .map(|f| {
            (
                f.path.to_owned(),
                f.block.0 as i64,
                f.block.1 as i64,
                "private_key".to_owned(),
            )
        })
        .collect();
    expected.sort();
    assert_eq!(stored, expected);
}
