//! nexus-doc-kg over stdio on a generated Backlog.md-style workspace (default 10,000 tasks with
//! realistic bodies and a layered dependency DAG), served by the real binary with the embedded
//! nexus-lite: what an agent waits for.
//!
//!   cargo bench --bench doc_kg                       # 10,000 tasks, 300 calls per tool
//!   NEXUS_DOC_BENCH_TASKS=700 NEXUS_DOC_BENCH_CALLS=1000 cargo bench --bench doc_kg
//!   NEXUS_MCP_BENCH_BEFORE_BIN=/old/nexus-mcp cargo bench --bench doc_kg   # beside an older build
//!
//! With NEXUS_MCP_BENCH_BEFORE_BIN the older binary serves the same workspace (its own data
//! dir) and gets the same calls, in alternating batches of 10 with this build's, so that both
//! columns see the same machine load; the table then shows both and their ratio.
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
    fn spawn(bin: &Path, workspace: &Path, data: &Path) -> Server {
        let mut child = Command::new(bin)
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

    /// The round trip of one call, and the characters of the answer's text an agent reads.
    fn call(&mut self, id: u64, tool: &str, arguments: Value) -> (Duration, usize) {
        let started = Instant::now();
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}));
        let answer = self.answer(id);
        let took = started.elapsed();
        let result = &answer["result"];
        assert!(
            result["isError"] != json!(true) && answer.get("error").is_none(),
            "{tool} failed: {answer}"
        );
        let chars = result["content"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["text"].as_str())
            .map(|t| t.chars().count())
            .sum();
        (took, chars)
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

/// One binary's server and its samples.
struct Build {
    server: Server,
    first: Duration,
    context: Vec<Duration>,
    context_chars: Vec<usize>,
    impact: Vec<Duration>,
    edited: Vec<Duration>,
    data: tempfile::TempDir,
}

impl Build {
    fn start(bin: &Path, workspace: &Path) -> Build {
        let data = tempfile::tempdir().unwrap();
        let started = Instant::now();
        let mut server = Server::spawn(bin, workspace, data.path());
        server.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "doc_kg_bench", "version": "0"}}}));
        server.answer(1);
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server.call(2, "list_tasks", json!({"limit": 1}));
        Build {
            server,
            first: started.elapsed(),
            context: Vec::new(),
            context_chars: Vec::new(),
            impact: Vec::new(),
            edited: Vec::new(),
            data,
        }
    }
}

/// Calls per batch before the other build's turn.
const BATCH: usize = 10;

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
    let before_bin = std::env::var_os("NEXUS_MCP_BENCH_BEFORE_BIN").map(std::path::PathBuf::from);
    let mut builds = vec![Build::start(&support::bin(), &workspace)];
    if let Some(bin) = &before_bin {
        builds.push(Build::start(bin, &workspace));
    }

    let mut rng = Rng(42);
    let mut id = 10;
    // Warm-up: the first calls pay for lazily built state.
    for _ in 0..20 {
        let task = json!({"taskId": format!("TASK-{}", 1 + rng.below(tasks))});
        id += 1;
        for b in &mut builds {
            b.server.call(id, "get_task_context", task.clone());
        }
    }
    let plan: Vec<(String, String)> = (0..calls)
        .map(|_| {
            (
                format!("TASK-{}", 1 + rng.below(tasks)),
                format!("TASK-{}", 1 + rng.below(tasks)),
            )
        })
        .collect();
    for batch in plan.chunks(BATCH) {
        for b in &mut builds {
            for (context, impact) in batch {
                id += 1;
                let (took, chars) =
                    b.server
                        .call(id, "get_task_context", json!({"taskId": context}));
                b.context.push(took);
                b.context_chars.push(chars);
                id += 1;
                let (took, _) = b
                    .server
                    .call(id, "analyze_impact", json!({"taskId": impact}));
                b.impact.push(took);
            }
        }
    }
    // A one-file edit, then the next call: that call re-stats the workspace, re-parses the edited
    // file and answers (compare with the warm get_task_context row). Each build sees each edit.
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
        for b in &mut builds {
            id += 1;
            let (took, _) = b
                .server
                .call(id, "get_task_context", json!({"taskId": task}));
            b.edited.push(took);
        }
    }
    // The MCP server and the local nexus-lite daemon it joined (which holds the index): both
    // peaks, then the daemon stopped so it does not linger for its idle timeout.
    let rss: Vec<(Option<f64>, Option<f64>)> = builds
        .iter()
        .map(|b| {
            let daemon = support::local::daemon_pid(b.data.path())
                .and_then(|pid| u32::try_from(pid).ok())
                .and_then(peak_rss_mb);
            support::local::stop_daemon(b.data.path());
            (peak_rss_mb(b.server.child.id()), daemon)
        })
        .collect();
    for b in &mut builds {
        b.context.sort();
        b.impact.sort();
        b.edited.sort();
        b.context_chars.sort();
    }
    println!("nexus-doc-kg over stdio, {tasks} tasks, {calls} calls per tool (ms)");
    let before = builds.get(1);
    if before.is_some() {
        println!(
            "this build | the build before ({}), alternating batches of {BATCH} | ratio",
            before_bin.as_deref().unwrap_or(Path::new("?")).display()
        );
    }
    println!("| row | p50 | p99 | max |");
    println!("|---|---|---|---|");
    let now = &builds[0];
    let cell = |now: Duration, old: Option<Duration>| match old {
        None => ms(now),
        Some(old) => format!(
            "{} / {} ({:.2}x)",
            ms(now),
            ms(old),
            now.as_secs_f64() / old.as_secs_f64().max(1e-9)
        ),
    };
    println!(
        "| spawn → first tools/call (cold index) | {} | | |",
        cell(now.first, before.map(|b| b.first))
    );
    type Pick = fn(&Build) -> &Vec<Duration>;
    let rows: [(&str, Pick); 3] = [
        ("get_task_context", |b| &b.context),
        ("analyze_impact", |b| &b.impact),
        ("get_task_context after a one-file edit (50 edits)", |b| {
            &b.edited
        }),
    ];
    for (name, pick) in rows {
        let (samples, old) = (pick(now), before.map(pick));
        println!(
            "| {name} | {} | {} | {} |",
            cell(percentile(samples, 50.0), old.map(|o| percentile(o, 50.0))),
            cell(percentile(samples, 99.0), old.map(|o| percentile(o, 99.0))),
            cell(*samples.last().unwrap(), old.map(|o| *o.last().unwrap()))
        );
    }
    let chars = |b: &Build| {
        format!(
            "{} / {}",
            percentile_of(&b.context_chars, 50.0),
            b.context_chars.last().copied().unwrap_or(0)
        )
    };
    println!(
        "| get_task_context answer characters (p50 / max) | {}{} | | |",
        chars(now),
        before
            .map(|b| format!(" vs {}", chars(b)))
            .unwrap_or_default()
    );
    let mb = |m: Option<f64>| m.map_or("unknown".to_string(), |m| format!("{m:.1}"));
    let both = |(server, daemon): (Option<f64>, Option<f64>)| {
        format!("{} + daemon {} MB", mb(server), mb(daemon))
    };
    println!(
        "| peak RSS (VmHWM): nexus-mcp + its nexus-lite daemon | {}{} | | |",
        both(rss[0]),
        rss.get(1)
            .map(|r| format!(" vs {}", both(*r)))
            .unwrap_or_default()
    );
}

fn percentile_of(sorted: &[usize], p: f64) -> usize {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted
        .get(rank.clamp(1, sorted.len().max(1)) - 1)
        .copied()
        .unwrap_or(0)
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
