//! The playbook: the rules a repository's own rule files state (rules-gate.md §3-4).
//!
//! [`load_worktree`] reads the checked-out tracked files, [`load_at_commit`] the files of a
//! commit (what the gate binds: the base commit's rules). Each file applies under its
//! directory, narrowed by its globs; nearer files come later (higher `precedence`) and win.
//! Prose files (AGENTS.md, CLAUDE.md, ...) give one rule per H2 section, rule folders one rule
//! per file. A file that cannot be read well is a warning, never a dropped rule; files not
//! loaded are listed in `skipped` with why.

pub mod discover;
pub mod files;
pub mod frontmatter;
pub mod scope;
pub mod sections;

use crate::core::error::LiteError;
use crate::core::http::ApiError;
use crate::core::repos::ServedRepo;
use crate::core::util::sha256_hex;
use discover::{Candidate, Kind};
use files::{Content, Entry, Snapshot};
use frontmatter::Frontmatter;
use scope::{Applies, Scope};
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;

/// Rule files larger than this are skipped (and listed), never cut silently.
pub const MAX_FILE_BYTES: usize = 64 * 1024;

/// Part of every version hash: a change in how files are read changes the version too.
const FORMAT: &str = "nexus-rules-playbook/1";

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Note,
    Warning,
    Error,
}

impl Severity {
    pub fn parse(s: &str) -> Option<Severity> {
        match s.trim().to_ascii_lowercase().as_str() {
            "error" => Some(Severity::Error),
            "warning" | "warn" => Some(Severity::Warning),
            "note" | "info" => Some(Severity::Note),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// When an agent should read a rule (Cursor's four modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Activation {
    /// Always in context.
    Always,
    /// When a file matching its globs is in play.
    Auto,
    /// When the agent judges its description relevant.
    Agent,
    /// Only when asked for by name.
    Manual,
}

impl Activation {
    pub fn as_str(self) -> &'static str {
        match self {
            Activation::Always => "always",
            Activation::Auto => "auto",
            Activation::Agent => "agent",
            Activation::Manual => "manual",
        }
    }
}

/// One rule of the playbook.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    pub rule_id: String,
    pub title: String,
    pub severity: Severity,
    pub activation: Activation,
    pub scope_dir: String,
    pub globs: Vec<String>,
    /// Repo-relative path of the file stating the rule.
    pub source: String,
    /// The file's format (`agents-md`, `cursor-mdc`, `nexus-rule`, ...).
    pub format: &'static str,
    /// The H2 heading of a prose file's section; `None` for a whole file or its preamble.
    pub section: Option<String>,
    pub description: Option<String>,
    pub body: String,
    /// Analyser codes whose findings are violations of this rule (`bandit:B602`, `ruff:S*`).
    pub enforced_by: Vec<String>,
    /// A regex forbidden on added lines of the files matching `forbidPaths`.
    pub forbid: Option<String>,
    pub forbid_paths: Vec<String>,
    /// Whether the gate checks it (`enforcedBy` or `forbid`); prose rules are not.
    pub machine_checked: bool,
    /// Position in the playbook: a higher value is nearer and wins a conflict.
    pub precedence: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The blob id of the file (after following a symlink).
    #[serde(skip)]
    pub blob: String,
    #[serde(skip)]
    pub scope: Option<Scope>,
}

impl Rule {
    /// Whether the rule applies to the file `path` (its directory and globs).
    pub fn applies_to(&self, path: &str) -> bool {
        self.scope
            .as_ref()
            .is_none_or(|s| s.applies(path, false) == Applies::Yes)
    }

    /// Whether a finding `tool:code` is a violation of this rule (an `enforcedBy` entry equal to
    /// it, case-insensitive, or a prefix ending with `*`).
    pub fn enforces(&self, tool: &str, code: &str) -> bool {
        self.enforced_by
            .iter()
            .any(|e| enforced_by_matches(e, tool, code))
    }
}

/// Whether the `enforcedBy` entry `entry` (`tool:CODE` or `tool:PREFIX*`) covers `tool:code`.
pub fn enforced_by_matches(entry: &str, tool: &str, code: &str) -> bool {
    let Some((t, c)) = entry.split_once(':') else {
        return false;
    };
    if !t.trim().eq_ignore_ascii_case(tool) {
        return false;
    }
    let c = c.trim();
    match c.strip_suffix('*') {
        Some(prefix) => code
            .to_ascii_lowercase()
            .starts_with(&prefix.to_ascii_lowercase()),
        None => c.eq_ignore_ascii_case(code),
    }
}

/// A file not loaded, and why.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Skipped {
    pub path: String,
    pub reason: String,
    /// size | parse | empty | scope | duplicate | overridden | unreadable
    pub kind: &'static str,
}

/// A problem with a loaded file (its rules are kept).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FileWarning {
    pub path: String,
    pub message: String,
}

/// One loaded rule file.
#[derive(Debug, Clone)]
pub struct LoadedFile {
    pub path: String,
    pub kind: Kind,
    pub blob: String,
    pub scope: Scope,
    pub activation: Activation,
    pub rules: Vec<Rule>,
}

/// A repository's playbook at one state (work tree or commit).
#[derive(Debug, Clone)]
pub struct Playbook {
    /// The commit read, or HEAD for a work tree (`None` without commits).
    pub commit_sha: Option<String>,
    /// Work tree only: whether a rule file differs from HEAD.
    pub dirty: Option<bool>,
    /// In precedence order (root first, nearer later).
    pub files: Vec<LoadedFile>,
    pub skipped: Vec<Skipped>,
    pub warnings: Vec<FileWarning>,
    /// Every tracked path (to tell a directory from a file in [`Playbook::select`]).
    tracked: Vec<String>,
}

/// The rules that apply to a path, with the version of that selection.
#[derive(Debug, Clone)]
pub struct Selection<'a> {
    pub version: String,
    pub rules: Vec<&'a Rule>,
    pub skipped: Vec<Skipped>,
}

/// The playbook of the checked-out work tree (tracked files as they are on disk).
pub fn load_worktree(root: &Path) -> Result<Playbook, LiteError> {
    let snap = Snapshot::worktree(root)?;
    load(&snap)
}

/// The playbook at commit `rev` (what a gate on `rev..head` enforces).
pub fn load_at_commit(root: &Path, rev: &str) -> Result<Playbook, LiteError> {
    let snap = Snapshot::at_commit(root, rev)?;
    load(&snap)
}

fn skip(path: &str, kind: &'static str, reason: impl Into<String>) -> Skipped {
    Skipped {
        path: path.to_string(),
        reason: reason.into(),
        kind,
    }
}

/// Reads the playbook of a snapshot (see the module comment).
pub fn load(snap: &Snapshot) -> Result<Playbook, LiteError> {
    let mut candidates: Vec<(Candidate, &Entry)> = snap
        .entries
        .iter()
        .filter_map(|e| discover::classify(&e.path).map(|c| (c, e)))
        .collect();
    let mut skipped = Vec::new();
    // Codex: AGENTS.override.md replaces AGENTS.md in its directory.
    let overrides: HashSet<String> = candidates
        .iter()
        .filter(|(c, _)| c.kind == Kind::AgentsOverride)
        .map(|(c, _)| c.scope_dir.clone())
        .collect();
    candidates.retain(|(c, _)| {
        if c.kind == Kind::Agents && overrides.contains(&c.scope_dir) {
            let over = if c.scope_dir.is_empty() {
                "AGENTS.override.md".to_string()
            } else {
                format!("{}/AGENTS.override.md", c.scope_dir)
            };
            skipped.push(skip(
                &c.path,
                "overridden",
                format!("`{over}` in the same directory replaces it (Codex)"),
            ));
            return false;
        }
        true
    });
    // Symlinks point at another entry: read the link text, then the target.
    let links: Vec<&Entry> = candidates
        .iter()
        .filter(|(_, e)| e.symlink)
        .map(|(_, e)| *e)
        .collect();
    let link_texts = snap.read(&links, MAX_FILE_BYTES)?;
    let candidate_paths: HashSet<&str> = candidates
        .iter()
        .filter(|(_, e)| !e.symlink)
        .map(|(c, _)| c.path.as_str())
        .collect();
    // (candidate, entry whose content is read)
    let mut to_load: Vec<(Candidate, &Entry)> = Vec::new();
    for (c, e) in &candidates {
        if !e.symlink {
            to_load.push((c.clone(), e));
            continue;
        }
        let first = match link_texts.get(&e.path) {
            Some(Content::Text(t)) => files::resolve_link(&e.path, t.trim()),
            _ => None,
        };
        let (hops, end) = match first {
            Some(target) => follow_links(snap, target)?,
            None => (Vec::new(), None),
        };
        // `AGENTS.md` → `CLAUDE.md`, or `a` → `b` → `c` for a chain.
        let shown = hops
            .iter()
            .map(|h| format!("`{h}`"))
            .collect::<Vec<_>>()
            .join(" → ");
        let Some(target) = end else {
            let why = if hops.is_empty() {
                "a symlink to a file outside the repository; not followed".to_string()
            } else {
                format!(
                    "a symlink to {shown}, which leaves the repository, loops or is not a tracked file; not followed"
                )
            };
            skipped.push(skip(&c.path, "unreadable", why));
            continue;
        };
        if candidate_paths.contains(target.path.as_str()) {
            skipped.push(skip(
                &c.path,
                "duplicate",
                format!("a symlink to {shown}, which is loaded once under its own path"),
            ));
            continue;
        }
        to_load.push((c.clone(), target));
    }
    // Same content in the same directory (a copy instead of a symlink): loaded once.
    to_load.sort_by_key(|a| order_key(&a.0));
    let mut seen: HashMap<(String, String), String> = HashMap::new();
    to_load.retain(
        |(c, e)| match seen.get(&(c.scope_dir.clone(), e.blob.clone())) {
            Some(first) => {
                skipped.push(skip(
                    &c.path,
                    "duplicate",
                    format!("same content as `{first}` in the same directory; loaded once"),
                ));
                false
            }
            None => {
                seen.insert((c.scope_dir.clone(), e.blob.clone()), c.path.clone());
                true
            }
        },
    );
    let entries: Vec<&Entry> = to_load.iter().map(|(_, e)| *e).collect();
    let contents = snap.read(&entries, MAX_FILE_BYTES)?;
    let mut loaded = Vec::new();
    let mut warnings = Vec::new();
    for (c, e) in &to_load {
        let text = match contents.get(&e.path) {
            Some(Content::Text(t)) => t,
            Some(Content::TooBig(n)) => {
                skipped.push(skip(
                    &c.path,
                    "size",
                    format!(
                        "{} KiB, over the {} KiB cap for a rule file; split it",
                        n.div_ceil(1024),
                        MAX_FILE_BYTES / 1024
                    ),
                ));
                continue;
            }
            Some(Content::NotUtf8) => {
                skipped.push(skip(&c.path, "parse", "not UTF-8 text"));
                continue;
            }
            Some(Content::Unreadable(why)) => {
                skipped.push(skip(&c.path, "unreadable", why.clone()));
                continue;
            }
            None => {
                skipped.push(skip(
                    &c.path,
                    "unreadable",
                    "git did not return its content",
                ));
                continue;
            }
        };
        if text.trim().is_empty() {
            skipped.push(skip(&c.path, "empty", "the file is empty"));
            continue;
        }
        let (file, file_warnings) = parse_file(c, &e.blob, text);
        warnings.extend(file_warnings.into_iter().map(|m| FileWarning {
            path: c.path.clone(),
            message: m,
        }));
        loaded.push(file);
    }
    assign_ids_and_precedence(&mut loaded);
    let dirty = snap.commit.is_none().then(|| {
        loaded
            .iter()
            .any(|f| snap.dirty.iter().any(|d| d == &f.path))
    });
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(Playbook {
        commit_sha: snap.head.clone(),
        dirty,
        files: loaded,
        skipped,
        warnings,
        tracked: snap.entries.iter().map(|e| e.path.clone()).collect(),
    })
}

/// Symlinks followed in a chain before giving up (a loop, or a maze).
const MAX_LINK_HOPS: usize = 8;

/// Follows a symlink chain from the tracked path `target`: the paths passed through (`target`
/// first), and the regular tracked file it ends at, if it ends inside the repository.
fn follow_links(
    snap: &Snapshot,
    target: String,
) -> Result<(Vec<String>, Option<&Entry>), LiteError> {
    let mut hops = vec![target];
    while hops.len() <= MAX_LINK_HOPS {
        let Some(entry) = hops.last().and_then(|h| snap.entry(h)) else {
            return Ok((hops, None));
        };
        if !entry.symlink {
            return Ok((hops, Some(entry)));
        }
        let next = match snap.read(&[entry], MAX_FILE_BYTES)?.remove(&entry.path) {
            Some(Content::Text(t)) => files::resolve_link(&entry.path, t.trim()),
            _ => None,
        };
        match next {
            Some(n) if !hops.contains(&n) => hops.push(n),
            _ => return Ok((hops, None)),
        }
    }
    Ok((hops, None))
}

/// Root first, nearer later; within a directory by format, then path.
fn order_key(c: &Candidate) -> (usize, String, Kind, String) {
    let depth = if c.scope_dir.is_empty() {
        0
    } else {
        c.scope_dir.split('/').count()
    };
    (depth, c.scope_dir.clone(), c.kind, c.path.clone())
}

/// The globs, activation and description a file's frontmatter gives, per format.
fn file_settings(kind: Kind, fm: &mut Frontmatter) -> (Vec<String>, Activation, Option<String>) {
    let description = fm.str("description").map(|d| first_line(&d));
    let mut globs = fm.list("globs");
    let activation = match kind {
        Kind::CursorRule => {
            let always = fm.bool("alwaysApply");
            if always == Some(true) {
                Activation::Always
            } else if !globs.is_empty() {
                Activation::Auto
            } else if description.is_some() {
                Activation::Agent
            } else {
                Activation::Manual
            }
        }
        Kind::WindsurfRule => match fm.str("trigger").as_deref() {
            Some("always_on") => Activation::Always,
            Some("glob") => Activation::Auto,
            Some("model_decision") => Activation::Agent,
            Some("manual") => Activation::Manual,
            Some(other) => {
                fm.warnings.push(format!(
                    "`trigger: {other}` is not always_on, glob, model_decision or manual; read as always_on"
                ));
                Activation::Always
            }
            None if !globs.is_empty() => Activation::Auto,
            None => Activation::Always,
        },
        Kind::ContinueRule => match fm.bool("alwaysApply") {
            Some(true) => Activation::Always,
            Some(false) if !globs.is_empty() => Activation::Auto,
            Some(false) if description.is_some() => Activation::Agent,
            Some(false) => Activation::Manual,
            None if !globs.is_empty() => Activation::Auto,
            None => Activation::Always,
        },
        Kind::CopilotScoped => {
            globs.extend(fm.list("applyTo"));
            if globs.is_empty() {
                fm.warnings.push(
                    "no `applyTo`: Copilot does not apply this file automatically".to_string(),
                );
                Activation::Manual
            } else {
                Activation::Auto
            }
        }
        _ => {
            globs.extend(fm.list("paths"));
            globs.extend(fm.list("applyTo"));
            if fm.bool("alwaysApply") == Some(true) || globs.is_empty() {
                Activation::Always
            } else {
                Activation::Auto
            }
        }
    };
    let mut unique = Vec::new();
    for g in globs {
        if !unique.contains(&g) {
            unique.push(g);
        }
    }
    (unique, activation, description)
}

fn first_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn cut_title(s: &str) -> String {
    let s = first_line(s);
    if s.chars().count() > 120 {
        format!("{}…", s.chars().take(119).collect::<String>())
    } else {
        s
    }
}

/// The rules of one file, before ids and precedence are assigned.
fn parse_file(c: &Candidate, blob: &str, text: &str) -> (LoadedFile, Vec<String>) {
    let mut fm = frontmatter::parse(text);
    let body = &text[fm.body_start..];
    let (globs, activation, description) = file_settings(c.kind, &mut fm);
    let scope = Scope::new(&c.scope_dir, globs.clone());
    let severity = match fm.str("severity") {
        Some(s) => Severity::parse(&s).unwrap_or_else(|| {
            fm.warnings.push(format!(
                "`severity: {s}` is not error, warning or note; taken as warning"
            ));
            Severity::Warning
        }),
        None => {
            if c.kind == Kind::NexusRule {
                fm.warnings.push(
                    "no `severity:` (error, warning or note); taken as warning, which never blocks"
                        .to_string(),
                );
            }
            Severity::Warning
        }
    };
    let (enforced_by, forbid, forbid_paths) = if c.kind == Kind::NexusRule {
        machine_fields(&mut fm, &globs)
    } else {
        (Vec::new(), None, Vec::new())
    };
    let mut warnings = std::mem::take(&mut fm.warnings);
    warnings.extend(scope.bad_globs.iter().cloned());
    let name = fm.str("name");
    let base_id = name.clone().unwrap_or_else(|| c.path.clone());
    let stem = file_stem(&c.path);
    let template = Rule {
        rule_id: String::new(),
        title: String::new(),
        severity,
        activation,
        scope_dir: c.scope_dir.clone(),
        globs: globs.clone(),
        source: c.path.clone(),
        format: c.kind.name(),
        section: None,
        description: description.clone(),
        body: String::new(),
        machine_checked: !enforced_by.is_empty() || forbid.is_some(),
        enforced_by,
        forbid,
        forbid_paths,
        precedence: 0,
        warnings: Vec::new(),
        blob: blob.to_string(),
        scope: Some(scope.clone()),
    };
    let mut rules = Vec::new();
    let parts = if c.kind.prose() {
        sections::split_h2(body)
    } else {
        vec![sections::Section {
            heading: None,
            text: body.to_string(),
        }]
    };
    let has_h2 = parts.len() > 1;
    let mut slugs: HashMap<String, usize> = HashMap::new();
    for part in parts {
        match &part.heading {
            None => {
                if has_h2 && !sections::has_content_beyond_h1(&part.text) {
                    continue;
                }
                let title = description
                    .clone()
                    .or_else(|| sections::first_heading(&part.text))
                    .unwrap_or_else(|| stem.clone());
                rules.push(Rule {
                    rule_id: base_id.clone(),
                    title: cut_title(&title),
                    body: part.text.trim().to_string(),
                    ..template.clone()
                });
            }
            Some(heading) => {
                let slug = sections::slug(heading);
                let n = slugs.entry(slug.clone()).or_insert(0);
                *n += 1;
                let slug = if *n > 1 { format!("{slug}-{n}") } else { slug };
                rules.push(Rule {
                    rule_id: format!("{base_id}#{slug}"),
                    title: cut_title(heading),
                    section: Some(heading.clone()),
                    body: part.text.trim().to_string(),
                    ..template.clone()
                });
            }
        }
    }
    let file = LoadedFile {
        path: c.path.clone(),
        kind: c.kind,
        blob: blob.to_string(),
        scope,
        activation,
        rules,
    };
    (file, warnings)
}

/// `enforcedBy`, `forbid` and its `paths` of a `.nexus/rules` file, checked.
fn machine_fields(
    fm: &mut Frontmatter,
    globs: &[String],
) -> (Vec<String>, Option<String>, Vec<String>) {
    let mut enforced_by = Vec::new();
    for e in fm.list("enforcedBy") {
        match e.split_once(':') {
            Some((tool, code)) if !tool.trim().is_empty() && !code.trim().is_empty() => {
                enforced_by.push(format!("{}:{}", tool.trim().to_ascii_lowercase(), code.trim()))
            }
            _ => fm.warnings.push(format!(
                "`enforcedBy` entry `{e}` is not `<tool>:<code>` (e.g. bandit:B602, ruff:S608); it is ignored"
            )),
        }
    }
    let forbid = fm
        .str("forbid")
        .and_then(|re| match regex::Regex::new(&re) {
            Ok(_) => Some(re),
            Err(e) => {
                fm.warnings.push(format!(
                "`forbid` is not a valid regex ({e}); the rule is listed but not machine-checked"
            ));
                None
            }
        });
    let paths = if forbid.is_some() {
        globs.to_vec()
    } else {
        Vec::new()
    };
    (enforced_by, forbid, paths)
}

fn file_stem(path: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    let file = file.strip_suffix(".instructions.md").unwrap_or(file);
    file.split('.')
        .find(|s| !s.is_empty())
        .unwrap_or(file)
        .to_string()
}

/// Unique ids (a clash takes `-2`, `-3`) and precedence, in file order.
fn assign_ids_and_precedence(files: &mut [LoadedFile]) {
    let mut used: HashSet<String> = HashSet::new();
    let mut precedence = 0;
    for f in files.iter_mut() {
        for r in &mut f.rules {
            if used.contains(&r.rule_id) {
                let mut n = 2;
                while used.contains(&format!("{}-{n}", r.rule_id)) {
                    n += 1;
                }
                let id = format!("{}-{n}", r.rule_id);
                r.warnings.push(format!(
                    "the id `{}` is taken by an earlier rule; this one is `{id}`",
                    r.rule_id
                ));
                r.rule_id = id;
            }
            used.insert(r.rule_id.clone());
            r.precedence = precedence;
            precedence += 1;
        }
    }
}

fn version_of<'a>(files: impl Iterator<Item = &'a LoadedFile>) -> String {
    let mut lines: Vec<String> = files
        .map(|f| {
            format!(
                "{}\0{}\0{}\0{}\0{}\n",
                f.path,
                f.blob,
                f.scope.dir,
                f.scope.globs.join("\u{1f}"),
                f.activation.as_str()
            )
        })
        .collect();
    lines.sort();
    let mut all = String::from(FORMAT);
    all.push('\n');
    for l in lines {
        all.push_str(&l);
    }
    sha256_hex(all.as_bytes())
}

impl Playbook {
    pub fn rules(&self) -> impl Iterator<Item = &Rule> {
        self.files.iter().flat_map(|f| f.rules.iter())
    }

    pub fn rule(&self, rule_id: &str) -> Option<&Rule> {
        self.rules().find(|r| r.rule_id == rule_id)
    }

    /// The version of the whole playbook.
    pub fn version(&self) -> String {
        version_of(self.files.iter())
    }

    /// The nearest rule applying to `path` whose `enforcedBy` covers `tool:code`.
    pub fn rule_for_finding(&self, tool: &str, code: &str, path: &str) -> Option<&Rule> {
        self.rules()
            .filter(|r| r.enforces(tool, code) && r.applies_to(path))
            .max_by_key(|r| r.precedence)
    }

    /// The rules with a `forbid` regex that apply to `path`.
    pub fn forbid_rules_for(&self, path: &str) -> Vec<&Rule> {
        self.rules()
            .filter(|r| r.forbid.is_some() && r.applies_to(path))
            .collect()
    }

    /// The rules that apply to `path` (a file or directory; all rules without one), the
    /// version of the files selected, and the files left out for scope (with the others
    /// skipped while loading).
    pub fn select(&self, path: Option<&str>) -> Selection<'_> {
        let mut skipped = self.skipped.clone();
        let Some(path) = path.map(|p| p.trim_matches('/')) else {
            return Selection {
                version: self.version(),
                rules: self.rules().collect(),
                skipped,
            };
        };
        let prefix = format!("{path}/");
        let is_dir = path.is_empty() || self.tracked.iter().any(|t| t.starts_with(&prefix));
        let mut chosen = Vec::new();
        for f in &self.files {
            match f.scope.applies(path, is_dir) {
                Applies::Yes => chosen.push((specificity(f), f)),
                Applies::Undecided => chosen.push((undecided_specificity(f, path), f)),
                Applies::No(why) => skipped.push(skip(&f.path, "scope", why)),
            }
        }
        skipped.sort_by(|a, b| a.path.cmp(&b.path));
        let version = version_of(chosen.iter().map(|(_, f)| *f));
        // Rules written for this path first (nearest first), so a cut answer keeps them.
        chosen.sort_by(|(a, fa), (b, fb)| {
            b.cmp(a).then_with(|| match a {
                Specificity::General => std::cmp::Ordering::Equal,
                _ => fb.scope.dir.len().cmp(&fa.scope.dir.len()),
            })
        });
        Selection {
            version,
            rules: chosen.iter().flat_map(|(_, f)| f.rules.iter()).collect(),
            skipped,
        }
    }
}

/// How closely a selected file targets the path asked about, least first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Specificity {
    /// Applies everywhere (a root file without globs) or cannot be decided for a directory.
    General,
    /// Its directory is below the root and contains the path.
    Directory,
    /// Its globs match the path.
    Globs,
}

fn specificity(f: &LoadedFile) -> Specificity {
    if !f.scope.globs.is_empty() {
        Specificity::Globs
    } else if !f.scope.dir.is_empty() {
        Specificity::Directory
    } else {
        Specificity::General
    }
}

/// A directory inside a nested scope is that scope's, whatever its globs say of its files.
fn undecided_specificity(f: &LoadedFile, dir: &str) -> Specificity {
    let d = f.scope.dir.as_str();
    if !d.is_empty() && (dir == d || dir.strip_prefix(d).is_some_and(|r| r.starts_with('/'))) {
        Specificity::Directory
    } else {
        Specificity::General
    }
}

/// A rule that differs between two playbooks.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct RuleChange {
    pub rule_id: String,
    pub title: String,
    pub source: String,
    /// What changed, in words.
    pub what: String,
}

/// How the head playbook differs from the base one (rules-gate.md §4: rules added or changed
/// in the diff are unreviewed, deleted or weakened ones are reported).
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PlaybookDiff {
    pub added: Vec<RuleChange>,
    pub changed: Vec<RuleChange>,
    pub removed: Vec<RuleChange>,
    /// Rules still present whose enforcement is lower at head (severity, analyser codes, regex).
    pub weakened: Vec<RuleChange>,
}

impl PlaybookDiff {
    /// The ids of head rules nobody reviewed yet (added or changed): listed, not enforced.
    pub fn unreviewed(&self) -> Vec<&str> {
        self.added
            .iter()
            .chain(self.changed.iter())
            .map(|c| c.rule_id.as_str())
            .collect()
    }
}

fn change(r: &Rule, what: impl Into<String>) -> RuleChange {
    RuleChange {
        rule_id: r.rule_id.clone(),
        title: r.title.clone(),
        source: r.source.clone(),
        what: what.into(),
    }
}

/// Compares the rules of `base` and `head` by ruleId.
pub fn diff_playbooks(base: &Playbook, head: &Playbook) -> PlaybookDiff {
    let mut diff = PlaybookDiff::default();
    let base_rules: HashMap<&str, &Rule> = base.rules().map(|r| (r.rule_id.as_str(), r)).collect();
    let head_ids: HashSet<&str> = head.rules().map(|r| r.rule_id.as_str()).collect();
    for h in head.rules() {
        let Some(b) = base_rules.get(h.rule_id.as_str()) else {
            diff.added.push(change(h, "added"));
            continue;
        };
        let mut what = Vec::new();
        if b.body != h.body {
            what.push("text");
        }
        if b.severity != h.severity {
            what.push("severity");
        }
        if b.globs != h.globs || b.scope_dir != h.scope_dir {
            what.push("scope");
        }
        if b.activation != h.activation {
            what.push("activation");
        }
        if b.enforced_by != h.enforced_by {
            what.push("enforcedBy");
        }
        if b.forbid != h.forbid || b.forbid_paths != h.forbid_paths {
            what.push("forbid");
        }
        if !what.is_empty() {
            diff.changed
                .push(change(h, format!("changed: {}", what.join(", "))));
        }
        let mut weaker = Vec::new();
        if h.severity < b.severity {
            weaker.push(format!(
                "severity {} → {}",
                b.severity.as_str(),
                h.severity.as_str()
            ));
        }
        let dropped: BTreeSet<&String> = b
            .enforced_by
            .iter()
            .filter(|e| !h.enforced_by.contains(e))
            .collect();
        if !dropped.is_empty() {
            weaker.push(format!(
                "no longer enforced by {}",
                dropped.into_iter().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
        if b.forbid.is_some() && b.forbid != h.forbid {
            weaker.push("forbid regex removed or replaced".to_string());
        }
        if b.globs != h.globs && !b.globs.is_empty() {
            weaker.push("globs changed: it may cover fewer files".to_string());
        }
        if !weaker.is_empty() {
            diff.weakened.push(change(h, weaker.join("; ")));
        }
    }
    for b in base.rules() {
        if !head_ids.contains(b.rule_id.as_str()) {
            diff.removed.push(change(b, "deleted"));
        }
    }
    diff
}

/// The JSON of one rule as answered.
pub fn rule_json(r: &Rule) -> Value {
    serde_json::to_value(r).unwrap_or(Value::Null)
}

/// `GET /playbook`: the selection for `path` (rules written for it first), or `{unchanged,
/// version}` when `since` is current.
pub fn answer(
    repo: &ServedRepo,
    path: Option<&str>,
    since: Option<&str>,
) -> Result<Value, ApiError> {
    let pb = load_worktree(&repo.root)?;
    let sel = pb.select(path);
    if since.is_some_and(|s| s.trim().eq_ignore_ascii_case(&sel.version)) {
        return Ok(json!({"unchanged": true, "version": sel.version}));
    }
    Ok(json!({
        "repository": repo.name,
        "version": sel.version,
        "unchanged": false,
        "path": path,
        "commitSha": pb.commit_sha,
        "dirty": pb.dirty,
        "rules": sel.rules.iter().map(|r| rule_json(r)).collect::<Vec<_>>(),
        "skipped": sel.skipped,
        "warnings": pb.warnings,
        // The whole selection is one page: nexus-mcp's cursor continues it where a budget cut it.
        "nextCursor": null,
    }))
}
