//! Benchmark: graph-build time, analyser time and peak memory for a ~100k-line Python tree,
//! then an incremental regeneration after a one-file change.
//!
//! `nexus-lite-bench [--lines N] [--repo PATH] [--keep]` prints one JSON report on stdout.
//! `nexus-lite-bench --generate-only DIR [--lines N]` only writes the synthetic tree to DIR
//! (used by `bench/compare.sh` to index the same tree with other tools).
//! Without --repo it generates a synthetic Python project (packages, classes, methods,
//! cross-module imports and calls, a few bandit/ruff issues) in a temporary git repository.

use nexus_lite::{AppState, LiteConfig, RepoSpec, RunOutcome};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

fn git(dir: &Path, args: &[&str]) -> Result<(), String> {
    let st = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=bench",
            "-c",
            "user.email=bench@example.com",
        ])
        .args(args)
        .status()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if st.success() {
        Ok(())
    } else {
        Err(format!("git {args:?} failed in {}", dir.display()))
    }
}

fn module_source(p: usize, i: usize, packages: usize, per_pkg: usize) -> String {
    let q = (p + 1) % packages;
    let j = (i + 7) % per_pkg;
    let k = (i + 1) % per_pkg;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\"\"\"Module {i} of package pkg{p} (generated for the nexus-lite benchmark).\"\"\""
    );
    let _ = writeln!(s, "import hashlib\nimport os\nimport subprocess\n");
    let _ = writeln!(s, "from pkg{q}.mod{j} import Class{j}_0, helper_{j}_0");
    let _ = writeln!(s, "from . import mod{k}\n\nCONSTANT_{i} = {i}\n");
    for c in 0..4 {
        let base = if c == 0 {
            format!("Class{j}_0")
        } else {
            format!("Class{i}_{}", c - 1)
        };
        let _ = writeln!(
            s,
            "\nclass Class{i}_{c}({base}):\n    \"\"\"A generated class.\"\"\"\n"
        );
        let _ = writeln!(
            s,
            "    def __init__(self, value):\n        self.value = value\n"
        );
        for m in 0..6 {
            let _ = writeln!(s, "    def method_{m}(self, x):");
            let _ = writeln!(
                s,
                "        total = 0\n        for item in range(x):\n            total += item * self.value"
            );
            if m > 0 {
                let _ = writeln!(
                    s,
                    "        if total > {m}:\n            return self.method_{}(x - 1)",
                    m - 1
                );
            } else {
                let _ = writeln!(
                    s,
                    "        if total > {m}:\n            return mod{k}.helper_{k}_1(total)"
                );
            }
            let _ = writeln!(s, "        return helper_{i}_{}(total)\n", m % 3);
        }
    }
    for h in 0..5 {
        let _ = writeln!(s, "\ndef helper_{i}_{h}(value):");
        match h {
            0 => {
                let _ = writeln!(
                    s,
                    "    digest = hashlib.md5(str(value).encode()).hexdigest()\n    return helper_{j}_0(len(digest))"
                );
            }
            1 => {
                let _ = writeln!(
                    s,
                    "    if value > 1000:\n        return subprocess.call(\"echo %d\" % value, shell=True)\n    return value + CONSTANT_{i}"
                );
            }
            _ => {
                let _ = writeln!(
                    s,
                    "    result = [value * n for n in range({h})]\n    assert result is not None\n    return sum(result)"
                );
            }
        }
    }
    s
}

fn generate(root: &Path, lines: usize) -> Result<usize, String> {
    let per_module = module_source(0, 0, 2, 2).lines().count();
    let modules = lines.div_ceil(per_module).max(2);
    let packages = (modules / 20).max(2);
    let per_pkg = modules.div_ceil(packages);
    let mut total = 0;
    for p in 0..packages {
        let dir = root.join(format!("pkg{p}"));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        std::fs::write(dir.join("__init__.py"), "").map_err(|e| e.to_string())?;
        for i in 0..per_pkg {
            let src = module_source(p, i, packages, per_pkg);
            total += src.lines().count();
            std::fs::write(dir.join(format!("mod{i}.py")), src).map_err(|e| e.to_string())?;
        }
    }
    Ok(total)
}

/// Peak resident set size (VmHWM) in MiB, from /proc/self/status.
fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Command-line arguments.
struct Args {
    lines: usize,
    repo: Option<PathBuf>,
    keep: bool,
    generate_only: Option<PathBuf>,
    parse_floor: Option<PathBuf>,
}

fn parse_args() -> Result<Args, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = Args {
        lines: 100_000,
        repo: None,
        keep: false,
        generate_only: None,
        parse_floor: None,
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--lines" => {
                out.lines = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or("--lines needs a number")?
            }
            "--repo" => out.repo = Some(PathBuf::from(it.next().ok_or("--repo needs a path")?)),
            "--keep" => out.keep = true,
            "--generate-only" => {
                out.generate_only = Some(PathBuf::from(
                    it.next().ok_or("--generate-only needs a directory")?,
                ))
            }
            "--parse-floor" => {
                out.parse_floor = Some(PathBuf::from(
                    it.next().ok_or("--parse-floor needs a git repository")?,
                ))
            }
            other => {
                return Err(format!(
                    "unknown argument {other}; usage: nexus-lite-bench [--lines N] [--repo PATH] [--keep] [--generate-only DIR] [--parse-floor REPO]"
                ));
            }
        }
    }
    Ok(out)
}

/// Writes the synthetic tree of about `lines` lines at `root` as a committed git repository;
/// the number of lines written.
fn generate_repo(root: &Path, lines: usize) -> Result<usize, String> {
    std::fs::create_dir_all(root).map_err(|e| e.to_string())?;
    let n = generate(root, lines)?;
    git(root, &["init", "-q", "-b", "main"])?;
    git(root, &["add", "-A"])?;
    git(root, &["commit", "-q", "-m", "generated"])?;
    Ok(n)
}

/// A Python module of the tree (not an `__init__.py`): the file the bench changes.
fn a_python_module(root: &Path) -> Result<PathBuf, String> {
    std::fs::read_dir(root)
        .map_err(|e| e.to_string())?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir() && !p.ends_with(".git"))
        .flat_map(|d| {
            std::fs::read_dir(d)
                .into_iter()
                .flatten()
                .filter_map(Result::ok)
                .map(|e| e.path())
        })
        .find(|p| p.extension().is_some_and(|e| e == "py") && !p.ends_with("__init__.py"))
        .ok_or_else(|| "no Python file to change".to_string())
}

/// One indexing run and its wall time in ms.
fn timed_index(state: &AppState) -> Result<(RunOutcome, f64), String> {
    let repo = state.repos.first().ok_or("no repository")?;
    let t = Instant::now();
    let outcome = state.index_now(repo, None).map_err(|e| e.to_string())?;
    Ok((outcome, t.elapsed().as_secs_f64() * 1000.0))
}

/// The bench's runs: a full index, an incremental one after a one-file commit, and another
/// after a restart (fresh in-memory caches, the SQLite ones only) and a second change.
struct Runs {
    full: (RunOutcome, f64),
    peak_full: Option<f64>,
    incremental: (RunOutcome, f64),
    restart: (RunOutcome, f64),
}

/// One thread over every tracked source file of `repo`, three passes alternating: the parser
/// alone (Ruff's for Python, tree-sitter's for the rest; the tree dropped), then the indexer's
/// parse (the same parse plus our walk). The difference is what our extraction costs; the
/// first is the floor no walker can go under. Per language, and in total.
fn parse_floor(repo: &Path) -> Result<Value, String> {
    use nexus_lite::code::lang::{Lang, Parsers, parse_only};
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["ls-files", "-z"])
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    let sources: Vec<(Lang, Vec<u8>)> = out
        .stdout
        .split(|b| *b == 0)
        .map(String::from_utf8_lossy)
        .filter_map(|p| {
            Some((
                Lang::from_path(&p)?,
                std::fs::read(repo.join(p.as_ref())).ok()?,
            ))
        })
        .collect();
    let mut ours = Parsers::default();
    let mut report = serde_json::Map::new();
    let mut total = (0usize, 0.0, 0.0);
    for lang in Lang::ALL {
        let files: Vec<&Vec<u8>> = sources
            .iter()
            .filter(|(l, _)| *l == lang)
            .map(|(_, s)| s)
            .collect();
        if files.is_empty() {
            continue;
        }
        let bytes: usize = files.iter().map(|s| s.len()).sum();
        let (mut parse_ms, mut walk_ms) = (Vec::new(), Vec::new());
        for _ in 0..3 {
            let t = Instant::now();
            for src in &files {
                parse_only(lang, src)?;
            }
            parse_ms.push(t.elapsed().as_secs_f64() * 1000.0);
            let t = Instant::now();
            for src in &files {
                drop(ours.parse(lang, src));
            }
            walk_ms.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        let (parse, full) = (median(&mut parse_ms), median(&mut walk_ms));
        total = (total.0 + bytes, total.1 + parse, total.2 + full);
        report.insert(
            lang.name().to_string(),
            json!({"files": files.len(), "bytes": bytes, "one_thread_ms": {"parse": parse, "parse_and_walk": full, "walk": full - parse}}),
        );
    }
    report.insert(
        "total".into(),
        json!({"bytes": total.0, "one_thread_ms": {"parse": total.1, "parse_and_walk": total.2, "walk": total.2 - total.1},
               "parse_mb_per_s": total.0 as f64 / 1e6 / (total.1 / 1000.0)}),
    );
    Ok(Value::Object(report))
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn run() -> Result<Value, String> {
    let args = parse_args()?;
    if let Some(repo) = args.parse_floor {
        return parse_floor(&repo);
    }
    if let Some(root) = args.generate_only {
        // Only write the synthetic tree (a committed git repository) for other tools to index.
        if root.exists() {
            return Err(format!("{} already exists", root.display()));
        }
        let n = generate_repo(&root, args.lines)?;
        return Ok(json!({"tree": root.display().to_string(), "generated_lines": n}));
    }
    let scratch = std::env::temp_dir().join(format!("nexus-lite-bench-{}", uuid::Uuid::new_v4()));
    let (root, generated) = match args.repo {
        Some(r) => (r, None),
        None => {
            let root = scratch.join("tree");
            let n = generate_repo(&root, args.lines)?;
            (root, Some(n))
        }
    };
    let runs = run_all(&scratch.join("data"), &root)?;
    let report = report(generated, &runs);
    if !args.keep {
        let _ = std::fs::remove_dir_all(&scratch);
    }
    Ok(report)
}

fn run_all(data_dir: &Path, root: &Path) -> Result<Runs, String> {
    // A new state on the bench data directory (each call is a restart: fresh in-memory caches).
    let open_state = || {
        AppState::new(&LiteConfig {
            keep_graphs: nexus_lite::DEFAULT_KEEP_GRAPHS,
            data_dir: data_dir.to_path_buf(),
            repos: vec![RepoSpec {
                name: Some("bench/tree".into()),
                path: root.to_path_buf(),
            }],
            token: String::new(),
            index_on_first_use: false,
            workspaces: Vec::new(),
            docs_limits: Default::default(),
        })
        .map_err(|e| e.to_string())
    };
    let state = open_state()?;
    let full = timed_index(&state)?;
    let peak_full = peak_rss_mib();
    let changed = a_python_module(root)?;
    let change_one = |n: u32| -> Result<(), String> {
        let mut text = std::fs::read_to_string(&changed).map_err(|e| e.to_string())?;
        text.push_str(&format!(
            "\n\ndef added_by_bench_{n}(x):\n    return x + {n}\n"
        ));
        std::fs::write(&changed, text).map_err(|e| e.to_string())?;
        git(root, &["commit", "-qam", "one-file change"])
    };
    change_one(1)?;
    let incremental = timed_index(&state)?;
    drop(state);
    let state = open_state()?;
    change_one(2)?;
    let restart = timed_index(&state)?;
    Ok(Runs {
        full,
        peak_full,
        incremental,
        restart,
    })
}

fn report(generated: Option<usize>, runs: &Runs) -> Value {
    let ms = |o: &RunOutcome, k: &str| o.stats[k].as_f64().unwrap_or(0.0);
    let graph_only =
        |o: &RunOutcome| ms(o, "listing_ms") + ms(o, "graph_build_ms") + ms(o, "write_ms");
    let (full, full_total) = (&runs.full.0, runs.full.1);
    let (inc, inc_total) = (&runs.incremental.0, runs.incremental.1);
    let (restart, restart_total) = (&runs.restart.0, runs.restart.1);
    json!({
        "tree": {
            "generated_lines": generated,
            "python_files": full.counts["files"],
            "classes": full.counts["classes"],
            "functions": full.counts["functions"],
            "findings": full.counts["findings"],
        },
        "full": {
            "graph_build_ms": ms(full, "graph_build_ms"),
            "graph_total_ms (listing + parse/link + SQLite write)": graph_only(full),
            "analysers_ms (ruff + bandit in parallel)": ms(full, "analysers_ms"),
            "wal_checkpoint_ms (after COMMIT, graph already served)": ms(full, "checkpoint_ms"),
            "wall_ms": full_total,
            "analysers": full.analysers.iter().map(|a| json!({"tool": a.tool, "status": a.status, "findings": a.findings, "seconds": a.seconds})).collect::<Vec<_>>(),
        },
        "incremental_one_file": {
            "files_parsed": inc.stats["files_parsed"],
            "files_reused": inc.stats["files_reused"],
            "graph_build_ms": ms(inc, "graph_build_ms"),
            "graph_total_ms (listing + parse/link + SQLite write)": graph_only(inc),
            "analysers_ms": ms(inc, "analysers_ms"),
            "wal_checkpoint_ms (after COMMIT, graph already served)": ms(inc, "checkpoint_ms"),
            "wall_ms": inc_total,
        },
        "after_restart_one_file": {
            "files_parsed": restart.stats["files_parsed"],
            "files_reused_from_db": restart.stats["files_reused_from_db"],
            "analyser_results_reused_from_db": restart.stats["analyser_results_reused_from_db"],
            "graph_build_ms": ms(restart, "graph_build_ms"),
            "graph_total_ms (listing + parse/link + SQLite write)": graph_only(restart),
            "analysers_ms": ms(restart, "analysers_ms"),
            "wall_ms": restart_total,
            "analysers": restart.analysers.iter().map(|a| json!({"tool": a.tool, "status": a.status, "reason": a.reason})).collect::<Vec<_>>(),
        },
        "peak_rss_mib": {"after_full": runs.peak_full, "after_incremental": peak_rss_mib()},
        "cpus": std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
    })
}

// The binaries' allocator, for tree-sitter's C allocations too, so the bench measures theirs.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // SAFETY: first thing in main, before any tree-sitter object exists.
    unsafe { nexus_lite::code::lang::parsers_use_mimalloc() };
    match run() {
        Ok(report) => {
            let text = serde_json::to_string_pretty(&report).unwrap_or_default();
            let _ = writeln!(std::io::stdout(), "{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "nexus-lite-bench: {e}");
            ExitCode::FAILURE
        }
    }
}
