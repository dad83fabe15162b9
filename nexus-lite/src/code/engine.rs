//! Shared state, indexing runs, regeneration plans and background regenerations.

use crate::LiteConfig;
use crate::code::findings::{self, AnalyserStatus};
use crate::code::index::{self, ParseCache};
use crate::code::{cache, store};
use crate::core::db::Reader;
use crate::core::error::LiteError;
use crate::core::git;
use crate::core::http::Shared;
use crate::core::state::Core;
use crate::core::util::{now_epoch, rfc3339};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Plans expire after this many seconds.
pub const PLAN_TTL_SECS: i64 = 15 * 60;

/// Env var naming a file the writer creates right before COMMIT, then blocks forever
/// (used by the crash test to kill the process mid-write deterministically). Compiled only with
/// the `test-hooks` feature, which nexus-lite's own tests enable: no other build honours it.
#[cfg(feature = "test-hooks")]
pub const PAUSE_ENV: &str = "NEXUS_LITE_TEST_PAUSE_BEFORE_COMMIT";

/// Analyser cache key: (tool, path, content hash, fingerprint from
/// [`cache::analyser_fingerprint`]).
type AnalyserKey = (String, String, String, String);

/// Per-file analyser results, the in-memory level in front of the SQLite `analyser_cache`.
#[derive(Default)]
pub struct AnalyserCache {
    files: HashMap<AnalyserKey, Vec<findings::RawFinding>>,
    /// Keys of `files` not stored in the database yet (written with the next graph).
    unpersisted: HashSet<AnalyserKey>,
    versions: HashMap<String, Option<String>>,
}

const ANALYSERS: [&str; 2] = ["ruff", "bandit"];

pub struct Repo {
    pub name: String,
    pub root: PathBuf,
    cache: ParseCache,
    analyser_cache: Mutex<AnalyserCache>,
    index_lock: Mutex<()>,
}

/// A regeneration plan (stored in SQLite: plans outlive the process that made them).
pub type Plan = store::PlanRow;

/// The server's clock for plan expiry. Tests move it forward instead of sleeping.
#[derive(Debug, Default)]
pub struct Clock {
    offset_secs: AtomicI64,
}

impl Clock {
    /// Unix seconds, plus the offset set by [`Clock::advance`].
    pub fn now(&self) -> i64 {
        now_epoch() + self.offset_secs.load(Ordering::Relaxed)
    }

    /// Moves this clock `secs` seconds forward (tests: expire plans without waiting).
    pub fn advance(&self, secs: i64) {
        self.offset_secs.fetch_add(secs, Ordering::Relaxed);
    }
}

/// Fingerprint of a dirty set (sorted, deduplicated paths): what a plan is bound to.
pub fn dirty_fingerprint(paths: &[String]) -> String {
    let mut sorted: Vec<&str> = paths.iter().map(String::as_str).collect();
    sorted.sort_unstable();
    sorted.dedup();
    let mut all = Vec::new();
    for p in sorted {
        all.extend_from_slice(p.as_bytes());
        all.push(0);
    }
    crate::core::util::sha256_hex(&all)
}

/// What a submit of a plan did.
#[derive(Debug)]
pub enum Submitted {
    Started(Regen),
    AlreadyUsed,
    Expired,
    Unknown,
}

#[derive(Debug, Clone)]
pub struct Regen {
    pub regeneration_id: String,
    pub plan_id: String,
    pub status: &'static str,
    pub phase: &'static str,
    pub done: usize,
    pub total: usize,
    pub graph_id: Option<String>,
    pub previous_graph_id: Option<String>,
    pub error: Option<String>,
    pub warnings: Vec<String>,
}

impl Regen {
    pub fn to_json(&self) -> Value {
        json!({
            "regeneration_id": self.regeneration_id,
            "plan_id": self.plan_id,
            "status": self.status,
            "phase": self.phase,
            "progress": {"done": self.done, "total": self.total},
            "graph_id": self.graph_id,
            "previous_graph_id": self.previous_graph_id,
            "error": self.error,
            "warnings": self.warnings,
        })
    }
}

/// The code domain's state (and, through [`AppState::core`], the server's shared one).
pub struct AppState {
    pub core: Arc<Core>,
    pub index_on_first_use: bool,
    pub repos: Vec<Repo>,
    /// Plan expiry clock (injectable offset for tests).
    pub clock: Clock,
    pub regens: Mutex<HashMap<String, Regen>>,
    pub running: Mutex<HashSet<String>>,
}

impl Shared for AppState {
    fn core(&self) -> &Core {
        &self.core
    }
}

/// Outcome of one indexing run.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub graph_id: String,
    pub repository: String,
    pub branch: String,
    pub commit_sha: String,
    pub counts: Value,
    pub stats: Value,
    pub analysers: Vec<AnalyserStatus>,
}

impl RunOutcome {
    pub fn to_json(&self) -> Value {
        json!({
            "graph_id": self.graph_id,
            "repository": self.repository,
            "branch": self.branch,
            "commit_sha": self.commit_sha,
            "counts": self.counts,
            "timings": self.stats,
            "analysers": self.analysers,
        })
    }
}

/// The registered repositories of `config`, each at the root of its work tree.
pub fn resolve_repos(config: &LiteConfig) -> Result<Vec<Repo>, LiteError> {
    let mut repos: Vec<Repo> = Vec::new();
    for spec in &config.repos {
        let root = git::toplevel(&spec.path)?;
        let name = repo_name(spec.name.as_deref(), &root);
        if repos.iter().any(|r| r.name == name) {
            return Err(LiteError::DuplicateRepo { name });
        }
        repos.push(Repo {
            name,
            root,
            cache: ParseCache::default(),
            analyser_cache: Mutex::new(AnalyserCache::default()),
            index_lock: Mutex::new(()),
        });
    }
    Ok(repos)
}

/// Name of a repository: explicit, else owner/name of origin, else local/<dir>.
pub fn repo_name(explicit: Option<&str>, root: &std::path::Path) -> String {
    if let Some(n) = explicit.filter(|n| !n.trim().is_empty()) {
        return n.trim().to_string();
    }
    if let Some(n) = git::origin_url(root).and_then(|u| git::owner_name_from_url(&u)) {
        return n;
    }
    let dir = root
        .file_name()
        .map(|d| d.to_string_lossy().into_owned())
        .unwrap_or_else(|| "repository".into());
    format!("local/{dir}")
}

impl AppState {
    /// Opens the whole server's state for `config`: the shared core (lock, database, every
    /// domain's migrations) and this domain on it.
    pub fn new(config: &LiteConfig) -> Result<Arc<AppState>, LiteError> {
        let repos = resolve_repos(config)?;
        let core = Core::open(&config.data_dir, &config.token, &crate::migrations())?;
        AppState::open(core, repos, config)
    }

    /// The code domain on an opened core: marks runs a previous process left `running` failed.
    pub fn open(
        core: Arc<Core>,
        repos: Vec<Repo>,
        config: &LiteConfig,
    ) -> Result<Arc<AppState>, LiteError> {
        let recovered = store::recover_interrupted(&core.writer()?)?;
        if recovered > 0 {
            tracing::warn!(recovered, "marked interrupted graph runs as failed");
        }
        Ok(Arc::new(AppState {
            core,
            index_on_first_use: config.index_on_first_use,
            repos,
            clock: Clock::default(),
            regens: Mutex::new(HashMap::new()),
            running: Mutex::new(HashSet::new()),
        }))
    }

    pub fn repo(&self, name: &str) -> Option<&Repo> {
        self.repos.iter().find(|r| r.name == name)
    }

    /// A read connection (WAL lets it read while a run writes).
    pub fn reader(&self) -> Result<Reader<'_>, LiteError> {
        self.core.reader()
    }

    fn set_regen(&self, id: &str, f: impl FnOnce(&mut Regen)) {
        if let Ok(mut m) = self.regens.lock()
            && let Some(r) = m.get_mut(id)
        {
            f(r);
        }
    }

    /// Indexes the repository's work tree now (blocking) into a new graph.
    pub fn index_now(&self, repo: &Repo, regen_id: Option<&str>) -> Result<RunOutcome, LiteError> {
        let _guard = repo
            .index_lock
            .lock()
            .map_err(|_| LiteError::Task("index lock poisoned".into()))?;
        run_index(self, repo, regen_id)
    }

    /// First-use indexing: index `repository` when it has no ready graph on `branch`.
    pub fn ensure_indexed(&self, repo: &Repo, branch: &str) -> Result<bool, LiteError> {
        let _guard = repo
            .index_lock
            .lock()
            .map_err(|_| LiteError::Task("index lock poisoned".into()))?;
        let conn = self.reader()?;
        if store::latest_ready(&conn, &repo.name, branch)?.is_some() {
            return Ok(false);
        }
        let current = git::current_branch(&repo.root)?.unwrap_or_else(|| "HEAD".into());
        if current != branch {
            return Ok(false);
        }
        run_index(self, repo, None)?;
        Ok(true)
    }

    pub fn make_plan(&self, repo: &Repo, branch: Option<&str>) -> Result<Plan, LiteError> {
        let current_branch = git::current_branch(&repo.root)?;
        let branch = branch
            .map(str::to_string)
            .unwrap_or_else(|| git::default_branch(&repo.root));
        let head_sha = git::head_sha(&repo.root)?;
        let dirty_files = git::dirty_files(&repo.root)?;
        let conn = self.reader()?;
        let previous = store::latest_ready(&conn, &repo.name, &branch)?;
        let (ambiguous, ambiguity_reason) = match (&current_branch, &head_sha) {
            (_, None) => (
                true,
                Some("the repository has no commit yet; commit something first".to_string()),
            ),
            (None, _) => (
                true,
                Some(format!(
                    "HEAD is detached, so the work tree is not on branch {branch}; check out {branch} and plan again"
                )),
            ),
            (Some(cur), _) if *cur != branch => (
                true,
                Some(format!(
                    "the work tree is on branch {cur}, not {branch}; nexus-lite indexes the checked-out work tree, so check out {branch} or plan for {cur}"
                )),
            ),
            _ => (false, None),
        };
        let all_files = git::ls_files(&repo.root)?;
        let source_count = all_files
            .iter()
            .filter(|p| index::language_of(p).is_some())
            .count();
        let mut changed: Vec<String>;
        let previous_commit = previous
            .as_ref()
            .and_then(|(_, g)| g["commit_sha"].as_str().map(str::to_string));
        match (&previous_commit, &head_sha) {
            (Some(prev), Some(head)) => {
                changed = git::changed_between(&repo.root, prev, head).unwrap_or_default();
                if let Some((_, g)) = &previous
                    && let Some(arr) = g["dirty_files"].as_array()
                {
                    changed.extend(arr.iter().filter_map(|v| v.as_str().map(str::to_string)));
                }
                changed.extend(dirty_files.iter().cloned());
            }
            _ => changed = all_files.clone(),
        }
        changed.sort();
        changed.dedup();
        let incremental = match &previous {
            None => false,
            Some((gpk, _)) => !repo.cache.is_empty() || cache::has_parses_for_graph(&conn, *gpk)?,
        };
        let changed_sources = changed
            .iter()
            .filter(|p| index::language_of(p).is_some())
            .count();
        let plan_id = uuid::Uuid::new_v4().to_string();
        let now = self.clock.now();
        let expires_at = now + PLAN_TTL_SECS;
        let previous_graph_id = previous
            .as_ref()
            .and_then(|(_, g)| g["graph_id"].as_str().map(str::to_string));
        let json = json!({
            "plan_id": plan_id,
            "repository": repo.name,
            "branch": branch,
            "current_branch": current_branch,
            "head_sha": head_sha,
            "worktree_dirty": !dirty_files.is_empty(),
            "dirty_files": dirty_files,
            "previous_graph_id": previous_graph_id,
            "previous_commit_sha": previous_commit,
            "changed_files": changed,
            "would_reindex": {
                "mode": if incremental { "incremental" } else { "full" },
                "files": if incremental { changed_sources } else { source_count },
            },
            "ambiguous": ambiguous,
            "ambiguity_reason": ambiguity_reason,
            "expires_at": rfc3339(expires_at),
        });
        let plan = Plan {
            plan_id,
            repository: repo.name.clone(),
            branch,
            current_branch,
            head_sha,
            dirty_fingerprint: dirty_fingerprint(&dirty_files),
            dirty_files,
            ambiguous,
            ambiguity_reason,
            previous_graph_id,
            expires_at,
            created_at: now,
            used: false,
            json,
        };
        let writer = self.core.writer()?;
        store::insert_plan(&writer, &plan, now)?;
        Ok(plan)
    }

    /// The stored plan `plan_id` (used or not, expired or not), from any process.
    pub fn load_plan(&self, plan_id: &str) -> Result<Option<Plan>, LiteError> {
        store::load_plan(&*self.reader()?, plan_id)
    }

    /// Consumes the plan and registers its regeneration (memory + database) in one database
    /// transaction: of concurrent submits of one plan, in this process or another, exactly one
    /// gets `Started`; the others get `AlreadyUsed` (or `Expired` when it expired meanwhile).
    pub fn start_regen(&self, plan: &Plan) -> Result<Submitted, LiteError> {
        let regen = Regen {
            regeneration_id: uuid::Uuid::new_v4().to_string(),
            plan_id: plan.plan_id.clone(),
            status: "running",
            phase: "queued",
            done: 0,
            total: 0,
            graph_id: None,
            previous_graph_id: plan.previous_graph_id.clone(),
            error: None,
            warnings: Vec::new(),
        };
        let now = self.clock.now();
        let mut conn = self.core.writer()?;
        let claim = store::claim_plan(
            &mut conn,
            &store::NewRegen {
                regeneration_id: &regen.regeneration_id,
                plan_id: &plan.plan_id,
                repository: &plan.repository,
                branch: &plan.branch,
                previous_graph_id: plan.previous_graph_id.as_deref(),
                created_at: &rfc3339(now_epoch()),
            },
            now,
        )?;
        Ok(match claim {
            store::Claim::Claimed => {
                if let Ok(mut m) = self.regens.lock() {
                    m.insert(regen.regeneration_id.clone(), regen.clone());
                }
                Submitted::Started(regen)
            }
            store::Claim::AlreadyUsed => Submitted::AlreadyUsed,
            store::Claim::Expired => Submitted::Expired,
            store::Claim::Unknown => Submitted::Unknown,
        })
    }

    /// Finishes a regeneration after its run (the success path is written in the graph
    /// transaction; this records failures).
    pub fn finish_regen(&self, id: &str, result: &Result<RunOutcome, LiteError>) {
        match result {
            Ok(o) => self.set_regen(id, |r| {
                r.status = "ready";
                r.phase = "done";
                r.graph_id = Some(o.graph_id.clone());
                r.warnings = analyser_warnings(&o.analysers);
            }),
            Err(e) => {
                let msg = e.to_string();
                self.set_regen(id, |r| {
                    r.status = "failed";
                    r.phase = "done";
                    r.error = Some(msg.clone());
                });
                if let Ok(conn) = self.core.writer() {
                    let _ = conn.execute(
                        "UPDATE regenerations SET status='failed', phase='done', error=?2 WHERE regeneration_id=?1",
                        rusqlite::params![id, msg],
                    );
                }
            }
        }
    }

    pub fn regen_json(&self, id: &str) -> Result<Option<Value>, LiteError> {
        if let Ok(m) = self.regens.lock()
            && let Some(r) = m.get(id)
        {
            return Ok(Some(r.to_json()));
        }
        let conn = self.reader()?;
        use rusqlite::OptionalExtension;
        conn.query_row(
            "SELECT regeneration_id, plan_id, status, phase, done, total, graph_id, previous_graph_id, error, warnings
             FROM regenerations WHERE regeneration_id=?1",
            [id],
            |r| {
                let warnings: String = r.get(9)?;
                Ok(json!({
                    "regeneration_id": r.get::<_, String>(0)?,
                    "plan_id": r.get::<_, String>(1)?,
                    "status": r.get::<_, String>(2)?,
                    "phase": r.get::<_, String>(3)?,
                    "progress": {"done": r.get::<_, i64>(4)?, "total": r.get::<_, i64>(5)?},
                    "graph_id": r.get::<_, Option<String>>(6)?,
                    "previous_graph_id": r.get::<_, Option<String>>(7)?,
                    "error": r.get::<_, Option<String>>(8)?,
                    "warnings": serde_json::from_str::<Value>(&warnings).unwrap_or(json!([])),
                }))
            },
        )
        .optional()
        .map_err(LiteError::db("reading a regeneration"))
    }
}

/// Hash of the analyser configuration files at the repository root: a change invalidates the
/// per-file analyser cache.
/// One `tool status: reason` line per analyser that did not run cleanly.
fn analyser_warnings(statuses: &[AnalyserStatus]) -> Vec<String> {
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

fn config_fingerprint(root: &std::path::Path) -> String {
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
fn cached_run(
    tool: &str,
    todo: &[String],
    run: impl FnOnce() -> (Vec<findings::RawFinding>, AnalyserStatus),
) -> (Vec<findings::RawFinding>, AnalyserStatus) {
    if todo.is_empty() {
        return (
            Vec::new(),
            AnalyserStatus {
                tool: tool.into(),
                status: "ok",
                version: None,
                reason: None,
                findings: 0,
                seconds: 0.0,
            },
        );
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
    if let Ok(path) = std::env::var(PAUSE_ENV)
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

fn run_index(
    state: &AppState,
    repo: &Repo,
    regen_id: Option<&str>,
) -> Result<RunOutcome, LiteError> {
    let phase = |p: &'static str| {
        if let Some(id) = regen_id {
            state.set_regen(id, |r| r.phase = p);
        }
    };
    let fail = |reason: String| LiteError::Index {
        repository: repo.name.clone(),
        reason,
    };
    let mut conn = state.core.writer()?;
    // Large write transactions: a bigger page cache, and no automatic checkpoint inside COMMIT
    // (done explicitly right after the graph is committed).
    conn.execute_batch("PRAGMA cache_size=-65536; PRAGMA wal_autocheckpoint=0;")
        .map_err(LiteError::db("tuning the writer connection"))?;
    let head = git::head_sha(&repo.root)?
        .ok_or_else(|| fail("the repository has no commit yet; commit something first".into()))?;
    let branch = git::current_branch(&repo.root)?.unwrap_or_else(|| "HEAD".into());
    let dirty = git::dirty_files(&repo.root)?;
    let graph_id = uuid::Uuid::new_v4().to_string();
    store::insert_running(
        &conn,
        &store::NewGraph {
            graph_id: &graph_id,
            repository: &repo.name,
            branch: &branch,
            commit_sha: &head,
            dirty_files: &dirty,
            generated_at: &rfc3339(now_epoch()),
        },
    )?;
    if let Some(id) = regen_id {
        state.set_regen(id, |r| r.graph_id = Some(graph_id.clone()));
    }
    let result = (|| -> Result<RunOutcome, LiteError> {
        phase("listing");
        let t0 = Instant::now();
        let files = git::ls_files(&repo.root)?;
        let listing_ms = t0.elapsed().as_secs_f64() * 1000.0;
        phase("parsing");
        let t1 = Instant::now();
        let progress = |done: usize, total: usize| {
            if let Some(id) = regen_id {
                state.set_regen(id, |r| {
                    r.done = done;
                    r.total = total;
                });
            }
        };
        let load = |keys: &[String]| match cache::load_parses(&conn, keys) {
            Ok(found) => found,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the stored parse cache; parsing instead");
                HashMap::new()
            }
        };
        let data = index::build(
            &repo.name,
            &repo.root,
            &files,
            &repo.cache,
            &load,
            &progress,
        )
        .map_err(fail)?;
        let graph_ms = t1.elapsed().as_secs_f64() * 1000.0;
        phase("analysing");
        let t2 = Instant::now();
        let py: Vec<(String, String)> = data
            .files
            .iter()
            .filter(|f| f.language == "python")
            .map(|f| (f.path.clone(), f.content_hash.clone()))
            .collect();
        let root = repo.root.as_path();
        let config_fp = config_fingerprint(root);
        let ruff_fp = cache::analyser_fingerprint("ruff", &config_fp);
        let bandit_fp = cache::analyser_fingerprint("bandit", &config_fp);
        let fp_of = |tool: &str| -> &str {
            if tool == "ruff" {
                ruff_fp.as_str()
            } else {
                bandit_fp.as_str()
            }
        };
        let key_of = |tool: &str, p: &str, h: &str| -> AnalyserKey {
            (tool.into(), p.into(), h.into(), fp_of(tool).into())
        };
        let mut analyser_loaded = 0usize;
        let (todo_ruff, todo_bandit) = match repo.analyser_cache.lock() {
            Ok(mut c) => {
                // The persistent level: results of another process (or before a restart).
                for tool in ANALYSERS {
                    let missing: Vec<(String, String)> = py
                        .iter()
                        .filter(|(p, h)| !c.files.contains_key(&key_of(tool, p, h)))
                        .cloned()
                        .collect();
                    match cache::load_findings(&conn, tool, fp_of(tool), &missing) {
                        Ok((found, version)) => {
                            analyser_loaded += found.len();
                            for ((p, h), v) in found {
                                c.files.insert(key_of(tool, &p, &h), v);
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
                        .filter(|(p, h)| !c.files.contains_key(&key_of(tool, p, h)))
                        .map(|(p, _)| p.clone())
                        .collect()
                };
                (todo("ruff"), todo("bandit"))
            }
            Err(_) => {
                let all: Vec<String> = py.iter().map(|(p, _)| p.clone()).collect();
                (all.clone(), all)
            }
        };
        let ((ruff_new, ruff_st), (bandit_new, bandit_st)) = std::thread::scope(|s| {
            let r =
                s.spawn(|| cached_run("ruff", &todo_ruff, || findings::run_ruff(root, &todo_ruff)));
            let b = cached_run("bandit", &todo_bandit, || {
                findings::run_bandit(root, &todo_bandit)
            });
            let r = r.join().unwrap_or_else(|_| {
                (
                    Vec::new(),
                    AnalyserStatus {
                        tool: "ruff".into(),
                        status: "failed",
                        version: None,
                        reason: Some("the ruff runner thread panicked".into()),
                        findings: 0,
                        seconds: 0.0,
                    },
                )
            });
            (r, b)
        });
        let mut ruff = Vec::new();
        let mut bandit = Vec::new();
        let (mut ruff_st, mut bandit_st) = (ruff_st, bandit_st);
        // Tools whose stored results must be forgotten (failed or missing in this run).
        let mut forget: Vec<&'static str> = Vec::new();
        // Results to store with the graph: (key, findings, tool version).
        let mut to_store: Vec<(AnalyserKey, Vec<findings::RawFinding>, Option<String>)> =
            Vec::new();
        if let Ok(mut c) = repo.analyser_cache.lock() {
            for (tool, st, fresh, todo, out) in [
                ("ruff", &mut ruff_st, ruff_new, &todo_ruff, &mut ruff),
                (
                    "bandit",
                    &mut bandit_st,
                    bandit_new,
                    &todo_bandit,
                    &mut bandit,
                ),
            ] {
                if st.status != "ok" {
                    // Never mix stale cached results with a failed or missing analyser.
                    c.files.retain(|k, _| k.0 != tool);
                    c.unpersisted.retain(|k| k.0 != tool);
                    forget.push(tool);
                    continue;
                }
                if st.version.is_some() {
                    c.versions.insert(tool.to_string(), st.version.clone());
                } else if let Some(v) = c.versions.get(tool) {
                    st.version = v.clone();
                }
                let mut by_path: HashMap<String, Vec<findings::RawFinding>> = HashMap::new();
                for f in fresh {
                    by_path.entry(f.path.clone()).or_default().push(f);
                }
                let hash_of: HashMap<&str, &str> =
                    py.iter().map(|(p, h)| (p.as_str(), h.as_str())).collect();
                for p in todo {
                    let h = hash_of.get(p.as_str()).copied().unwrap_or("");
                    let key = key_of(tool, p, h);
                    c.files
                        .insert(key.clone(), by_path.remove(p).unwrap_or_default());
                    c.unpersisted.insert(key);
                }
                for (p, h) in &py {
                    if let Some(v) = c.files.get(&key_of(tool, p, h)) {
                        out.extend(v.iter().cloned());
                    }
                }
                let live: HashSet<(String, String)> = py.iter().cloned().collect();
                let fp = fp_of(tool);
                let keep = |k: &AnalyserKey| {
                    k.0 != tool || (live.contains(&(k.1.clone(), k.2.clone())) && k.3 == fp)
                };
                c.files.retain(|k, _| keep(k));
                c.unpersisted.retain(|k| keep(k));
                st.findings = out.len();
                if todo.len() < py.len() {
                    st.reason = Some(format!(
                        "ran on {} changed file(s); results for {} unchanged file(s) reused by content hash",
                        todo.len(),
                        py.len() - todo.len()
                    ));
                }
            }
            let c = &*c;
            to_store = c
                .unpersisted
                .iter()
                .filter_map(|k| {
                    let findings = c.files.get(k)?.clone();
                    let version = c.versions.get(&k.0).cloned().flatten();
                    Some((k.clone(), findings, version))
                })
                .collect();
        }
        let (imported, import_st) = match imports_dir(state, &repo.name) {
            Some(dir) => findings::import_dir(root, &dir),
            None => (Vec::new(), Vec::new()),
        };
        let analysers_ms = t2.elapsed().as_secs_f64() * 1000.0;
        phase("writing");
        let t3 = Instant::now();
        let kg = findings::from_anomalies(&data.anomalies);
        let mut statuses = vec![AnalyserStatus {
            tool: "nexus_kg".into(),
            status: "ok",
            version: Some(crate::GENERATOR.into()),
            reason: None,
            findings: kg.len(),
            seconds: graph_ms / 1000.0,
        }];
        statuses.extend([ruff_st, bandit_st]);
        statuses.extend(import_st);
        let mut raw = kg;
        raw.extend(ruff);
        raw.extend(bandit);
        raw.extend(imported);
        let all = findings::finalize(raw, &data, root);
        let mut stats = json!({
            "listing_ms": listing_ms,
            "graph_build_ms": graph_ms,
            "analysers_ms": analysers_ms,
            "files_listed": files.len(),
            "files_parsed": data.parsed_files,
            "files_reused": data.reused_files,
            "files_reused_from_db": data.loaded_files,
            "analyser_results_reused_from_db": analyser_loaded,
            "nodes": data.nodes.len(),
            "edges": data.edges.len(),
        });
        let regen_for_tx = regen_id.map(str::to_string);
        let gid = graph_id.clone();
        let warnings = analyser_warnings(&statuses);
        let pruned = std::cell::Cell::new((0usize, 0usize));
        let counts = store::write_graph(
            &mut conn,
            &graph_id,
            &data,
            &all,
            &statuses,
            &stats,
            |tx| {
                if let Some(id) = &regen_for_tx {
                    tx.execute(
                        "UPDATE regenerations SET status='ready', phase='done', graph_id=?2, warnings=?3 WHERE regeneration_id=?1",
                        rusqlite::params![id, gid, serde_json::to_string(&warnings).unwrap_or_else(|_| "[]".into())],
                    )
                    .map_err(LiteError::db("recording the regeneration result"))?;
                }
                // The caches are written and pruned with the graph: committed together or
                // not at all.
                cache::store_parses(tx, &data.new_parses)?;
                let entries: Vec<cache::FindingsEntry<'_>> = to_store
                    .iter()
                    .map(|(k, f, v)| cache::FindingsEntry {
                        tool: &k.0,
                        path: &k.1,
                        content_hash: &k.2,
                        fingerprint: &k.3,
                        version: v.as_deref(),
                        findings: f,
                    })
                    .collect();
                cache::store_findings(tx, &entries)?;
                let py_paths: Vec<&str> = py.iter().map(|(p, _)| p.as_str()).collect();
                for tool in &forget {
                    cache::forget_findings(tx, tool, &py_paths)?;
                }
                pruned.set(cache::prune(tx)?);
                Ok(())
            },
            || pause_before_commit(&graph_id),
        )?;
        let parse_keys: Vec<String> = data.new_parses.iter().map(|(k, _, _)| k.clone()).collect();
        repo.cache.mark_persisted(&parse_keys);
        if let Ok(mut c) = repo.analyser_cache.lock() {
            for (k, _, _) in &to_store {
                c.unpersisted.remove(k);
            }
        }
        let (pruned_parses, pruned_results) = pruned.get();
        stats["parses_stored"] = json!(parse_keys.len());
        stats["analyser_results_stored"] = json!(to_store.len());
        stats["cache_rows_pruned"] = json!(pruned_parses + pruned_results);
        stats["write_ms"] = json!(t3.elapsed().as_secs_f64() * 1000.0);
        // The graph is committed and served; fold the WAL back outside the measured write.
        let t4 = Instant::now();
        if let Err(e) = conn.execute_batch("PRAGMA wal_checkpoint(PASSIVE);") {
            tracing::warn!(error = %e, "WAL checkpoint failed; SQLite will retry later");
        }
        stats["checkpoint_ms"] = json!(t4.elapsed().as_secs_f64() * 1000.0);
        Ok(RunOutcome {
            graph_id: graph_id.clone(),
            repository: repo.name.clone(),
            branch: branch.clone(),
            commit_sha: head.clone(),
            counts,
            stats,
            analysers: statuses,
        })
    })();
    match &result {
        Ok(o) => tracing::info!(repository = %repo.name, graph_id = %o.graph_id, "graph ready"),
        Err(e) => {
            tracing::error!(repository = %repo.name, error = %e, "indexing failed");
            let _ = store::mark_failed(&conn, &graph_id, &e.to_string());
        }
    }
    result
}
