//! nexus-doc-kg over stdio on a generated Backlog.md-style workspace (default 10,000 tasks with
//! realistic bodies and a layered dependency DAG), served by the real binary with the embedded
//! nexus-lite: what an agent waits for.
//!
//!   cargo bench --bench doc_kg                       # 10,000 tasks, 300 calls per tool
//!   NEXUS_DOC_BENCH_TASKS=700 NEXUS_DOC_BENCH_CALLS=1000 cargo bench --bench doc_kg
//!
//! Rows: spawn → first tools/call answered (start-up plus the cold index of every document);
//! then get_task_context and analyze_impact on task ids spread over the DAG's layers
//! (interleaved, one call each), p50 / p99 / max of the client-side round trip; then 50 rounds of
//! a one-file edit followed by get_task_context on the edited task (the incremental re-index
//! plus the call); the server's peak RSS last. The workspace is a committed git repository, as a
//! real task folder is.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../tests/support/mod.rs"]
mod support;

use support::generated_backlog::{Rng, generate};

use serde_json::{Value, json};
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn spawn(workspace: &Path, data: &Path) -> Server {
        let mut child = Command::new(support::bin())
            .args(["--surface", "nexus-doc-kg", "serve", "--workspace"])
            .arg(workspace)
            .arg("--data-dir")
            .arg(data)
            .env_remove("NEXUS_API_URL")
            .env_remove("DOCUGRAPH_WORKSPACE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn nexus-mcp --surface nexus-doc-kg serve");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Server {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, v: &Value) {
        self.stdin.write_all(format!("{v}\n").as_bytes()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn answer(&mut self, id: u64) -> Value {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "nexus-mcp closed stdout before answering {id}"
            );
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"].as_u64() == Some(id) {
                return v;
            }
        }
    }

    fn call(&mut self, id: u64, tool: &str, arguments: Value) -> Duration {
        let started = Instant::now();
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}));
        let answer = self.answer(id);
        let took = started.elapsed();
        let result = &answer["result"];
        assert!(
            result["isError"] != json!(true) && answer.get("error").is_none(),
            "{tool} failed: {answer}"
        );
        took
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

fn main() {
    let tasks = env_usize("NEXUS_DOC_BENCH_TASKS", 10_000);
    let calls = env_usize("NEXUS_DOC_BENCH_CALLS", 300);
    let dir = tempfile::tempdir().unwrap();
    let workspace = dir.path().join("backlog-ws");
    std::fs::create_dir_all(&workspace).unwrap();
    let started = Instant::now();
    generate(&workspace, tasks);
    eprintln!(
        "generated {tasks} tasks in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let data = tempfile::tempdir().unwrap();

    let started = Instant::now();
    let mut server = Server::spawn(&workspace, data.path());
    server.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "doc_kg_bench", "version": "0"}}}));
    server.answer(1);
    server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    server.call(2, "list_tasks", json!({"limit": 1}));
    let first = started.elapsed();

    let mut rng = Rng(42);
    let mut id = 10;
    let mut context = Vec::with_capacity(calls);
    let mut impact = Vec::with_capacity(calls);
    // Warm-up: the first calls pay for lazily built state.
    for _ in 0..20 {
        id += 1;
        server.call(
            id,
            "get_task_context",
            json!({"taskId": format!("TASK-{}", 1 + rng.below(tasks))}),
        );
    }
    for _ in 0..calls {
        let task = format!("TASK-{}", 1 + rng.below(tasks));
        id += 1;
        context.push(server.call(id, "get_task_context", json!({"taskId": task})));
        let task = format!("TASK-{}", 1 + rng.below(tasks));
        id += 1;
        impact.push(server.call(id, "analyze_impact", json!({"taskId": task})));
    }
    // A one-file edit, then the next call: that call re-stats the workspace, re-parses the edited
    // file and answers (compare with the warm get_task_context row).
    let mut edited = Vec::with_capacity(50);
    let files: Vec<std::path::PathBuf> = std::fs::read_dir(workspace.join("backlog/tasks"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    for round in 0..50 {
        let file = &files[rng.below(files.len())];
        let text = std::fs::read_to_string(file).unwrap();
        std::fs::write(file, format!("{text}\nEdited in round {round}.\n")).unwrap();
        let task = text
            .lines()
            .find_map(|l| l.strip_prefix("id: "))
            .unwrap()
            .to_string();
        id += 1;
        edited.push(server.call(id, "get_task_context", json!({"taskId": task})));
    }
    let peak_rss_mb = peak_rss_mb(server.child.id());
    context.sort();
    impact.sort();
    edited.sort();
    println!("nexus-doc-kg over stdio, {tasks} tasks, {calls} calls per tool (ms)");
    println!("| row | p50 | p99 | max |");
    println!("|---|---|---|---|");
    println!(
        "| spawn → first tools/call (cold index) | {} | | |",
        ms(first)
    );
    for (name, samples) in [
        ("get_task_context", &context),
        ("analyze_impact", &impact),
        ("get_task_context after a one-file edit (50 edits)", &edited),
    ] {
        println!(
            "| {name} | {} | {} | {} |",
            ms(percentile(samples, 50.0)),
            ms(percentile(samples, 99.0)),
            ms(*samples.last().unwrap())
        );
    }
    println!(
        "| server peak RSS (VmHWM) | {} MB | | |",
        peak_rss_mb.map_or("unknown".to_string(), |m| format!("{m:.1}"))
    );
}

/// The server's peak resident set (`VmHWM` in /proc), in MB; `None` where /proc does not say.
fn peak_rss_mb(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}
