//! What every manifest check shares: the [`Checker`] that collects located problems, and the
//! checks of Nexus mappings and completions that tools, prompts and resources all have. Apart
//! from validate.rs so that the checks split out of it (capabilities, resources) import this,
//! not validate.rs (which imports them).

use crate::error::ManifestError;
use crate::locate::{Locator, Step};
use crate::model::{Completion, Manifest, Method, NexusMapping};
use std::collections::BTreeSet;
use std::path::PathBuf;

macro_rules! path {
    ($($step:expr),* $(,)?) => { &[$(Step::from($step)),*] };
}

pub(crate) struct Checker<'a> {
    pub(crate) file: PathBuf,
    pub(crate) locator: Locator<'a>,
    pub(crate) errors: Vec<ManifestError>,
}

impl Checker<'_> {
    pub(crate) fn report(&mut self, at: &[Step], subject: Option<String>, message: String) {
        let (line, column) = self.locator.position(at);
        self.errors.push(ManifestError {
            file: self.file.clone(),
            line,
            column,
            subject,
            message,
        });
    }
}

/// The path `tail` below `at`.
pub(crate) fn under(at: &[Step], tail: &[Step]) -> Vec<Step> {
    at.iter().chain(tail).cloned().collect()
}

/// What a Nexus mapping's templates can read, and how to say so in errors.
pub(crate) struct Fields<'a> {
    /// Templates read `<prefix>.<name>`.
    pub(crate) prefix: &'a str,
    pub(crate) names: BTreeSet<&'a str>,
    pub(crate) required: BTreeSet<&'a str>,
    pub(crate) a_field: &'a str,
    pub(crate) add_to: &'a str,
    /// What is wrong with a path parameter that may be absent, and the fix; `{}` is its name.
    pub(crate) when_missing: &'a str,
    /// The keys of the tool's `ask:` questions: templates may also read `answers.<key>…`.
    pub(crate) answers: BTreeSet<&'a str>,
}

/// Checks a Nexus mapping at `at`.
pub(crate) fn check_nexus(
    c: &mut Checker<'_>,
    at: &[Step],
    subject: Option<String>,
    nexus: &NexusMapping,
    fields: &Fields<'_>,
) {
    let what = fields.prefix;
    if !nexus.path.starts_with('/') {
        c.report(
            &under(at, path!["path"]),
            subject.clone(),
            format!(
                "nexus path `{}` must start with `/` (it is relative to NEXUS_API_URL).",
                nexus.path
            ),
        );
    }
    for param in path_params(&nexus.path) {
        if !fields.names.contains(param.as_str()) {
            c.report(
                &under(at, path!["path"]),
                subject.clone(),
                format!(
                    "path parameter `{{{param}}}` is not {}. Add `{param}` to {} or remove it from the path.",
                    fields.a_field, fields.add_to
                ),
            );
        } else if !fields.required.contains(param.as_str()) {
            c.report(
                &under(at, path!["path"]),
                subject.clone(),
                format!(
                    "path parameter `{{{param}}}` {}",
                    fields.when_missing.replace("{}", &param)
                ),
            );
        }
    }
    if nexus.method == Method::Get && !nexus.body.is_empty() {
        c.report(
            &under(at, path!["body"]),
            subject.clone(),
            "a GET mapping cannot have a body. Use `query:` or `method: POST`.".to_owned(),
        );
    }
    for (section, templates) in [("query", &nexus.query), ("body", &nexus.body)] {
        for (name, template) in templates {
            let at = under(at, path![section, name.as_str()]);
            match template_variables(template) {
                Err(e) => c.report(
                    &at,
                    subject.clone(),
                    format!("template `{template}` does not parse: {e}."),
                ),
                Ok(vars) => {
                    for var in vars {
                        if let Some(answer) = var.strip_prefix("answers.") {
                            let key = answer.split('.').next().unwrap_or_default();
                            if !fields.answers.contains(key) {
                                c.report(
                                    &at,
                                    subject.clone(),
                                    format!("template uses `answers.{key}`, which no question of this tool's `ask:` is keyed. Declare it under `ask:` or fix the name."),
                                );
                            }
                            continue;
                        }
                        match var.strip_prefix(&format!("{what}.")) {
                            Some(field) if fields.names.contains(field) => {}
                            Some(field) => c.report(
                                &at,
                                subject.clone(),
                                format!(
                                    "template uses `{what}.{field}`, which is not {}. Add `{field}` to {} or fix the name.",
                                    fields.a_field, fields.add_to
                                ),
                            ),
                            None => c.report(
                                &at,
                                subject.clone(),
                                format!("template uses `{var}`; mapping templates can only read `{what}.<field>`."),
                            ),
                        }
                    }
                }
            }
        }
    }
}

/// A completion is a fixed list, or a GET whose answer `pick` reads, behind a scope.
pub(crate) fn check_completion(
    c: &mut Checker<'_>,
    manifest: &Manifest,
    at: &[Step],
    subject: Option<String>,
    complete: &Completion,
    args: &BTreeSet<&str>,
) {
    let Some(nexus) = &complete.nexus else {
        if complete.values.is_empty() {
            c.report(at, subject, "a completion needs `values: [...]` (a fixed list) or `nexus:` with `pick:` and `scope:` (values read from Nexus).".to_owned());
        } else if complete.pick.is_some() || complete.scope.is_some() {
            c.report(at, subject, "`pick` and `scope` belong to a `nexus:` completion; a `values:` list needs neither. Remove them.".to_owned());
        }
        return;
    };
    if !complete.values.is_empty() {
        c.report(
            &under(at, path!["values"]),
            subject.clone(),
            "a completion has either `values` or `nexus`, not both. Keep one.".to_owned(),
        );
    }
    if nexus.method != Method::Get {
        c.report(
            &under(at, path!["nexus", "method"]),
            subject.clone(),
            "completion values are read with GET: a completion must never change anything. Set `method: GET`.".to_owned(),
        );
    }
    if complete.pick.as_deref().is_none_or(str::is_empty) {
        c.report(at, subject.clone(), "a `nexus:` completion needs `pick:`, the dotted path of the values in the answer, e.g. `items.*.name`.".to_owned());
    }
    match complete.scope.as_deref() {
        None => c.report(at, subject.clone(), "a `nexus:` completion needs `scope:`, the scope a caller must hold to see these values (e.g. kg:read).".to_owned()),
        Some(scope) if !manifest.scopes.iter().any(|s| s.name == scope) => c.report(
            &under(at, path!["scope"]),
            subject.clone(),
            format!("unknown scope `{scope}`. Declare it under `scopes:` or use one of: {}.", manifest.scopes.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", ")),
        ),
        Some(_) => {}
    }
    // The mapping's input is the prompt's arguments the client already filled in; any may be
    // missing, so a path parameter never has a guaranteed value.
    let fields = Fields {
        prefix: "input",
        names: args.clone(),
        required: BTreeSet::new(),
        a_field: "an argument of this prompt",
        add_to: "the prompt's arguments",
        when_missing: "may have no value: a client asks for completions before filling in every argument. Pass `{}` in `query:` instead.",
        answers: BTreeSet::new(),
    };
    check_nexus(c, &under(at, path!["nexus"]), subject, nexus, &fields);
}

/// Variables a minijinja template reads, as dotted paths (`input.repository`).
pub fn template_variables(template: &str) -> Result<BTreeSet<String>, minijinja::Error> {
    let env = minijinja::Environment::new();
    let tmpl = env.template_from_str(template)?;
    Ok(tmpl.undeclared_variables(true).into_iter().collect())
}

/// `{name}` placeholders of a Nexus path template.
pub fn path_params(path: &str) -> Vec<String> {
    path.split('{')
        .skip(1)
        .filter_map(|rest| rest.split_once('}').map(|(name, _)| name.to_owned()))
        .collect()
}

pub(crate) fn is_tool_name(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some('a'..='z'))
        && name.len() <= 64
        && chars.all(|ch| matches!(ch, 'a'..='z' | '0'..='9' | '_'))
}
