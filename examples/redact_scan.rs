//! Measures the redactor: `redact_scan time` times one 1.4 KB answer; `redact_scan scan DIR…`
//! runs it over every text file under the directories, one line at a time and one file at a
//! time, and prints each hit (file:line, before → after) with the totals, for reading false
//! positives by eye.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use nexus_mcp_runtime::redact;
use serde_json::json;
use std::path::Path;
use std::time::Instant;

fn answer() -> serde_json::Value {
    json!({
        "graph_id": "fc8eb02c-6a8e-4b7e-9f1f-0c2a7d1e9b11",
        "path": "shop/hashing.py",
        "language": "python",
        "symbols": [
            {"name": "digest", "kind": "function", "line": 4, "end_line": 6},
            {"name": "Order", "kind": "class", "line": 9, "end_line": 30},
            {"name": "Order.total", "kind": "method", "line": 14, "end_line": 18}
        ],
        "imports": ["hashlib", "shop.orders", "typing.Optional"],
        "findings": [
            {"source_tool": "bandit", "finding_type": "bandit_b324_hashlib", "line": 5, "severity": "high",
             "message": "Use of weak SHA1 hash for security. Consider usedforsecurity=False"},
            {"source_tool": "ruff", "finding_type": "ruff_f401", "line": 2, "severity": "low",
             "message": "`typing.Optional` imported but unused"}
        ],
        "snippet": {"start_line": 1, "end_line": 12, "text":
            "import hashlib\nfrom typing import Optional\n\ndef digest(data: bytes) -> str:\n    return hashlib.sha1(data).hexdigest()\n\n\nclass Order:\n    \"\"\"An order with its lines.\"\"\"\n    def __init__(self, lines):\n        self.lines = lines\n        self.key = digest(repr(lines).encode())\n"},
        "callers": [{"path": "shop/orders.py", "line": 22, "symbol": "Order.checkout"}, {"path": "shop/api.py", "line": 40, "symbol": "create_order"}],
        "freshness": {"commit_sha": "bb7f54fa0c1d2e3f4a5b6c7d8e9f00112233aabb", "generated_at": "2026-11-30T12:00:00Z"}
    })
}

fn time() {
    let v = answer();
    println!("answer: {} bytes", v.to_string().len());
    let rounds = 20_000;
    let mut best = f64::MAX;
    for _ in 0..5 {
        let started = Instant::now();
        for _ in 0..rounds {
            let mut c = v.clone();
            std::hint::black_box(redact::redact_value(&mut c));
        }
        let clone_started = Instant::now();
        for _ in 0..rounds {
            std::hint::black_box(v.clone());
        }
        let clone = clone_started.elapsed().as_secs_f64();
        let total = clone_started.duration_since(started).as_secs_f64();
        best = best.min((total - clone) / f64::from(rounds) * 1e6);
    }
    println!("redact_value: {best:.2} µs per answer (best of 5 × {rounds})");
}

fn scan(dirs: &[String]) {
    let (mut files, mut lines, mut hits) = (0usize, 0usize, 0usize);
    let mut stack: Vec<std::path::PathBuf> = dirs.iter().map(Into::into).collect();
    while let Some(p) = stack.pop() {
        if p.is_dir() {
            for e in std::fs::read_dir(&p).unwrap().flatten() {
                stack.push(e.path());
            }
            continue;
        }
        let ok = p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            matches!(
                e,
                "py" | "rs"
                    | "toml"
                    | "yaml"
                    | "yml"
                    | "json"
                    | "cfg"
                    | "ini"
                    | "txt"
                    | "md"
                    | "js"
                    | "ts"
                    | "sh"
            )
        });
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        if !ok {
            continue;
        }
        files += 1;
        for (n, line) in text.lines().enumerate() {
            lines += 1;
            let mut s = line.to_owned();
            if redact::redact_text(&mut s) {
                hits += 1;
                println!(
                    "{}:{}: {}\n    → {}",
                    show(&p),
                    n + 1,
                    line.trim(),
                    s.trim()
                );
            }
        }
        // Multi-line rules see the file as one string (PEM blocks, base64 runs).
        let mut whole = text.clone();
        redact::redact_text(&mut whole);
        let (a, b) = (text.lines().count(), whole.lines().count());
        if a != b {
            println!("{}: line count changed {a} → {b}", show(&p));
        }
        for (n, (x, y)) in text.lines().zip(whole.lines()).enumerate() {
            let mut alone = x.to_owned();
            redact::redact_text(&mut alone);
            if alone != y {
                hits += 1;
                println!(
                    "{}:{} (in file): {}\n    → {}",
                    show(&p),
                    n + 1,
                    x.trim(),
                    y.trim()
                );
            }
        }
    }
    println!("scanned {files} files, {lines} lines: {hits} lines redacted");
}

fn show(p: &Path) -> String {
    p.display().to_string()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("time") => time(),
        Some("scan") => scan(&args[1..]),
        _ => eprintln!("usage: redact_scan time | redact_scan scan DIR…"),
    }
}
