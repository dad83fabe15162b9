//! One indexing run, in the phases a regeneration reports: listing, parsing, analysing,
//! writing. The graph row is recorded `running` first and marked `failed` if any phase fails.

use super::{ANALYSERS, AnalyserKey, AppState, Regen, Repo, RunOutcome, WorkTree};
use crate::code::findings::{self, AnalyserRun, AnalyserStatus, FileResults, RawFinding};
use crate::code::graph_cache::{self, PendingGraph};
use crate::code::index::{self, GraphData};
use crate::code::{cache, store};
use crate::core::error::LiteError;
use crate::core::git;
use crate::core::util::{now_epoch, rfc3339};
use rusqlite::Connection;
use serde_json::json;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The run being made, and where it reports its progress.
struct Run<'a> {
    state: &'a AppState,
    repo: &'a Repo,
    regen_id: Option<&'a str>,
    /// A query asks about the graph next (a regeneration, a first use): the run returns it to
    /// build in memory from its rows, and a query for it waits for that.
    queried: bool,
}

impl Run<'_> {
    fn report(&self, f: impl FnOnce(&mut Regen)) {
        if let Some(id) = self.regen_id {
            self.state.set_regen(id, f);
        }
    }

    fn phase(&self, p: &'static str) {
        self.report(|r| r.phase = p);
    }

    fn fail(&self, reason: String) -> LiteError {
        LiteError::Index {
            repository: self.repo.name.clone(),
            reason,
        }
    }
}

/// The graph row a run fills.
struct Started {
    graph_id: String,
    branch: String,
    head: String,
}

pub(super) fn run_index(
    state: &AppState,
    repo: &Repo,
    regen_id: Option<&str>,
    tree: Option<WorkTree>,
    queried: bool,
) -> Result<(RunOutcome, Option<PendingGraph>), LiteError> {
    let run = Run {
        state,
        repo,
        regen_id,
        queried,
    };
    let mut conn = state.core.writer()?;
    // Large write transactions: a bigger page cache, and no automatic checkpoint inside COMMIT
    // (`AppState::checkpoint`, once the run is reported).
    conn.execute_batch("PRAGMA cache_size=-65536; PRAGMA wal_autocheckpoint=0;")
        .map_err(LiteError::db("tuning the writer connection"))?;
    let started = start_graph(&run, &conn, tree)?;
    let result = build_graph(&run, &mut conn, &started);
    match &result {
        Ok((o, _)) => tracing::info!(
            repository = %repo.name,
            graph_id = %o.graph_id,
            graph_build_ms = %o.stats["graph_build_ms"],
            read_ms = %o.stats["read_ms"],
            parse_ms = %o.stats["parse_ms"],
            link_ms = %o.stats["link_ms"],
            write_ms = %o.stats["write_ms"],
            caches_ms = %o.stats["caches_ms"],
            "graph ready"
        ),
        Err(e) => {
            tracing::error!(repository = %repo.name, error = %e, "indexing failed");
            let _ = store::mark_failed(&conn, &started.graph_id, &e.to_string());
        }
    }
    result
}

/// Records the new graph as `running` at the work tree's HEAD: `tree` when a submit has just
/// read it, else as git gives it now.
fn start_graph(
    run: &Run<'_>,
    conn: &Connection,
    tree: Option<WorkTree>,
) -> Result<Started, LiteError> {
    let tree = match tree {
        Some(t) => t,
        None => {
            let root = &run.repo.root;
            let head = git::head_sha(root)?.ok_or_else(|| {
                run.fail("the repository has no commit yet; commit something first".into())
            })?;
            WorkTree {
                head,
                branch: git::current_branch(root)?,
                dirty: git::dirty_files(root)?,
            }
        }
    };
    let WorkTree {
        head,
        branch,
        dirty,
    } = tree;
    let branch = branch.unwrap_or_else(|| "HEAD".into());
    let graph_id = uuid::Uuid::new_v4().to_string();
    store::insert_running(
        conn,
        &store::NewGraph {
            graph_id: &graph_id,
            repository: &run.repo.name,
            branch: &branch,
            commit_sha: &head,
            dirty_files: &dirty,
            generated_at: &rfc3339(now_epoch()),
        },
    )?;
    run.report(|r| r.graph_id = Some(graph_id.clone()));
    Ok(Started {
        graph_id,
        branch,
        head,
    })
}

/// Milliseconds since `t`.
fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

/// How long the phases before writing took, and what they saw.
struct Measured {
    listing_ms: f64,
    graph_ms: f64,
    analysers_ms: f64,
    files_listed: usize,
}

fn build_graph(
    run: &Run<'_>,
    conn: &mut Connection,
    started: &Started,
) -> Result<(RunOutcome, Option<PendingGraph>), LiteError> {
    run.phase("listing");
    let t0 = Instant::now();
    let files = git::ls_files(&run.repo.root)?;
    let listing_ms = ms_since(t0);
    run.phase("parsing");
    let t1 = Instant::now();
    let mut data = parse(run, conn, &files)?;
    let graph_ms = ms_since(t1);
    run.phase("analysing");
    let t2 = Instant::now();
    let mut analysed = analyse(run, conn, &data);
    data.anomalies.append(&mut analysed.unscanned);
    let measured = Measured {
        listing_ms,
        graph_ms,
        analysers_ms: ms_since(t2),
        files_listed: files.len(),
    };
    run.phase("writing");
    write(run, conn, started, &data, analysed, &measured)
}

/// Parsing: the graph of `files`, reusing parses from memory and from the database.
fn parse(run: &Run<'_>, conn: &Connection, files: &[String]) -> Result<GraphData, LiteError> {
    let progress = |done: usize, total: usize| {
        run.report(|r| {
            r.done = done;
            r.total = total;
        });
    };
    if !run.repo.cache.reads_loaded() {
        let rows = cache::load_reads(conn, &run.repo.name).unwrap_or_else(|e| {
            tracing::warn!(error = %e, "cannot read the stored file reads; reading every file");
            Vec::new()
        });
        run.repo.cache.load_reads(rows);
    }
    let load = |keys: &[String]| match cache::load_parses(conn, keys) {
        Ok(found) => found,
        Err(e) => {
            tracing::warn!(error = %e, "cannot read the stored parse cache; parsing instead");
            HashMap::new()
        }
    };
    index::build(
        &run.repo.name,
        &run.repo.root,
        files,
        &run.repo.cache,
        &load,
        &progress,
    )
    .map_err(|reason| run.fail(reason))
}

/// The analyser cache keys of one run: they cover the repository's analyser configuration.
struct AnalyserKeys {
    ruff: String,
    bandit: String,
}

impl AnalyserKeys {
    fn new(root: &Path) -> AnalyserKeys {
        let config_fp = config_fingerprint(root);
        AnalyserKeys {
            ruff: cache::analyser_fingerprint("ruff", &config_fp),
            bandit: cache::analyser_fingerprint("bandit", &config_fp),
        }
    }

    fn fingerprint(&self, tool: &str) -> &str {
        if tool == "ruff" {
            self.ruff.as_str()
        } else {
            self.bandit.as_str()
        }
    }

    fn key(&self, tool: &str, path: &str, hash: &str) -> AnalyserKey {
        (
            tool.into(),
            path.into(),
            hash.into(),
            self.fingerprint(tool).into(),
        )
    }
}

/// What the analysing phase found, and what it leaves for the graph's transaction.
struct Analysed {
    /// (path, content hash) of every Python file of the graph.
    py: Vec<(String, String)>,
    /// ruff, bandit, then one per imported report.
    statuses: Vec<AnalyserStatus>,
    /// ruff's, bandit's, then the imported ones.
    findings: Vec<RawFinding>,
    /// Per-file results read from the database instead of running the analyser.
    loaded: usize,
    /// Tools whose stored results must be forgotten (failed or missing in this run).
    forget: Vec<&'static str>,
    /// Results to store with the graph.
    to_store: Vec<StoredResult>,
    /// A `skipped_file` anomaly per file an analyser could not scan (its findings unknown).
    unscanned: Vec<index::AnomalyRow>,
}

/// Analysing: ruff and bandit on the Python files whose results are not cached, then the
/// imported reports (SARIF, audit_ai) of the repository.
fn analyse(run: &Run<'_>, conn: &Connection, data: &GraphData) -> Analysed {
    let py: Vec<(String, String)> = data
        .files
        .iter()
        .filter(|f| f.language == "python")
        .map(|f| (f.path.clone(), f.content_hash.clone()))
        .collect();
    let root = run.repo.root.as_path();
    let keys = AnalyserKeys::new(root);
    let (todo_ruff, todo_bandit, loaded) = uncached(run.repo, conn, &py, &keys);
    let (ruff, bandit) = run_analysers(root, &todo_ruff, &todo_bandit);
    let mut analysed = Analysed {
        py,
        statuses: Vec::new(),
        findings: Vec::new(),
        loaded,
        forget: Vec::new(),
        to_store: Vec::new(),
        unscanned: Vec::new(),
    };
    merge_fresh(
        run.repo,
        &keys,
        [("ruff", ruff, &todo_ruff), ("bandit", bandit, &todo_bandit)],
        &mut analysed,
    );
    let (imported, import_st) = match imports_dir(run.state, &run.repo.name) {
        Some(dir) => findings::import_dir(root, &dir),
        None => (Vec::new(), Vec::new()),
    };
    analysed.statuses.extend(import_st);
    analysed.findings.extend(imported);
    analysed
}

/// The Python files ruff and bandit still have to analyse, after loading what the database
/// holds for the others into the in-memory cache; and how many results were loaded.
fn uncached(
    repo: &Repo,
    conn: &Connection,
    py: &[(String, String)],
    keys: &AnalyserKeys,
) -> (Vec<String>, Vec<String>, usize) {
    let mut loaded = 0usize;
    let Ok(mut c) = repo.analyser_cache.lock() else {
        let all: Vec<String> = py.iter().map(|(p, _)| p.clone()).collect();
        return (all.clone(), all, loaded);
    };
    // The persistent level: results of another process (or before a restart).
    for tool in ANALYSERS {
        if c.forgotten.contains(tool) {
            continue;
        }
        let missing: Vec<(String, String)> = py
            .iter()
            .filter(|(p, h)| !c.files.contains_key(&keys.key(tool, p, h)))
            .cloned()
            .collect();
        match cache::load_findings(conn, tool, keys.fingerprint(tool), &missing) {
            Ok((found, version)) => {
                loaded += found.len();
                for ((p, h), v) in found {
                    c.files.insert(keys.key(tool, &p, &h), v);
                }
                if version.is_some() {
                    c.versions.entry(tool.to_string()).or_insert(version);
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, tool, "cannot read the stored analyser cache")
            }
        }
    }
    let todo = |tool: &str| -> Vec<String> {
        py.iter()
            .filter(|(p, h)| !c.files.contains_key(&keys.key(tool, p, h)))
            .map(|(p, _)| p.clone())
            .collect()
    };
    (todo("ruff"), todo("bandit"), loaded)
}

/// An analyser result to store: (key, the file's results, tool version).
type StoredResult = (AnalyserKey, FileResults, Option<String>);

/// Runs ruff (on its own thread) and bandit at the same time.
fn run_analysers(
    root: &Path,
    todo_ruff: &[String],
    todo_bandit: &[String],
) -> (AnalyserRun, AnalyserRun) {
    std::thread::scope(|s| {
        let r = s.spawn(|| cached_run("ruff", todo_ruff, || findings::run_ruff(root, todo_ruff)));
        let b = cached_run("bandit", todo_bandit, || {
            findings::run_bandit(root, todo_bandit)
        });
        let r = r.join().unwrap_or_else(|_| {
            AnalyserRun::only(AnalyserStatus {
                tool: "ruff".into(),
                status: "failed",
                version: None,
                reason: Some("the ruff runner thread panicked".into()),
                findings: 0,
                seconds: 0.0,
            })
        });
        (r, b)
    })
}

/// Folds the fresh results into the in-memory cache and takes every Python file's results
/// (fresh or cached) into `out`. A tool that failed has its cached results dropped: stale
/// results never mix with a failed or missing analyser.
fn merge_fresh(
    repo: &Repo,
    keys: &AnalyserKeys,
    runs: [(&'static str, AnalyserRun, &Vec<String>); 2],
    out: &mut Analysed,
) {
    let Ok(mut c) = repo.analyser_cache.lock() else {
        out.statuses
            .extend(runs.into_iter().map(|(_, run, _)| run.status));
        return;
    };
    let py = &out.py;
    let hash_of: HashMap<&str, &str> = py.iter().map(|(p, h)| (p.as_str(), h.as_str())).collect();
    let live: HashSet<(String, String)> = py.iter().cloned().collect();
    for (tool, run, todo) in runs {
        let AnalyserRun {
            findings: fresh,
            status: mut st,
            unscanned,
        } = run;
        if st.status != "ok" {
            c.files.retain(|k, _| k.0 != tool);
            c.unpersisted.retain(|k| k.0 != tool);
            // Forgotten with the previous graph already: nothing of it is stored.
            if c.forgotten.insert(tool) {
                out.forget.push(tool);
            }
            out.statuses.push(st);
            continue;
        }
        c.forgotten.remove(tool);
        if st.version.is_some() {
            c.versions.insert(tool.to_string(), st.version.clone());
        } else if let Some(v) = c.versions.get(tool) {
            st.version = v.clone();
        }
        let mut by_path: HashMap<String, Vec<RawFinding>> = HashMap::new();
        for f in fresh {
            by_path.entry(f.path.clone()).or_default().push(f);
        }
        let mut why: HashMap<String, String> = unscanned.into_iter().collect();
        for p in todo {
            let h = hash_of.get(p.as_str()).copied().unwrap_or("");
            let key = keys.key(tool, p, h);
            let results = FileResults {
                findings: by_path.remove(p).unwrap_or_default(),
                unscanned: why.remove(p),
            };
            c.files.insert(key.clone(), results);
            c.unpersisted.insert(key);
        }
        let mut found = Vec::new();
        let mut not_scanned = Vec::new();
        for (p, h) in py {
            if let Some(v) = c.files.get(&keys.key(tool, p, h)) {
                found.extend(v.findings.iter().cloned());
                if let Some(reason) = &v.unscanned {
                    not_scanned.push(p.as_str());
                    out.unscanned
                        .push(findings::unscanned_anomaly(tool, p, reason));
                }
            }
        }
        let fp = keys.fingerprint(tool);
        let keep = |k: &AnalyserKey| {
            k.0 != tool || (live.contains(&(k.1.clone(), k.2.clone())) && k.3 == fp)
        };
        c.files.retain(|k, _| keep(k));
        c.unpersisted.retain(|k| keep(k));
        st.findings = found.len();
        if let Some(reason) =
            findings::status_reason(tool, &not_scanned, todo.len(), py.len() - todo.len())
        {
            st.reason = Some(reason);
        }
        out.findings.extend(found);
        out.statuses.push(st);
    }
    let c = &*c;
    out.to_store = c
        .unpersisted
        .iter()
        .filter_map(|k| {
            let findings = c.files.get(k)?.clone();
            let version = c.versions.get(&k.0).cloned().flatten();
            Some((k.clone(), findings, version))
        })
        .collect();
}

/// Writing: findings ranked, the graph, its caches and the regeneration's result in one
/// transaction; then the in-memory caches learn what is stored and the WAL is checkpointed.
fn write(
    run: &Run<'_>,
    conn: &mut Connection,
    started: &Started,
    data: &GraphData,
    analysed: Analysed,
    measured: &Measured,
) -> Result<(RunOutcome, Option<PendingGraph>), LiteError> {
    let t3 = Instant::now();
    let Analysed {
        py,
        statuses: tool_statuses,
        findings: tool_findings,
        loaded,
        forget,
        to_store,
        unscanned: _,
    } = analysed;
    let kg = findings::from_anomalies(&data.anomalies);
    let mut statuses = vec![AnalyserStatus {
        tool: "nexus_kg".into(),
        status: "ok",
        version: Some(crate::core::config::GENERATOR.into()),
        reason: None,
        findings: kg.len(),
        seconds: measured.graph_ms / 1000.0,
    }];
    statuses.extend(tool_statuses);
    let mut raw = kg;
    raw.extend(tool_findings);
    let t_final = Instant::now();
    let all = findings::finalize(raw, data, &run.repo.root);
    let mut stats = json!({
        "findings_ms": ms_since(t_final),
        "listing_ms": measured.listing_ms,
        "graph_build_ms": measured.graph_ms,
        "analysers_ms": measured.analysers_ms,
        "files_listed": measured.files_listed,
        "files_parsed": data.parsed_files,
        "files_reused": data.reused_files,
        "files_reused_from_db": data.loaded_files,
        "files_unread": data.unread_files,
        "analyser_results_reused_from_db": loaded,
        "nodes": data.nodes().count(),
        "edges": data.edges().count(),
        "parts_linked": data.linked_parts,
    });
    for (phase, ms) in &data.phase_ms {
        stats[*phase] = json!(ms);
    }
    let warnings = analyser_warnings(&statuses);
    // Reads the database lacks, and paths no longer tracked whose read it still holds.
    let (reads, untracked) = run.repo.cache.unstored_reads();
    let pruned = std::cell::Cell::new((0usize, 0usize));
    let caches_ms = std::cell::Cell::new(0.0);
    let building = std::cell::RefCell::new(None);
    let counts = store::write_graph(
        conn,
        &started.graph_id,
        data,
        &all,
        &statuses,
        &stats,
        |tx, gpk| {
            if let Some(id) = run.regen_id {
                tx.execute(
                    "UPDATE regenerations SET status='ready', phase='done', graph_id=?2, warnings=?3 WHERE regeneration_id=?1",
                    rusqlite::params![id, started.graph_id, serde_json::to_string(&warnings).unwrap_or_else(|_| "[]".into())],
                )
                .map_err(LiteError::db("recording the regeneration result"))?;
            }
            // The caches are written and pruned with the graph: committed together or not
            // at all.
            let t = Instant::now();
            pruned.set(store_caches(tx, data, &py, &forget, &to_store)?);
            cache::store_reads(tx, &run.repo.name, &reads, &untracked)?;
            caches_ms.set(ms_since(t));
            if run.queried {
                *building.borrow_mut() = Some(run.state.graph_cache.expect(gpk));
            }
            Ok(())
        },
        || pause_before_commit(&started.graph_id),
    )?;
    let pending = building
        .into_inner()
        .map(|b| b.with_rows(graph_cache::GraphRows::of(data)));
    let parse_keys: Vec<String> = data.new_parses.iter().map(|(k, _, _)| k.clone()).collect();
    run.repo.cache.mark_persisted(&parse_keys);
    let stored: Vec<String> = reads
        .iter()
        .map(|r| r.path.clone())
        .chain(untracked)
        .collect();
    run.repo.cache.reads_stored(&stored);
    if let Ok(mut c) = run.repo.analyser_cache.lock() {
        for (k, _, _) in &to_store {
            c.unpersisted.remove(k);
        }
    }
    let (pruned_parses, pruned_results) = pruned.get();
    stats["parses_stored"] = json!(parse_keys.len());
    stats["analyser_results_stored"] = json!(to_store.len());
    stats["file_reads_stored"] = json!(stored.len());
    stats["cache_rows_pruned"] = json!(pruned_parses + pruned_results);
    stats["caches_ms"] = json!(caches_ms.get());
    stats["write_ms"] = json!(ms_since(t3));
    let outcome = RunOutcome {
        graph_id: started.graph_id.clone(),
        repository: run.repo.name.clone(),
        branch: started.branch.clone(),
        commit_sha: started.head.clone(),
        counts,
        stats,
        analysers: statuses,
    };
    Ok((outcome, pending))
}

/// Stores the run's new parses and analyser results, forgets the results of failed tools,
/// and prunes both caches: (parse rows, result rows) pruned.
fn store_caches(
    tx: &rusqlite::Transaction<'_>,
    data: &GraphData,
    py: &[(String, String)],
    forget: &[&'static str],
    to_store: &[StoredResult],
) -> Result<(usize, usize), LiteError> {
    cache::store_parses(tx, &data.new_parses)?;
    let entries: Vec<cache::FindingsEntry<'_>> = to_store
        .iter()
        .map(|(k, f, v)| cache::FindingsEntry {
            tool: &k.0,
            path: &k.1,
            content_hash: &k.2,
            fingerprint: &k.3,
            version: v.as_deref(),
            results: f,
        })
        .collect();
    cache::store_findings(tx, &entries)?;
    let py_paths: Vec<&str> = py.iter().map(|(p, _)| p.as_str()).collect();
    for tool in forget {
        cache::forget_findings(tx, tool, &py_paths)?;
    }
    cache::prune(tx)
}

/// One `tool status: reason` line per analyser that did not run cleanly.
pub(super) fn analyser_warnings(statuses: &[AnalyserStatus]) -> Vec<String> {
    statuses
        .iter()
        .filter(|a| a.status != "ok")
        .map(|a| {
            format!(
                "{} {}: {}",
                a.tool,
                a.status,
                a.reason.clone().unwrap_or_default()
            )
        })
        .collect()
}

/// Hash of the analyser configuration files at the repository root: a change invalidates the
/// per-file analyser cache.
fn config_fingerprint(root: &Path) -> String {
    let mut all = Vec::new();
    for name in [
        "pyproject.toml",
        "ruff.toml",
        ".ruff.toml",
        "setup.cfg",
        "tox.ini",
        ".bandit",
    ] {
        all.extend_from_slice(name.as_bytes());
        if let Ok(b) = std::fs::read(root.join(name)) {
            all.extend_from_slice(&b);
        }
        all.push(0);
    }
    crate::core::util::sha256_hex(&all)
}

/// Runs an analyser only when there is something to analyse.
fn cached_run(tool: &str, todo: &[String], run: impl FnOnce() -> AnalyserRun) -> AnalyserRun {
    if todo.is_empty() {
        return AnalyserRun::only(AnalyserStatus {
            tool: tool.into(),
            status: "ok",
            version: None,
            reason: None,
            findings: 0,
            seconds: 0.0,
        });
    }
    run()
}

fn imports_dir(state: &AppState, repository: &str) -> Option<PathBuf> {
    if repository
        .split('/')
        .any(|p| p.is_empty() || p == "." || p == "..")
    {
        return None;
    }
    Some(state.core.data_dir.join("imports").join(repository))
}

#[cfg(feature = "test-hooks")]
fn pause_before_commit(graph_id: &str) {
    if let Ok(path) = std::env::var(super::PAUSE_ENV)
        && !path.is_empty()
    {
        tracing::warn!(%path, "test hook: pausing before COMMIT until the process is killed");
        if std::fs::write(&path, graph_id).is_ok() {
            loop {
                std::thread::park();
            }
        }
    }
}

#[cfg(not(feature = "test-hooks"))]
fn pause_before_commit(_graph_id: &str) {}
