//! Skills: the team's tracked `SKILL.md` files (agentskills.io): those in skills folders, plus
//! folders `.nexus/skills.yaml` includes; other SKILL.md files (samples) are listed as skipped.
//! `list` gives each one's name and a one-line description; `fetch` gives the full Markdown and
//! counts the fetch.
//! The agentskills.io field limits are checked as warnings: a skill breaking them is still
//! listed, since it is what the repository publishes.

use crate::core::http::ApiError;
use crate::core::repos::ServedRepo;
use crate::core::util::{near_names, now_epoch, sha256_hex};
use crate::rules::playbook::discover;
use crate::rules::playbook::files::{Content, Entry, Snapshot};
use crate::rules::playbook::frontmatter::{self, Frontmatter};
use crate::rules::state::RulesState;
use serde_json::{Value, json};
use std::collections::HashMap;

/// The team's configuration of which other folders hold its skills.
const SKILLS_CONFIG: &str = ".nexus/skills.yaml";
/// A SKILL.md larger than this is listed as skipped, not read.
const MAX_SKILL_BYTES: usize = 256 * 1024;
/// The listing's description is its first line, cut to this many characters.
const LISTED_DESCRIPTION_CHARS: usize = 200;
/// The frontmatter keys agentskills.io defines.
const KNOWN_KEYS: [&str; 6] = [
    "name",
    "description",
    "license",
    "allowed-tools",
    "metadata",
    "compatibility",
];

struct Skill {
    name: String,
    path: String,
    digest: String,
    markdown: String,
    fm: Frontmatter,
    description: String,
    warnings: Vec<String>,
}

/// The directory holding a SKILL.md (`""` at the root).
fn directory_name(path: &str) -> &str {
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    dir.rsplit('/').next().unwrap_or(dir)
}

/// agentskills.io: 1-64 characters, lowercase letters, digits and single inner hyphens.
fn name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() || name.chars().count() > 64 {
        return Some("must be 1 to 64 characters");
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Some("may use only lowercase letters, digits and hyphens");
    }
    if name.starts_with('-') || name.ends_with('-') || name.contains("--") {
        return Some("may not start or end with a hyphen or hold two in a row");
    }
    None
}

fn parse(path: &str, markdown: String) -> Skill {
    let fm = frontmatter::parse(&markdown);
    let dir = directory_name(path);
    let mut warnings: Vec<String> = fm.warnings.clone();
    if !fm.present {
        warnings.push("no frontmatter: agentskills.io requires `name` and `description`".into());
    }
    let name = match fm.str("name") {
        Some(n) => n,
        None => {
            warnings.push(format!(
                "no `name`; the directory name `{dir}` is used instead"
            ));
            dir.to_string()
        }
    };
    if let Some(p) = name_problem(&name) {
        warnings.push(format!("name `{name}` {p} (agentskills.io)"));
    }
    if name != dir {
        warnings.push(format!(
            "name `{name}` differs from its directory `{dir}` (agentskills.io wants them equal)"
        ));
    }
    let description = fm.str("description").unwrap_or_default();
    match description.chars().count() {
        0 => warnings.push("no `description`: agents cannot tell when to use it".into()),
        n if n > 1024 => warnings.push(format!(
            "description is {n} characters; agentskills.io allows 1024"
        )),
        _ => {}
    }
    if let Some(c) = fm.str("compatibility")
        && c.chars().count() > 500
    {
        warnings.push("compatibility is over 500 characters (agentskills.io)".into());
    }
    for key in fm.fields.keys() {
        if !KNOWN_KEYS.contains(&key.as_str()) {
            warnings.push(format!(
                "`{key}` is not an agentskills.io field (kept; put custom fields under `metadata`)"
            ));
        }
    }
    Skill {
        name,
        path: path.to_string(),
        digest: format!("sha256:{}", sha256_hex(markdown.as_bytes())),
        markdown,
        fm,
        description,
        warnings,
    }
}

/// Folders whose SKILL.md files the team serves besides its skills folders: `include:` in
/// `.nexus/skills.yaml` (e.g. `include: [examples/skills/sample_skills]`), and what was wrong
/// with that file.
fn configured_folders(snap: &Snapshot) -> Result<(Vec<String>, Vec<String>), ApiError> {
    let Some(entry) = snap.entry(SKILLS_CONFIG).filter(|e| !e.symlink) else {
        return Ok((Vec::new(), Vec::new()));
    };
    let text = match snap.read(&[entry], MAX_SKILL_BYTES)?.remove(SKILLS_CONFIG) {
        Some(Content::Text(t)) => t,
        _ => {
            return Ok((
                Vec::new(),
                vec![format!(
                    "{SKILLS_CONFIG} could not be read as text; it is ignored"
                )],
            ));
        }
    };
    // The config is a frontmatter block without a body: one lenient reader for both.
    let fm = frontmatter::parse(&format!("---\n{text}\n---\n"));
    let folders = fm
        .list("include")
        .into_iter()
        .map(|f| f.trim().trim_matches('/').to_string())
        .filter(|f| !f.is_empty())
        .collect();
    Ok((folders, fm.warnings))
}

/// Whether `path` is one of the team's skills: in a skills folder agents read
/// ([`discover::is_skill`]) or under a folder the configuration includes.
fn is_team_skill(path: &str, included: &[String]) -> bool {
    discover::is_skill(path) || included.iter().any(|d| is_under(path, d))
}

fn is_under(path: &str, dir: &str) -> bool {
    path.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
}

/// The team's skills of a work tree, and what was left out.
struct Loaded {
    /// By name, then path.
    skills: Vec<Skill>,
    /// SKILL.md files not read (samples included), with why.
    skipped: Vec<Value>,
    /// Problems with the configuration.
    warnings: Vec<String>,
}

/// Every tracked SKILL.md of the team's skills in the work tree (see [`Loaded`]).
fn load(repo: &ServedRepo) -> Result<Loaded, ApiError> {
    let snap = Snapshot::worktree(&repo.root)?;
    let (included, mut warnings) = configured_folders(&snap)?;
    for dir in &included {
        let holds = snap
            .entries
            .iter()
            .any(|e| e.path.ends_with("/SKILL.md") && is_under(&e.path, dir));
        if !holds {
            warnings.push(format!(
                "`include: {dir}` in {SKILLS_CONFIG} holds no tracked SKILL.md; check the folder's path (relative to the repository root)"
            ));
        }
    }
    let mut skipped = Vec::new();
    let entries: Vec<&Entry> = snap
        .entries
        .iter()
        .filter(|e| e.path == "SKILL.md" || e.path.ends_with("/SKILL.md"))
        .filter(|e| {
            let team = is_team_skill(&e.path, &included);
            if !team {
                skipped.push(json!({
                    "path": e.path,
                    "kind": "not-configured",
                    "reason": format!(
                        "not in a skills folder (.claude/skills/<name>/, .agents/skills/<name>/, or skills/<name>/ at the root), so not the team's skill (a sample or a vendored copy); to serve it, list its folder under `include:` in {SKILLS_CONFIG}"
                    ),
                }));
            }
            team
        })
        .collect();
    let mut contents = snap.read(&entries, MAX_SKILL_BYTES)?;
    let mut skills = Vec::new();
    for e in entries {
        let skip =
            |kind: &str, reason: String| json!({"path": e.path, "kind": kind, "reason": reason});
        if e.symlink {
            skipped.push(skip("unreadable", "a symlink; not followed".into()));
            continue;
        }
        match contents.remove(&e.path) {
            Some(Content::Text(t)) => skills.push(parse(&e.path, t)),
            Some(Content::TooBig(n)) => skipped.push(skip(
                "size",
                format!("{n} bytes, over the {MAX_SKILL_BYTES}-byte limit for a skill"),
            )),
            Some(Content::NotUtf8) => skipped.push(skip("unreadable", "not UTF-8 text".into())),
            Some(Content::Unreadable(why)) => skipped.push(skip("unreadable", why)),
            None => skipped.push(skip("unreadable", "missing from the work tree".into())),
        }
    }
    skills.sort_by(|a, b| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
    Ok(Loaded {
        skills,
        skipped,
        warnings,
    })
}

/// Fetches of every skill of `repo`, by name.
fn fetch_counts(s: &RulesState, repo: &str) -> Result<HashMap<String, i64>, ApiError> {
    let conn = s.core.reader()?;
    let mut st = conn
        .prepare("SELECT name, COUNT(*) FROM skill_fetches WHERE repository = ?1 GROUP BY name")?;
    let rows = st.query_map([repo], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn fetch_count(s: &RulesState, repo: &str, name: &str) -> Result<i64, ApiError> {
    let conn = s.core.reader()?;
    Ok(conn.query_row(
        "SELECT COUNT(*) FROM skill_fetches WHERE repository = ?1 AND name = ?2",
        (repo, name),
        |r| r.get(0),
    )?)
}

/// list_skills: name, one-line description, digest, path and warnings of every skill.
pub fn list(s: &RulesState, repo: &ServedRepo) -> Result<Value, ApiError> {
    let Loaded {
        skills,
        skipped,
        warnings,
    } = load(repo)?;
    let counts = fetch_counts(s, &repo.name)?;
    let mut out = Vec::with_capacity(skills.len());
    for k in &skills {
        let first = k.description.lines().next().unwrap_or("");
        let line: String = first.chars().take(LISTED_DESCRIPTION_CHARS).collect();
        let cut = line.len() < k.description.len();
        out.push(json!({
            "name": k.name,
            "description": if cut { format!("{line}…") } else { line },
            "descriptionTruncated": cut,
            "digest": k.digest,
            "path": k.path,
            "warnings": k.warnings,
            "fetchCount": counts.get(&k.name).copied().unwrap_or(0),
        }));
    }
    Ok(json!({"repository": repo.name, "skills": out, "skipped": skipped, "warnings": warnings}))
}

/// get_skill: the full Markdown of the skill `name` (`path` picks one of several with that
/// name); the fetch is recorded.
pub fn fetch(
    s: &RulesState,
    repo: &ServedRepo,
    name: &str,
    path: Option<&str>,
) -> Result<Value, ApiError> {
    let skills = load(repo)?.skills;
    let matching: Vec<&Skill> = skills
        .iter()
        .filter(|k| k.name == name && path.is_none_or(|p| p == k.path))
        .collect();
    let skill = match matching.as_slice() {
        [one] => *one,
        [] => {
            let names = near_names(name, skills.iter().map(|k| k.name.as_str()), 0.7);
            let hint = if names.is_empty() {
                "list_skills shows the skills there are".to_string()
            } else {
                format!("did you mean {}?", names.join(", "))
            };
            return Err(ApiError::not_found_as(
                "SKILL_NOT_FOUND",
                format!("no skill `{name}` in {}; {hint}", repo.name),
            )
            .with("nearMatches", json!(names)));
        }
        several => {
            let paths: Vec<&str> = several.iter().map(|k| k.path.as_str()).collect();
            return Err(ApiError::conflict(
                "AMBIGUOUS",
                format!(
                    "{} skills are named `{name}`; pass `path` to pick one: {}",
                    paths.len(),
                    paths.join(", ")
                ),
            )
            .with("candidates", json!(paths)));
        }
    };
    let conn = s.core.writer()?;
    conn.execute(
        "INSERT INTO skill_fetches(repository, name, path, digest, fetched_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        (&repo.name, &skill.name, &skill.path, &skill.digest, now_epoch()),
    )?;
    let frontmatter: serde_json::Map<String, Value> = skill
        .fm
        .fields
        .iter()
        .map(|(k, v)| (k.clone(), fm_json(v)))
        .collect();
    Ok(json!({
        "name": skill.name,
        "path": skill.path,
        "digest": skill.digest,
        "markdown": skill.markdown,
        "frontmatter": frontmatter,
        "warnings": skill.warnings,
        "fetchCount": fetch_count(s, &repo.name, &skill.name)?,
    }))
}

fn fm_json(v: &frontmatter::FmValue) -> Value {
    use frontmatter::FmValue;
    match v {
        FmValue::Str(s) => json!(s),
        FmValue::List(items) => json!(items),
        FmValue::Map(m) => json!(m),
        FmValue::Null => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_skill_breaking_the_limits_is_kept_with_warnings() {
        let k = parse(
            "skills/Bad_Skill/SKILL.md",
            "---\nname: bad-skill-name\ndescription: x\nargument-hint: \"[v]\"\n---\nbody\n".into(),
        );
        assert_eq!(k.name, "bad-skill-name");
        assert!(
            k.warnings
                .iter()
                .any(|w| w.contains("differs from its directory `Bad_Skill`"))
        );
        assert!(
            k.warnings
                .iter()
                .any(|w| w.contains("`argument-hint` is not an agentskills.io field"))
        );
    }

    #[test]
    fn a_valid_skill_has_no_warning() {
        let k = parse(
            ".claude/skills/release-notes/SKILL.md",
            "---\nname: release-notes\ndescription: Write release notes.\nlicense: MIT\n---\n# R\n"
                .into(),
        );
        assert!(k.warnings.is_empty(), "{:?}", k.warnings);
        assert_eq!(directory_name("SKILL.md"), "");
        assert_eq!(
            name_problem("Bad_Skill"),
            Some("may use only lowercase letters, digits and hyphens")
        );
    }
}
