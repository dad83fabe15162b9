//! Which tracked files are rule files, of what kind, and the directory each applies under.
//! Names are case-sensitive (`claude.md` is not `CLAUDE.md`).

/// The formats read (see rules-gate.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Agents,
    AgentsOverride,
    Claude,
    ClaudeLocal,
    Gemini,
    CursorRules,
    CursorRule,
    CopilotInstructions,
    CopilotScoped,
    ClineRulesFile,
    ClineRule,
    WindsurfRulesFile,
    WindsurfRule,
    ContinueRule,
    ClaudeRule,
    DotRule,
    NexusRule,
}

impl Kind {
    /// Prose files give one rule per H2 section; the others one rule per file.
    pub fn prose(self) -> bool {
        matches!(
            self,
            Kind::Agents
                | Kind::AgentsOverride
                | Kind::Claude
                | Kind::ClaudeLocal
                | Kind::Gemini
                | Kind::CursorRules
                | Kind::CopilotInstructions
                | Kind::ClineRulesFile
                | Kind::WindsurfRulesFile
        )
    }

    /// The format's name, as shown in answers.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Agents => "agents-md",
            Kind::AgentsOverride => "agents-override-md",
            Kind::Claude => "claude-md",
            Kind::ClaudeLocal => "claude-local-md",
            Kind::Gemini => "gemini-md",
            Kind::CursorRules => "cursorrules",
            Kind::CursorRule => "cursor-mdc",
            Kind::CopilotInstructions => "copilot-instructions",
            Kind::CopilotScoped => "copilot-scoped-instructions",
            Kind::ClineRulesFile => "clinerules",
            Kind::ClineRule => "cline-rule",
            Kind::WindsurfRulesFile => "windsurfrules",
            Kind::WindsurfRule => "windsurf-rule",
            Kind::ContinueRule => "continue-rule",
            Kind::ClaudeRule => "claude-rule",
            Kind::DotRule => "rules-dir",
            Kind::NexusRule => "nexus-rule",
        }
    }
}

/// A tracked file recognised as a rule file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub path: String,
    pub kind: Kind,
    /// The directory the file applies under (`""` = the repository root).
    pub scope_dir: String,
}

fn dir_of(parts: &[&str], upto: usize) -> String {
    parts[..upto].join("/")
}

/// What kind of rule file `path` is, if any.
pub fn classify(path: &str) -> Option<Candidate> {
    let parts: Vec<&str> = path.split('/').collect();
    let n = parts.len();
    let file = *parts.last()?;
    let md = file.ends_with(".md");
    let make = |kind: Kind, upto: usize| {
        Some(Candidate {
            path: path.to_string(),
            kind,
            scope_dir: dir_of(&parts, upto),
        })
    };
    // Files inside a tool's rule folder: `<scope>/<.tool>/<rules>/.../<file>`.
    for (i, comp) in parts.iter().enumerate().take(n.saturating_sub(1)) {
        let next = parts.get(i + 1).copied();
        let inside = n > i + 2; // at least one component after `<.tool>/<rules>`
        let kind = match (*comp, next) {
            (".cursor", Some("rules")) if inside && file.ends_with(".mdc") => Kind::CursorRule,
            (".github", Some("instructions")) if inside && file.ends_with(".instructions.md") => {
                Kind::CopilotScoped
            }
            (".cline", Some("rules")) if inside && md => Kind::ClineRule,
            (".windsurf", Some("rules")) if inside && md => Kind::WindsurfRule,
            (".continue", Some("rules")) if inside && md => Kind::ContinueRule,
            (".claude", Some("rules")) if inside && md => Kind::ClaudeRule,
            (".nexus", Some("rules")) if inside && md => Kind::NexusRule,
            (".clinerules", Some(_)) if n > i + 1 && (md || file.ends_with(".txt")) => {
                Kind::ClineRule
            }
            (".rules", Some(_)) if n > i + 1 && md => Kind::DotRule,
            _ => continue,
        };
        return make(kind, i);
    }
    let parent = if n >= 2 { Some(parts[n - 2]) } else { None };
    match file {
        "AGENTS.md" => make(Kind::Agents, n - 1),
        "AGENTS.override.md" => make(Kind::AgentsOverride, n - 1),
        "CLAUDE.md" if parent == Some(".claude") => make(Kind::Claude, n - 2),
        "CLAUDE.md" => make(Kind::Claude, n - 1),
        "CLAUDE.local.md" => make(Kind::ClaudeLocal, n - 1),
        "GEMINI.md" => make(Kind::Gemini, n - 1),
        ".cursorrules" => make(Kind::CursorRules, n - 1),
        ".clinerules" => make(Kind::ClineRulesFile, n - 1),
        ".windsurfrules" => make(Kind::WindsurfRulesFile, n - 1),
        "copilot-instructions.md" if parent == Some(".github") => {
            make(Kind::CopilotInstructions, n - 2)
        }
        _ => None,
    }
}

/// Whether `path` is a SKILL.md in a skills folder: `.claude/skills/<name>/SKILL.md`,
/// `.agents/skills/<name>/SKILL.md` (at any depth) or `skills/<name>/SKILL.md` at the root.
pub fn is_skill(path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    let n = parts.len();
    if n < 3 || parts[n - 1] != "SKILL.md" || parts[n - 3] != "skills" {
        return false;
    }
    if n == 3 {
        return true;
    }
    matches!(parts[n - 4], ".claude" | ".agents")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(path: &str) -> Option<(Kind, String)> {
        classify(path).map(|c| (c.kind, c.scope_dir))
    }

    #[test]
    fn every_format_is_recognised_with_its_scope() {
        assert_eq!(kind("AGENTS.md"), Some((Kind::Agents, String::new())));
        assert_eq!(
            kind("svc/api/AGENTS.md"),
            Some((Kind::Agents, "svc/api".into()))
        );
        assert_eq!(
            kind(".claude/CLAUDE.md"),
            Some((Kind::Claude, String::new()))
        );
        assert_eq!(kind("pkg/CLAUDE.md"), Some((Kind::Claude, "pkg".into())));
        assert_eq!(
            kind(".cursor/rules/a/b.mdc"),
            Some((Kind::CursorRule, String::new()))
        );
        assert_eq!(
            kind("web/.cursor/rules/x.mdc"),
            Some((Kind::CursorRule, "web".into()))
        );
        assert_eq!(
            kind(".github/copilot-instructions.md").map(|k| k.0),
            Some(Kind::CopilotInstructions)
        );
        assert_eq!(
            kind(".github/instructions/t.instructions.md").map(|k| k.0),
            Some(Kind::CopilotScoped)
        );
        assert_eq!(kind(".clinerules").map(|k| k.0), Some(Kind::ClineRulesFile));
        assert_eq!(
            kind(".clinerules/01-style.md").map(|k| k.0),
            Some(Kind::ClineRule)
        );
        assert_eq!(
            kind(".windsurf/rules/n.md").map(|k| k.0),
            Some(Kind::WindsurfRule)
        );
        assert_eq!(
            kind(".continue/rules/d.md").map(|k| k.0),
            Some(Kind::ContinueRule)
        );
        assert_eq!(
            kind(".claude/rules/api.md").map(|k| k.0),
            Some(Kind::ClaudeRule)
        );
        assert_eq!(
            kind(".nexus/rules/no-shell.md").map(|k| k.0),
            Some(Kind::NexusRule)
        );
        assert_eq!(kind("GEMINI.md").map(|k| k.0), Some(Kind::Gemini));
    }

    #[test]
    fn names_are_case_sensitive_and_other_files_are_ignored() {
        assert_eq!(kind("claude.md"), None);
        assert_eq!(kind("agents.md"), None);
        assert_eq!(kind(".cursor/rules/readme.md"), None);
        assert_eq!(kind(".cursor/rules.mdc"), None);
        assert_eq!(kind("docs/rules/x.md"), None);
        assert_eq!(kind("README.md"), None);
    }

    #[test]
    fn skills_are_found_in_the_three_folders() {
        assert!(is_skill(".claude/skills/release-notes/SKILL.md"));
        assert!(is_skill(".agents/skills/x/SKILL.md"));
        assert!(is_skill("skills/x/SKILL.md"));
        assert!(is_skill("pkg/.claude/skills/x/SKILL.md"));
        assert!(!is_skill("pkg/skills/x/SKILL.md"));
        assert!(!is_skill(".claude/skills/SKILL.md"));
        assert!(!is_skill(".claude/skills/x/skill.md"));
    }
}
