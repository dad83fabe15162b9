//! A proposal request, checked: kinds, names (agentskills.io rules for skills), globs,
//! analyser codes and patterns; the slug and dedupe key it gets; where it would be written.

use crate::core::http::ApiError;
use serde_json::{Map, Value, json};

/// A proposal to queue, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct NewProposal {
    /// `rule` or `skill`.
    pub kind: &'static str,
    pub title: String,
    /// The skill's name, or the rule's id-to-be (its file's slug).
    pub name: Option<String>,
    pub body: String,
    pub rationale: Option<String>,
    /// description, severity, globs, enforcedBy, forbid, agentName, modelId (set ones only).
    pub fields: Map<String, Value>,
    /// `agent`, `human` or `bootstrap`.
    pub source: &'static str,
    pub proposed_by: Option<String>,
}

impl NewProposal {
    pub fn ai_generated(&self) -> bool {
        self.source != "human"
    }

    /// The rule's file slug / the skill's directory.
    pub fn slug(&self) -> String {
        self.name.clone().unwrap_or_else(|| slug(&self.title))
    }

    /// Same key, same proposal: a skill by name; a rule by the analyser codes or the pattern
    /// that enforce it, else by its slug.
    pub fn dedupe_key(&self) -> String {
        if self.kind == "skill" {
            return format!("skill:{}", self.slug());
        }
        let enforced: Vec<String> = self
            .fields
            .get("enforcedBy")
            .and_then(Value::as_array)
            .map(|a| {
                let mut v: Vec<String> = a
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_ascii_lowercase)
                    .collect();
                v.sort();
                v
            })
            .unwrap_or_default();
        if !enforced.is_empty() {
            return format!("rule:enforcedBy:{}", enforced.join(","));
        }
        if let Some(f) = self.fields.get("forbid").and_then(Value::as_str) {
            return format!("rule:forbid:{f}");
        }
        format!("rule:{}", self.slug())
    }
}

/// Where an accepted proposal is written (repo-relative).
pub fn target_path(kind: &str, slug: &str) -> String {
    if kind == "skill" {
        format!(".agents/skills/{slug}/SKILL.md")
    } else {
        format!(".nexus/rules/{slug}.md")
    }
}

/// A file-name slug: lowercase ASCII letters, digits and single hyphens, at most 64.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let mut out: String = out.chars().take(64).collect();
    while out.ends_with('-') {
        out.pop();
    }
    out
}

/// Whether `name` follows agentskills.io: 1–64 of `[a-z0-9-]`, no leading, trailing or double
/// hyphen. Returns what is wrong.
pub fn skill_name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() || name.len() > 64 {
        return Some("must be 1 to 64 characters");
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        return Some("may hold only lowercase letters, digits and hyphens");
    }
    if name.starts_with('-') || name.ends_with('-') || name.contains("--") {
        return Some("must not start or end with a hyphen, nor hold two in a row");
    }
    None
}

pub(crate) fn text(
    body: &Value,
    key: &str,
    max: usize,
    required: bool,
) -> Result<Option<String>, ApiError> {
    match &body[key] {
        Value::Null if required => Err(ApiError::bad(format!("`{key}` is required"))),
        Value::Null => Ok(None),
        Value::String(s) if s.trim().is_empty() && required => Err(ApiError::bad(format!(
            "`{key}` is required and must not be empty"
        ))),
        Value::String(s) if s.trim().is_empty() => Ok(None),
        Value::String(s) if s.chars().count() > max => Err(ApiError::bad(format!(
            "`{key}` is longer than {max} characters; shorten it"
        ))),
        Value::String(s) => match crate::core::util::first_terminal_control(s) {
            Some((at, c)) => Err(control_refused(key, at, c)),
            None => Ok(Some(s.trim().to_string())),
        },
        _ => Err(ApiError::bad(format!("`{key}` must be a string"))),
    }
}

/// A terminal control in text that ends up in a rule file people read in terminals (`cat`,
/// `git diff`, a pager): ESC sequences hide or forge text, CR overwrites a line, bidi
/// overrides reorder it.
pub(crate) fn control_refused(key: &str, at: usize, c: char) -> ApiError {
    ApiError::bad(format!(
        "`{key}` holds the control character U+{:04X} at character {at}; terminal controls (ESC, BEL, CR, bidi overrides) are refused in proposals because the accepted file is read in terminals: remove it (end lines with \\n only)",
        u32::from(c)
    ))
}

fn strings(body: &Value, key: &str) -> Result<Vec<String>, ApiError> {
    match &body[key] {
        Value::Null => Ok(Vec::new()),
        Value::Array(items) => items
            .iter()
            .map(|i| match i.as_str().map(str::trim) {
                Some(s) if !s.is_empty() => Ok(s.to_string()),
                _ => Err(ApiError::bad(format!(
                    "`{key}` must be an array of non-empty strings"
                ))),
            })
            .collect(),
        _ => Err(ApiError::bad(format!(
            "`{key}` must be an array of strings"
        ))),
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Checks a POST /proposals body (RulesProposalRequest).
pub fn parse_request(body: &Value) -> Result<NewProposal, ApiError> {
    let kind = match body["kind"].as_str() {
        Some("rule") => "rule",
        Some("skill") => "skill",
        _ => {
            return Err(ApiError::bad(
                "`kind` must be `rule` (propose_rule) or `skill` (propose_skill)",
            ));
        }
    };
    let title = one_line(&text(body, "title", 200, true)?.unwrap_or_default());
    let content = text(body, "body", 64 * 1024, true)?.unwrap_or_default();
    let rationale = text(body, "rationale", 4000, false)?;
    let name = text(body, "name", 64, false)?;
    let description = text(body, "description", 1024, false)?.map(|d| one_line(&d));
    let source = match body["source"].as_str() {
        None | Some("agent") => "agent",
        Some("human") => "human",
        Some(other) => {
            return Err(ApiError::bad(format!(
                "`source` must be `agent` (the default) or `human`, got `{other}`"
            )));
        }
    };
    let agent = text(body, "agentName", 200, false)?;
    let model = text(body, "modelId", 200, false)?;
    let proposed_by = text(body, "proposedBy", 200, false)?.or_else(|| agent.clone());
    let mut fields = Map::new();
    let name_out = if kind == "skill" {
        let name = name.ok_or_else(|| {
            ApiError::bad(
                "a skill needs `name`: the directory it is written to (.agents/skills/<name>/SKILL.md), 1–64 of a-z, 0-9 and single hyphens",
            )
        })?;
        if let Some(p) = skill_name_problem(&name) {
            return Err(ApiError::bad(format!(
                "skill name `{name}` {p} (agentskills.io); it is also the directory .agents/skills/<name>/"
            )));
        }
        let description = description.ok_or_else(|| {
            ApiError::bad(
                "a skill needs `description` (1–1,024 characters): it is the only thing an agent reads to decide to load the skill",
            )
        })?;
        for key in ["severity", "globs", "enforcedBy", "forbid", "paths"] {
            if !body[key].is_null() {
                return Err(ApiError::bad(format!(
                    "`{key}` applies to rules only; a skill takes name, description, title and body"
                )));
            }
        }
        fields.insert("description".into(), json!(description));
        Some(name)
    } else {
        if let Some(n) = &name
            && let Some(p) = skill_name_problem(n)
        {
            return Err(ApiError::bad(format!(
                "rule name `{n}` {p}; it becomes the rule's id and its file .nexus/rules/<name>.md"
            )));
        }
        if name.is_none() && slug(&title).is_empty() {
            return Err(ApiError::bad(
                "`title` needs letters or digits (its slug names the rule's file), or give `name`",
            ));
        }
        let severity = match body["severity"].as_str() {
            None => "warning",
            Some(s @ ("error" | "warning" | "note")) => s,
            Some(other) => {
                return Err(ApiError::bad(format!(
                    "`severity` must be error, warning or note, got `{other}`"
                )));
            }
        };
        fields.insert(
            "description".into(),
            json!(description.unwrap_or_else(|| title.clone())),
        );
        fields.insert("severity".into(), json!(severity));
        let mut globs = strings(body, "globs")?;
        for p in strings(body, "paths")? {
            if !globs.contains(&p) {
                globs.push(p);
            }
        }
        for g in &globs {
            globset::Glob::new(g).map_err(|e| {
                ApiError::bad(format!("glob `{g}` is not valid ({e}); fix or drop it"))
            })?;
        }
        if !globs.is_empty() {
            fields.insert("globs".into(), json!(globs));
        }
        let enforced = strings(body, "enforcedBy")?;
        for e in &enforced {
            if !matches!(e.split_once(':'), Some((t, c)) if !t.trim().is_empty() && !c.trim().is_empty())
            {
                return Err(ApiError::bad(format!(
                    "`enforcedBy` entry `{e}` is not `<tool>:<code>` (e.g. bandit:B602, ruff:S608, ruff:S*)"
                )));
            }
        }
        if !enforced.is_empty() {
            fields.insert("enforcedBy".into(), json!(enforced));
        }
        if let Some(f) = text(body, "forbid", 1000, false)? {
            regex::Regex::new(&f).map_err(|e| {
                ApiError::bad(format!("`forbid` is not a valid regular expression: {e}"))
            })?;
            fields.insert("forbid".into(), json!(f));
        }
        name
    };
    if let Some(a) = agent {
        fields.insert("agentName".into(), json!(a));
    }
    if let Some(m) = model {
        fields.insert("modelId".into(), json!(m));
    }
    Ok(NewProposal {
        kind,
        title,
        name: name_out,
        body: content,
        rationale,
        fields,
        source,
        proposed_by,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_and_skill_names() {
        assert_eq!(
            slug("No eval() on request data!"),
            "no-eval-on-request-data"
        );
        assert_eq!(slug("../../etc/passwd"), "etc-passwd");
        assert_eq!(slug("Ünïcode only"), "n-code-only");
        assert_eq!(slug("!!!"), "");
        assert_eq!(slug(&"a".repeat(100)).len(), 64);
        assert!(skill_name_problem("db-migrations").is_none());
        for bad in ["", "Db", "a--b", "-a", "a-", "a_b", &"a".repeat(65)] {
            assert!(skill_name_problem(bad).is_some(), "{bad}");
        }
        assert_eq!(target_path("skill", "x"), ".agents/skills/x/SKILL.md");
        assert_eq!(target_path("rule", "x"), ".nexus/rules/x.md");
    }
}
