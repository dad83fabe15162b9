//! The server's memory after one call: no transparent huge pages. mimalloc asked for them on
//! its arenas (madvise), and one 2 MiB huge page for a few touched KiB made the baseline RSS
//! jump; the allocator is built with `no_thp`. Linux only (it reads /proc).
#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "support/conformance_backend.rs"]
mod conformance_backend;
mod support;

use axum::Json;
use axum::extract::Path;
use axum::routing::get;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// A `kB` field of a /proc file of `pid`.
fn kib(pid: u32, file: &str, field: &str) -> u64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/{file}")).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/{file}:\n{text}"))
}

#[test]
fn the_server_uses_no_huge_pages_after_one_call() {
    let backend = conformance_backend::start_router(axum::Router::new().route(
        "/notes/{id}",
        get(|Path(id): Path<String>| async move {
            Json(json!({"id": id, "title": "Welcome", "body": "# Welcome"}))
        }),
    ));
    let mut child = Command::new(support::bin())
        .arg("--manifest")
        .arg(support::root().join("tests/manifests/demo.yaml"))
        .args(["--nexus-url", &backend, "serve"])
        .env("NEXUS_API_TOKEN", "memory-test")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut send = |message: Value| writeln!(stdin, "{message}").unwrap();
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "memory", "version": "0"}}}),
    );
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "get_note", "arguments": {"noteId": "welcome"}}}));
    let mut line = String::new();
    loop {
        line.clear();
        assert_ne!(stdout.read_line(&mut line).unwrap(), 0, "the server exited");
        let message: Value = serde_json::from_str(&line).unwrap();
        if message["id"] == 2 {
            assert_eq!(
                message["result"]["structuredContent"]["title"], "Welcome",
                "{message}"
            );
            break;
        }
    }
    let pid = child.id();
    let rss = kib(pid, "status", "VmRSS:");
    let huge = kib(pid, "smaps_rollup", "AnonHugePages:");
    let _ = child.kill();
    let _ = child.wait();
    eprintln!("after one call: VmRSS {rss} kB, AnonHugePages {huge} kB");
    assert_eq!(huge, 0, "{huge} kB of huge pages (RSS {rss} kB)");
}
