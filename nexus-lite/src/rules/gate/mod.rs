//! The CI gate (rules-gate.md §5): on `base...head`, run the installed analysers on the
//! changed files as committed at head ([`analysers`], [`snapshot`]), keep the findings on
//! added or changed lines ([`diff`]), map severities ([`severity`]), apply the base commit's
//! machine-checkable playbook rules ([`binding`]), and produce one record per (repository,
//! pr, head sha) ([`model`]) that is stored ([`record`]), answered to agents ([`answer`]) and
//! written as SARIF 2.1.0 for code-scanning upload ([`sarif`]). The HTTP routes are in
//! [`api`]; `nexus-mcp gate` drives [`run`].
//!
//! Never "clean" by default: a missing or crashing analyser makes the run partial or
//! unavailable, and the verdict is derived from the evidence ([`model::GateRecord::verdict`]).
//!
//! Suppressions: bandit runs twice, as configured and with `--ignore-nosec`, so bandit itself
//! says what a `# nosec` silences (its spellings, its reach over a multi-line statement). A
//! `# nosec` the change adds is honoured and listed as unreviewed (no pass is witnessed); one
//! it did not add, on a statement it edits, is not the reviewers' word on the new code, and
//! its findings count ([`binding::stale_suppressions`]).

pub mod analysers;
pub mod answer;
pub mod api;
pub mod baseline;
pub mod binding;
pub mod checked;
pub mod diff;
pub mod model;
pub mod record;
pub mod rule_help;
pub mod sarif;
pub mod severity;
pub mod snapshot;
pub mod tools;

use crate::core::error::LiteError;
use crate::rules::playbook;
use binding::RuleSpec;
use model::{GateRecord, ToolRun, ToolStatus, UnreviewedRule};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Where the gate reads a commit's playbook from (the rules domain's loader; a fixed list in
/// tests).
pub trait PlaybookSource {
    /// The playbook's rules as committed at `commit` (only the fields the gate needs).
    fn rules_at(&self, repo: &Path, commit: &str) -> Result<Vec<RuleSpec>, String>;

    /// Rules head adds, changes, deletes or weakens against base: listed, not enforced.
    fn unreviewed(
        &self,
        repo: &Path,
        base: &str,
        head: &str,
    ) -> Result<Vec<UnreviewedRule>, String> {
        Ok(binding::unreviewed(
            &self.rules_at(repo, base)?,
            &self.rules_at(repo, head)?,
        ))
    }
}

/// The repository's own playbook, read by the rules domain at each commit (once per commit:
/// the gate asks for base's rules and then for base against head).
#[derive(Default)]
pub struct RepoPlaybook {
    loaded: Mutex<BTreeMap<String, Arc<playbook::Playbook>>>,
}

impl RepoPlaybook {
    fn load(&self, repo: &Path, rev: &str) -> Result<Arc<playbook::Playbook>, String> {
        let cached = self.loaded.lock().ok().and_then(|m| m.get(rev).cloned());
        if let Some(pb) = cached {
            return Ok(pb);
        }
        let pb = Arc::new(playbook::load_at_commit(repo, rev).map_err(|e| e.to_string())?);
        if let Ok(mut m) = self.loaded.lock() {
            m.insert(rev.to_string(), pb.clone());
        }
        Ok(pb)
    }
}

impl PlaybookSource for RepoPlaybook {
    fn rules_at(&self, repo: &Path, commit: &str) -> Result<Vec<RuleSpec>, String> {
        let pb = self.load(repo, commit)?;
        Ok(pb
            .rules()
            .map(|r| RuleSpec {
                rule_id: r.rule_id.clone(),
                title: r.title.clone(),
                severity: Some(r.severity.as_str().to_string()),
                enforced_by: r.enforced_by.clone(),
                forbid: r.forbid.clone(),
                paths: r.forbid_paths.clone(),
                scope_dir: r.scope_dir.clone(),
                source: r.source.clone(),
                fingerprint: r.blob.clone(),
            })
            .collect())
    }

    fn unreviewed(
        &self,
        repo: &Path,
        base: &str,
        head: &str,
    ) -> Result<Vec<UnreviewedRule>, String> {
        let (base, head) = (self.load(repo, base)?, self.load(repo, head)?);
        let diff = playbook::diff_playbooks(&base, &head);
        let mut out = Vec::new();
        for (change, list) in [
            ("added", &diff.added),
            ("changed", &diff.changed),
            ("deleted", &diff.removed),
            ("weakened", &diff.weakened),
        ] {
            out.extend(list.iter().map(|c| UnreviewedRule {
                rule_id: c.rule_id.clone(),
                title: c.title.clone(),
                change: change.into(),
                path: c.source.clone(),
                what: Some(c.what.clone()),
            }));
        }
        Ok(out)
    }
}

/// A fixed playbook, the same at every commit.
pub struct FixedPlaybook(pub Vec<RuleSpec>);

impl PlaybookSource for FixedPlaybook {
    fn rules_at(&self, _repo: &Path, _commit: &str) -> Result<Vec<RuleSpec>, String> {
        Ok(self.0.clone())
    }
}

/// One gate run's inputs.
#[derive(Debug, Clone)]
pub struct GateRequest<'a> {
    /// Root of the git work tree (only its object store is read).
    pub repo_root: &'a Path,
    /// The repository's name as the Nexus API knows it (`owner/name`).
    pub repository: String,
    pub base: &'a str,
    pub head: &'a str,
    pub pr: Option<u64>,
    pub options: tools::Options,
}

/// Runs the gate and returns the record to store (not stored here).
pub fn run(
    req: &GateRequest<'_>,
    playbook: &(dyn PlaybookSource + Sync),
) -> Result<GateRecord, LiteError> {
    let whole = req.options.whole_files;
    let mut diff = diff::read(req.repo_root, req.base, req.head)?;
    if whole {
        diff.files = diff::whole_files(req.repo_root, &diff.revisions.head_sha)?;
    }
    tracing::info!(
        files = diff.files.len(),
        base = %diff.revisions.base_sha,
        head = %diff.revisions.head_sha,
        "gate: diff read"
    );
    // The playbook is read from git while the analysers run.
    let (analysis, (base_rules, unreviewed)) = std::thread::scope(|s| {
        let diff = &diff;
        let read = s.spawn(move || {
            let revs = &diff.revisions;
            (
                playbook.rules_at(req.repo_root, &revs.base_sha),
                playbook.unreviewed(req.repo_root, &revs.base_sha, &revs.head_sha),
            )
        });
        let analysis = analysers::run(req.repo_root, diff, &req.options);
        let read = read.join().unwrap_or_else(|_| {
            let e = "the thread reading the playbook failed".to_string();
            (Err(e.clone()), Err(e))
        });
        (analysis, read)
    });
    let mut analysis = analysis?;
    for f in &mut diff.files {
        // A whole-file run reports every line: git's count of lines is not asked.
        if !whole && analysis.lone_cr.contains(&f.path) {
            f.lines_unknown = true;
            analysis.skipped.push(model::SkippedFile {
                path: f.path.clone(),
                tool: None,
                reason: "it ends lines with a lone CR, which Python counts as a line end and git does not, so which lines changed is unknown: every finding in it is reported as the change's".into(),
            });
        }
    }
    let (base_rules, playbook_run) = match base_rules {
        Ok(rules) => {
            let checkable = rules
                .iter()
                .filter(|r| !r.enforced_by.is_empty() || r.forbid.is_some())
                .count();
            let run = ToolRun {
                name: "playbook".into(),
                version: None,
                exit_code: None,
                status: if checkable == 0 {
                    ToolStatus::Skipped
                } else {
                    ToolStatus::Ok
                },
                files: diff.files.len(),
                findings: 0,
                findings_on_unchanged_lines: 0,
                errors: Vec::new(),
                reason: Some(format!(
                    "{checkable} machine-checkable rule(s) (enforcedBy or forbid) in the playbook at base {}",
                    short(&diff.revisions.base_sha)
                )),
            };
            (rules, run)
        }
        Err(e) => {
            let run = ToolRun {
                name: "playbook".into(),
                version: None,
                exit_code: None,
                status: ToolStatus::Failed,
                files: diff.files.len(),
                findings: 0,
                findings_on_unchanged_lines: 0,
                errors: vec![e.clone()],
                reason: Some(format!(
                    "the playbook at base {} could not be read, so its rules were not enforced: {e}",
                    short(&diff.revisions.base_sha)
                )),
            };
            (Vec::new(), run)
        }
    };
    // A whole-file run edits nothing: every `# nosec` there is the reviewers' word.
    if !whole {
        let stale = binding::stale_suppressions(&diff, &analysis.suppressed);
        analysis.findings.extend(stale);
    }
    let mut bound = binding::bind(&diff, &analysis.findings, &base_rules);
    let waivers = waive(
        req.repo_root,
        &diff,
        std::mem::take(&mut bound.violations),
        &analysis.findings,
        &analysis.tools,
    );
    bound.violations = waivers.kept;
    let mut unreviewed = match unreviewed {
        Ok(list) => list,
        Err(e) => {
            tracing::warn!(error = %e, "gate: cannot read head's playbook to list unreviewed rules");
            Vec::new()
        }
    };
    unreviewed.extend(binding::changed_analyser_configs(&diff, &analysis.configs));
    unreviewed.extend(binding::added_suppressions(&diff));
    unreviewed.extend(
        diff.files
            .iter()
            .filter(|f| f.path == baseline::BASELINE_FILE)
            .map(|f| UnreviewedRule {
                rule_id: format!("config:{}", f.path),
                title: format!(
                    "the baseline {} changed; the base's waivers were applied, review the change before it waives anything",
                    f.path
                ),
                change: "baseline".into(),
                path: f.path.clone(),
                what: None,
            }),
    );
    for tool in &mut analysis.tools {
        tool.findings_on_unchanged_lines = bound
            .unchanged_line_findings
            .get(&tool.name)
            .copied()
            .unwrap_or(0);
    }
    let mut tools = analysis.tools;
    let mut playbook_run = playbook_run;
    playbook_run.findings = bound
        .violations
        .iter()
        .filter(|v| base_rules.iter().any(|r| r.rule_id == v.rule_id))
        .count();
    playbook_run.errors.extend(bound.warnings.iter().cloned());
    tools.push(playbook_run);
    let mut skipped = analysis.skipped;
    let cr_listed = &analysis.lone_cr;
    skipped.extend(diff.files.iter().filter(|f| !whole && f.lines_unknown && !cr_listed.contains(&f.path)).map(|f| {
        model::SkippedFile {
            path: f.path.clone(),
            tool: None,
            reason: "git would not show its change as text, so which lines changed is unknown: every finding in it is reported as the change's".into(),
        }
    }));
    let truncated_note = (!skipped.is_empty()).then(|| {
        format!(
            "{} changed file(s) were not fully analysed (see skippedFiles); findings in them are unknown",
            skipped.len()
        )
    });
    Ok(GateRecord {
        repository: req.repository.clone(),
        pr: req.pr,
        base_ref: Some(req.base.to_string()),
        head_ref: Some(req.head.to_string()),
        base_sha: diff.revisions.base_sha.clone(),
        merge_base_sha: Some(diff.revisions.merge_base_sha.clone()),
        head_sha: diff.revisions.head_sha.clone(),
        head_tree_sha: Some(diff.revisions.head_tree_sha.clone()),
        files_changed: Some(diff.files.len()),
        tools,
        truncated: Some(!skipped.is_empty()),
        truncated_note,
        skipped_files: skipped,
        violations: bound.violations,
        unreviewed_rules: unreviewed,
        enforced_rules: bound.enforced,
        checked_rules: analysis.checked,
        waived: waivers.waived,
        waiver_notes: waivers.notes,
        analyzed_at: crate::core::util::rfc3339(crate::core::util::now_epoch()),
        generator: Some(crate::core::config::GENERATOR.to_string()),
    })
}

/// Applies the base commit's baseline to `violations` (lines read at head); `findings` (every
/// finding of the changed files, on any line) say which waivers still name something, for the
/// analysers that ran (`tools`). An unreadable baseline waives nothing and says so.
fn waive(
    repo: &Path,
    diff: &diff::Diff,
    violations: Vec<model::Violation>,
    findings: &[analysers::Finding],
    tools: &[ToolRun],
) -> baseline::Applied {
    let base = &diff.revisions.base_sha;
    let book = match baseline::at_commit(repo, base) {
        Ok(b) => b,
        Err(e) => {
            return baseline::Applied {
                kept: violations,
                waived: Vec::new(),
                notes: vec![model::WaiverNote {
                    rule: String::new(),
                    path: baseline::BASELINE_FILE.into(),
                    fingerprint: String::new(),
                    state: "unreadable".into(),
                    message: e.to_string(),
                }],
            };
        }
    };
    let head = &diff.revisions.head_sha;
    let prints = head_fingerprints(repo, head, &violations);
    let rules: Vec<String> = findings.iter().map(|f| f.rule_id()).collect();
    let keys = findings.iter().zip(&rules);
    let found = fingerprints_at(
        repo,
        head,
        keys.clone()
            .map(|(f, r)| (r.as_str(), f.path.as_str(), f.line)),
    );
    let present: Vec<(String, String, String)> = keys
        .zip(found)
        .map(|((f, r), print)| (r.clone(), f.path.clone(), print))
        .collect();
    let changed: Vec<&str> = diff.files.iter().map(|f| f.path.as_str()).collect();
    let today = crate::core::util::rfc3339(crate::core::util::now_epoch());
    let mut applied = baseline::apply(
        &book,
        violations,
        &prints,
        &changed,
        &present,
        today.get(..10).unwrap_or(""),
    );
    // An analyser that did not run found nothing: its waivers are not stale for that.
    let ran = |rule: &str| {
        let tool = rule.split(':').next().unwrap_or_default();
        tools
            .iter()
            .any(|t| t.name == tool && t.status == ToolStatus::Ok)
    };
    applied
        .notes
        .retain(|n| n.state != "unmatched" || ran(&n.rule));
    applied
}

/// Each violation's baseline fingerprint, from its line as committed at `head`.
pub fn head_fingerprints(repo: &Path, head: &str, violations: &[model::Violation]) -> Vec<String> {
    fingerprints_at(
        repo,
        head,
        violations
            .iter()
            .map(|v| (v.rule_id.as_str(), v.path.as_str(), v.line)),
    )
}

/// The baseline fingerprint of each (rule, path, line), its line read as committed at `head`
/// (each file once).
fn fingerprints_at<'a>(
    repo: &Path,
    head: &str,
    items: impl IntoIterator<Item = (&'a str, &'a str, Option<u32>)>,
) -> Vec<String> {
    let mut files: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    baseline::fingerprints(items, |path, line| {
        let lines = files.entry(path.to_string()).or_insert_with(|| {
            crate::core::git::show(repo, head, path)
                .map(|b| {
                    String::from_utf8_lossy(&b)
                        .lines()
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        });
        lines
            .get(usize::try_from(line).ok()?.checked_sub(1)?)
            .cloned()
    })
}

/// The first 12 characters of a sha, for messages.
pub fn short(sha: &str) -> &str {
    sha.get(..12).unwrap_or(sha)
}

/// The playbook the gate enforces: the repository's own, read by the rules domain.
pub fn default_playbook() -> RepoPlaybook {
    RepoPlaybook::default()
}
