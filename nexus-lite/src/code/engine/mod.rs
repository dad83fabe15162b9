//! Shared state, indexing runs, regeneration plans and background regenerations.

use crate::code::findings::{self, AnalyserStatus};
mod run;

use crate::code::graph_cache::{GraphCache, PendingGraph};
use crate::code::index::{self, ParseCache};
use crate::code::{cache, retention, store};
use crate::core::config::LiteConfig;
use crate::core::db::Reader;
use crate::core::error::LiteError;
use crate::core::git;
use crate::core::http::{ApiError, Shared};
use crate::core::repos::{Registry, ServedRepo, served_repos};
use crate::core::state::Core;
use crate::core::util::{now_epoch, rfc3339};
use run::{analyser_warnings, run_index};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, Weak};

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
    files: HashMap<AnalyserKey, findings::FileResults>,
    /// Keys of `files` not stored in the database yet (written with the next graph).
    unpersisted: HashSet<AnalyserKey>,
    versions: HashMap<String, Option<String>>,
    /// Tools whose last run in this process failed: their stored results were forgotten with
    /// that run's graph, so the next run does not look them up file by file again.
    forgotten: HashSet<&'static str>,
}

const ANALYSERS: [&str; 2] = ["ruff", "bandit"];

pub struct Repo {
    pub name: String,
    pub root: PathBuf,
    /// The server's registration of this repository, held while the code domain serves it.
    registered: Arc<ServedRepo>,
    cache: ParseCache,
    analyser_cache: Mutex<AnalyserCache>,
    index_lock: Mutex<()>,
}

/// A work tree's state as git gave it: HEAD, the current branch (none when detached) and the
/// files with uncommitted changes.
pub(crate) struct WorkTree {
    pub(crate) head: String,
    pub(crate) branch: Option<String>,
    pub(crate) dirty: Vec<String>,
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

/// What every view of one server shares in the code domain: the plan clock, the regenerations
/// and the repositories being regenerated, the graphs in memory, and each served repository's
/// caches.
#[derive(Default, Clone)]
pub struct CodeShared {
    pub clock: Arc<Clock>,
    pub regens: Arc<Mutex<HashMap<String, Regen>>>,
    pub running: Arc<Mutex<HashSet<String>>>,
    pub graph_cache: Arc<GraphCache>,
    /// By name. Weak: a repository no view serves any more is dropped with its caches.
    repos: Arc<Mutex<HashMap<String, Weak<Repo>>>>,
    /// Ready graphs kept per (repository, branch) (see `crate::code::retention`).
    pub keep_graphs: usize,
}

impl CodeShared {
    /// Opens the code domain on `core`: its migrations, then the runs a previous process left
    /// `running` marked failed (the data directory is locked: no other process runs them).
    pub fn open(core: &Core, keep_graphs: usize) -> Result<CodeShared, LiteError> {
        core.open_domain(&crate::code::DOMAIN)?;
        let recovered = store::recover_interrupted(&core.writer()?)?;
        if recovered > 0 {
            tracing::warn!(recovered, "marked interrupted graph runs as failed");
        }
        Ok(CodeShared {
            keep_graphs,
            ..CodeShared::default()
        })
    }

    /// The code domain's repository for the registration `served` (its parse and analyser
    /// caches shared with every view serving it).
    pub fn repo(&self, served: Arc<ServedRepo>) -> Arc<Repo> {
        let mut repos = self.repos.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(existing) = repos.get(&served.name).and_then(Weak::upgrade)
            && Arc::ptr_eq(&existing.registered, &served)
        {
            return existing;
        }
        let repo = Arc::new(Repo::new(served));
        repos.retain(|_, r| r.strong_count() > 0);
        repos.insert(repo.name.clone(), Arc::downgrade(&repo));
        repo
    }
}

/// The code domain's state over some repositories (and, through [`AppState::core`], the
/// server's shared one). Every field but `repos` is shared by all the views of one server.
pub struct AppState {
    pub core: Arc<Core>,
    pub index_on_first_use: bool,
    pub repos: Vec<Arc<Repo>>,
    /// Plan expiry clock (injectable offset for tests).
    pub clock: Arc<Clock>,
    pub regens: Arc<Mutex<HashMap<String, Regen>>>,
    pub running: Arc<Mutex<HashSet<String>>>,
    /// Ready graphs in memory for the impact queries.
    pub graph_cache: Arc<GraphCache>,
    /// Ready graphs kept per (repository, branch) (see `crate::code::retention`).
    pub keep_graphs: usize,
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

impl Repo {
    /// A repository with empty caches (`registered.root`: the root of its work tree).
    pub fn new(registered: Arc<ServedRepo>) -> Repo {
        Repo {
            name: registered.name.clone(),
            root: registered.root.clone(),
            registered,
            cache: ParseCache::default(),
            analyser_cache: Mutex::new(AnalyserCache::default()),
            index_lock: Mutex::new(()),
        }
    }

    /// Readies what the next regeneration's plan needs (see [`ParseCache::prepare_next_run`]).
    pub fn prepare_next_run(&self) {
        self.cache.prepare_next_run();
    }

    /// Parses `paths` (a plan's changed files) into this repository's cache ahead of a run,
    /// until `stop` is set (see [`index::parse_ahead`]).
    pub fn parse_ahead(&self, paths: &[String], stop: &std::sync::atomic::AtomicBool) {
        index::parse_ahead(&self.root, paths, &self.cache, stop);
    }
}

/// Why a plan for `branch` cannot run on this work tree (no commit, detached HEAD, another
/// branch checked out); `None` when it can.
fn ambiguity(current_branch: Option<&str>, has_commit: bool, branch: &str) -> Option<String> {
    match current_branch {
        _ if !has_commit => {
            Some("the repository has no commit yet; commit something first".to_string())
        }
        None => Some(format!(
            "HEAD is detached, so the work tree is not on branch {branch}; check out {branch} and plan again"
        )),
        Some(cur) if cur != branch => Some(format!(
            "the work tree is on branch {cur}, not {branch}; nexus-lite indexes the checked-out work tree, so check out {branch} or plan for {cur}"
        )),
        _ => None,
    }
}

/// The files a regeneration would see changed since the `previous` graph (at commit `prev`),
/// before today's dirty files: committed changes up to `head` and the previous graph's dirty
/// files.
fn changed_since(root: &std::path::Path, previous: &Value, prev: &str, head: &str) -> Vec<String> {
    let mut changed = git::changed_between(root, prev, head).unwrap_or_default();
    if let Some(arr) = previous["dirty_files"].as_array() {
        changed.extend(arr.iter().filter_map(|v| v.as_str().map(str::to_string)));
    }
    changed
}

// Moved to `core` (the rules domain names repositories the same way).
pub use crate::core::repos::repo_name;

impl AppState {
    /// Opens the code domain alone for `config`: the core (lock, database), this domain's
    /// migrations, and every repository of `config`.
    pub fn new(config: &LiteConfig) -> Result<Arc<AppState>, LiteError> {
        let served = served_repos(config)?;
        let core = Core::open(&config.data_dir, &config.token)?;
        let shared = CodeShared::open(&core, config.keep_graphs)?;
        let registry = Registry::default();
        let repos = served
            .into_iter()
            .map(|r| Ok(shared.repo(registry.served(r)?)))
            .collect::<Result<Vec<_>, LiteError>>()?;
        Ok(AppState::view(
            core,
            &shared,
            repos,
            config.index_on_first_use,
        ))
    }

    /// A view over `repos` sharing `core` and `shared`.
    pub fn view(
        core: Arc<Core>,
        shared: &CodeShared,
        repos: Vec<Arc<Repo>>,
        index_on_first_use: bool,
    ) -> Arc<AppState> {
        Arc::new(AppState {
            core,
            index_on_first_use,
            repos,
            clock: shared.clock.clone(),
            regens: shared.regens.clone(),
            running: shared.running.clone(),
            graph_cache: shared.graph_cache.clone(),
            keep_graphs: shared.keep_graphs,
        })
    }

    pub fn repo(&self, name: &str) -> Option<&Repo> {
        self.repos.iter().find(|r| r.name == name).map(|r| &**r)
    }

    /// Reads the graph `find` names into memory unless it is there already, so that the
    /// first impact query on it is not the one that waits (~360 ms at a million lines). A
    /// failure is only logged: the query will read the graph then.
    pub(crate) fn warm(
        &self,
        what: &str,
        find: impl FnOnce(&rusqlite::Connection) -> Result<Option<(i64, Value)>, LiteError>,
    ) {
        let warmed = self
            .reader()
            .map_err(ApiError::from)
            .and_then(|conn| match find(&conn)? {
                Some((gpk, _)) => self.graph_cache.get_or_load(&conn, gpk).map(|_| ()),
                None => Ok(()),
            });
        if let Err(e) = warmed {
            tracing::warn!(graph = what, error = ?e, "could not read the graph into memory");
        }
    }

    /// Reads the newest ready graph of each served repository (its default branch; as many as
    /// the cache keeps) into memory on a thread of its own: a client that just connected asks
    /// its first question of a graph already in memory.
    pub fn read_ahead(self: &Arc<Self>) -> Option<std::thread::JoinHandle<()>> {
        let state = self.clone();
        let spawned = std::thread::Builder::new()
            .name("graph-read-ahead".to_owned())
            .spawn(move || {
                for repo in state.repos.iter().take(GraphCache::KEPT) {
                    let branch = git::default_branch(&repo.root);
                    state.warm(&repo.name, |conn| {
                        store::latest_ready(conn, &repo.name, &branch)
                    });
                }
            });
        spawned
            .inspect_err(|e| tracing::warn!(error = %e, "could not start reading the graphs ahead"))
            .ok()
    }

    /// Whether graph `graph_id` is in memory (what [`AppState::read_ahead`] is for).
    pub fn graph_in_memory(&self, graph_id: &str) -> Result<bool, LiteError> {
        let conn = self.reader()?;
        Ok(
            store::graph_by_id(&conn, graph_id)?
                .is_some_and(|(gpk, _)| self.graph_cache.holds(gpk)),
        )
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
        let (mut outcome, pending) = self.index_at(repo, regen_id, None)?;
        if let Some(p) = pending {
            p.build();
        }
        let pruned = self.prune(repo);
        outcome.stats["pruned_graphs"] = json!(pruned.graphs.len());
        outcome.stats["pruned_parts"] = json!(pruned.parts);
        outcome.stats["checkpoint_ms"] = json!(self.checkpoint());
        Ok(outcome)
    }

    /// [`AppState::index_now`], recording `tree` as the work tree's state when a submit has
    /// just read it from git (the run then does not run `git status` again). A regeneration's
    /// graph comes back to be built in memory once the caller has reported the run.
    pub(crate) fn index_at(
        &self,
        repo: &Repo,
        regen_id: Option<&str>,
        tree: Option<WorkTree>,
    ) -> Result<(RunOutcome, Option<PendingGraph>), LiteError> {
        let _guard = repo
            .index_lock
            .lock()
            .map_err(|_| LiteError::Task("index lock poisoned".into()))?;
        run_index(self, repo, regen_id, tree, regen_id.is_some())
    }

    /// First-use indexing: index `repository` when it has no ready graph on `branch`. True when
    /// a ready graph exists now, whoever indexed it: a call that waited on the lock while
    /// another call indexed must find that graph, not answer "no ready graph".
    pub fn ensure_indexed(&self, repo: &Repo, branch: &str) -> Result<bool, LiteError> {
        let _guard = repo
            .index_lock
            .lock()
            .map_err(|_| LiteError::Task("index lock poisoned".into()))?;
        let conn = self.reader()?;
        if store::latest_ready(&conn, &repo.name, branch)?.is_some() {
            return Ok(true);
        }
        let current = git::current_branch(&repo.root)?.unwrap_or_else(|| "HEAD".into());
        if current != branch {
            return Ok(false);
        }
        let (_, pending) = run_index(self, repo, None, None, true)?;
        self.after_reported(repo, pending);
        Ok(true)
    }

    /// What a serving process does once a run is reported, outside the time to an answer:
    /// builds its graph in memory (a query meanwhile waits for it), readies the next plan's
    /// tables, prunes the graphs the retention rule no longer keeps, folds the WAL back.
    pub(crate) fn after_reported(&self, repo: &Repo, pending: Option<PendingGraph>) {
        if let Some(pending) = pending {
            pending.build();
        }
        repo.prepare_next_run();
        self.prune(repo);
        self.checkpoint();
    }

    /// Applies the retention rule to `repo`'s graphs (see [`retention`]) and forgets the
    /// removed ones in memory. A failure is only logged: the graphs stay until the next run.
    fn prune(&self, repo: &Repo) -> retention::Pruned {
        let pruned = self.core.writer().and_then(|mut conn| {
            retention::prune(&mut conn, &repo.name, self.keep_graphs, self.clock.now())
        });
        match pruned {
            Ok(pruned) => {
                for &gpk in &pruned.graphs {
                    self.graph_cache.forget(gpk);
                }
                if !pruned.graphs.is_empty() || pruned.forgotten > 0 {
                    tracing::info!(repository = %repo.name, graphs = pruned.graphs.len(), parts = pruned.parts, forgotten = pruned.forgotten, keep = self.keep_graphs, "pruned graphs beyond the newest kept per branch");
                }
                pruned
            }
            Err(e) => {
                tracing::warn!(repository = %repo.name, error = %e, "could not prune old graphs; they stay until the next run");
                retention::Pruned::default()
            }
        }
    }

    pub fn make_plan(&self, repo: &Repo, branch: Option<&str>) -> Result<Plan, LiteError> {
        let current_branch = git::current_branch(&repo.root)?;
        let branch = branch
            .map(str::to_string)
            .unwrap_or_else(|| git::default_branch(&repo.root));
        let (dirty_files, rest) = git::dirty_files_while(&repo.root, |_| {
            let head_sha = git::head_sha(&repo.root)?;
            let conn = self.reader()?;
            let previous = store::latest_ready(&conn, &repo.name, &branch)?;
            let all_files = git::ls_files(&repo.root)?;
            let previous_commit = previous
                .as_ref()
                .and_then(|(_, g)| g["commit_sha"].as_str().map(str::to_string));
            let committed = match (&previous, &previous_commit, &head_sha) {
                (Some((_, g)), Some(prev), Some(head)) => {
                    Some(changed_since(&repo.root, g, prev, head))
                }
                _ => None,
            };
            Ok::<_, LiteError>((
                head_sha,
                conn,
                previous,
                previous_commit,
                all_files,
                committed,
            ))
        });
        let (head_sha, conn, previous, previous_commit, all_files, committed) = rest?;
        let dirty_files = dirty_files?;
        let (ambiguous, ambiguity_reason) =
            match ambiguity(current_branch.as_deref(), head_sha.is_some(), &branch) {
                Some(reason) => (true, Some(reason)),
                None => (false, None),
            };
        let source_count = all_files
            .iter()
            .filter(|p| index::language_of(p).is_some())
            .count();
        let mut changed = match committed {
            Some(mut changed) => {
                changed.extend(dirty_files.iter().cloned());
                changed
            }
            None => all_files,
        };
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

    /// Folds the write-ahead log back into the database file: a large graph's write leaves
    /// tens of megabytes in it (a run's writer turns automatic checkpoints off). Every caller of
    /// a run does it once the run is reported, outside the time to an answer. Milliseconds
    /// taken.
    pub fn checkpoint(&self) -> f64 {
        let t = std::time::Instant::now();
        let done = self.core.writer().and_then(|conn| {
            conn.execute_batch("PRAGMA wal_checkpoint(PASSIVE);")
                .map_err(LiteError::db("checkpointing the WAL"))
        });
        if let Err(e) = done {
            tracing::warn!(error = %e, "WAL checkpoint failed; SQLite will retry later");
        }
        t.elapsed().as_secs_f64() * 1000.0
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
