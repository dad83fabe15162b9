//! Checks of resources read from the backend, resource templates, prompts that call a tool and
//! content blocks (tools' `content:`, prompts' `messages:`). Messages are pinned one by one in
//! codegen/tests/errors_resources.rs.

use crate::checker::{Checker, Fields, check_completion, check_nexus, template_variables, under};
use crate::locate::Step;
use crate::model::{Access, Content, ContentKind, Manifest, Method, Prompt, Resource};
use crate::schema;
use std::collections::BTreeSet;

macro_rules! path {
    ($($step:expr),* $(,)?) => { &[$(Step::from($step)),*] };
}

/// Whether a prompt template may read `var` because the prompt calls a tool first.
pub(crate) fn reads_call_result(prompt: &Prompt, var: &str) -> bool {
    prompt.call.is_some() && is_result(var)
}

/// `answers.<key>…` of a question the prompt's `ask:` declares.
pub(crate) fn reads_answer(prompt: &Prompt, var: &str) -> bool {
    var.strip_prefix("answers.").is_some_and(|rest| {
        let key = rest.split('.').next().unwrap_or_default();
        prompt.ask.iter().any(|round| round.contains_key(key))
    })
}

/// Whether a resource's `template` may read `var`: its URI variables as `args.<name>`, and the
/// backend answer as `result` when it has `nexus:`.
pub(crate) fn resource_template_reads(resource: &Resource, var: &str) -> bool {
    let vars = uri_variables(&resource.uri).unwrap_or_default();
    var.strip_prefix("args.")
        .is_some_and(|a| vars.iter().any(|v| v == a))
        || (resource.nexus.is_some() && is_result(var))
}

fn is_result(var: &str) -> bool {
    var == "result" || var.starts_with("result.")
}

/// The variables of an RFC 6570 level 1-2 URI template (`{var}`, `{+var}`, `{#var}`).
pub fn uri_variables(uri: &str) -> Result<Vec<String>, String> {
    let mut vars = Vec::new();
    let mut rest = uri;
    while let Some(start) = rest.find('{') {
        let Some(len) = rest[start..].find('}') else {
            return Err("`{` without a closing `}`".to_owned());
        };
        let expr = &rest[start + 1..start + len];
        let name = expr.strip_prefix(['+', '#']).unwrap_or(expr);
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!(
                "`{{{expr}}}` is not supported: only RFC 6570 level 1-2 expressions are (`{{var}}`, `{{+var}}`, `{{#var}}`)"
            ));
        }
        vars.push(name.to_owned());
        rest = &rest[start + len + 1..];
    }
    Ok(vars)
}

pub(crate) fn check(c: &mut Checker<'_>, manifest: &Manifest) {
    for (i, tool) in manifest.tools.iter().enumerate() {
        let inputs: BTreeSet<&str> = schema::properties(&tool.input)
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        let subject = Some(format!("tool `{}`", tool.name));
        for (j, content) in tool.content.iter().enumerate() {
            check_content(
                c,
                &under(path!["tools", i, "content"], path![j]),
                subject.clone(),
                content,
                &|v: &str| {
                    is_result(v) || v.strip_prefix("input.").is_some_and(|f| inputs.contains(f))
                },
                "tool content can read `result` (the trimmed answer) and `input.<input field>`.",
            );
        }
    }
    for (i, prompt) in manifest.prompts.iter().enumerate() {
        check_prompt(c, manifest, i, prompt);
    }
    for (i, resource) in manifest.resources.iter().enumerate() {
        check_resource(c, manifest, i, resource);
        check_subscribe(c, i, resource);
    }
}

/// A subscribable resource changes only if it is read from the backend, and is read again at a
/// sane pace (every second at most, every hour at least).
fn check_subscribe(c: &mut Checker<'_>, i: usize, resource: &Resource) {
    let Some(s) = &resource.subscribe else { return };
    let subject = Some(format!("resource `{}`", resource.uri));
    if resource.nexus.is_none() {
        c.report(
            path!["resources", i, "subscribe"],
            subject.clone(),
            "only a resource read from the backend (`nexus:`) can change; remove `subscribe:` from this static one.".to_owned(),
        );
    }
    if !(1..=3600).contains(&s.poll_seconds) {
        c.report(
            path!["resources", i, "subscribe", "poll_seconds"],
            subject,
            format!("poll_seconds {} is out of range: read a subscribed resource again every 1 to 3600 seconds.", s.poll_seconds),
        );
    }
}

fn check_prompt(c: &mut Checker<'_>, manifest: &Manifest, i: usize, prompt: &Prompt) {
    let subject = Some(format!("prompt `{}`", prompt.name));
    match (prompt.template.is_empty(), prompt.messages.is_empty()) {
        (true, true) => c.report(
            path!["prompts", i, "name"],
            subject.clone(),
            "a prompt needs `template:` (one user text message) or `messages:` (messages with content types).".to_owned(),
        ),
        (false, false) => c.report(
            path!["prompts", i, "messages"],
            subject.clone(),
            "a prompt has `template:` or `messages:`, not both. Keep one.".to_owned(),
        ),
        _ => {}
    }
    let args: BTreeSet<&str> = prompt.arguments.iter().map(|a| a.name.as_str()).collect();
    let reads = |v: &str| {
        v == "server"
            || v.starts_with("server.")
            || v.strip_prefix("args.").is_some_and(|a| args.contains(a))
            || reads_call_result(prompt, v)
            || reads_answer(prompt, v)
    };
    for (j, message) in prompt.messages.iter().enumerate() {
        check_content(
            c,
            path!["prompts", i, "messages", j, "content"],
            subject.clone(),
            &message.content,
            &reads,
            "prompt messages can read `args.<declared argument>`, `server.<key>` and, with `call:`, `result`.",
        );
    }
    let Some(call) = &prompt.call else {
        return;
    };
    let Some(tool) = manifest.tools.iter().find(|t| t.name == call.tool) else {
        let known: Vec<&str> = manifest.tools.iter().map(|t| t.name.as_str()).collect();
        c.report(
            path!["prompts", i, "call", "tool"],
            subject,
            format!(
                "the prompt calls tool `{}`, which this manifest does not declare. Declared tools: {}.",
                call.tool,
                known.join(", ")
            ),
        );
        return;
    };
    if tool.access != Access::Read {
        c.report(
            path!["prompts", i, "call", "tool"],
            subject.clone(),
            format!(
                "a prompt may only call a read tool: `{}` is `access: {}`, and prompts/get runs with no confirmation.",
                tool.name,
                tool.access.as_str()
            ),
        );
    }
    let inputs: Vec<&str> = schema::properties(&tool.input)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    for (name, template) in &call.arguments {
        let at = under(
            path!["prompts", i, "call", "arguments"],
            path![name.as_str()],
        );
        if !inputs.contains(&name.as_str()) {
            c.report(
                &at,
                subject.clone(),
                format!(
                    "`{name}` is not an input of tool `{}`; its inputs are: {}.",
                    tool.name,
                    inputs.join(", ")
                ),
            );
        }
        match template_variables(template) {
            Err(e) => c.report(
                &at,
                subject.clone(),
                format!("template does not parse: {e}."),
            ),
            Ok(vars) => {
                for var in vars {
                    if !var.strip_prefix("args.").is_some_and(|a| args.contains(a)) {
                        c.report(
                            &at,
                            subject.clone(),
                            format!("template uses `{var}`; call arguments can read `args.<declared argument>` only."),
                        );
                    }
                }
            }
        }
    }
}

fn check_resource(c: &mut Checker<'_>, manifest: &Manifest, i: usize, resource: &Resource) {
    let subject = Some(format!("resource `{}`", resource.uri));
    let vars = match uri_variables(&resource.uri) {
        Ok(vars) => vars,
        Err(e) => {
            c.report(
                path!["resources", i, "uri"],
                subject,
                format!("not a URI template this server serves: {e}."),
            );
            return;
        }
    };
    let picks = resource.text.is_some() || resource.blob.is_some();
    match &resource.nexus {
        None if resource.template.is_empty() => c.report(
            path!["resources", i, "uri"],
            subject.clone(),
            "a resource needs `template:` (its text) or `nexus:` (a backend read).".to_owned(),
        ),
        None if picks => c.report(
            path![
                "resources",
                i,
                if resource.text.is_some() {
                    "text"
                } else {
                    "blob"
                }
            ],
            subject.clone(),
            "`text` and `blob` pick the content from the backend answer: they need `nexus:`."
                .to_owned(),
        ),
        None => {}
        Some(nexus) => {
            if nexus.method != Method::Get {
                c.report(
                    path!["resources", i, "nexus", "method"],
                    subject.clone(),
                    "a resource is read with GET: reading must never change anything. Set `method: GET`.".to_owned(),
                );
            }
            let names: BTreeSet<&str> = vars.iter().map(String::as_str).collect();
            let fields = Fields {
                prefix: "input",
                names: names.clone(),
                required: names,
                a_field: "a variable of the resource's URI template",
                add_to: "the `uri` (as `{name}`)",
                when_missing: "",
                answers: BTreeSet::new(),
            };
            check_nexus(
                c,
                path!["resources", i, "nexus"],
                subject.clone(),
                nexus,
                &fields,
            );
            if resource.text.is_some() && resource.blob.is_some() {
                c.report(
                    path!["resources", i, "blob"],
                    subject.clone(),
                    "a resource takes its content from `text` or `blob`, not both. Keep one."
                        .to_owned(),
                );
            }
            if picks && !resource.template.is_empty() {
                c.report(
                    path!["resources", i, "template"],
                    subject.clone(),
                    "`template` renders the answer itself; with `text:` or `blob:` leave it out."
                        .to_owned(),
                );
            }
        }
    }
    if let Some(scope) = &resource.scope
        && !manifest.scopes.iter().any(|s| &s.name == scope)
    {
        let known: Vec<&str> = manifest.scopes.iter().map(|s| s.name.as_str()).collect();
        c.report(
            path!["resources", i, "scope"],
            subject.clone(),
            format!(
                "unknown scope `{scope}`. Declare it under `scopes:` or use one of: {}.",
                known.join(", ")
            ),
        );
    }
    let args: BTreeSet<&str> = vars.iter().map(String::as_str).collect();
    for (var, completion) in &resource.complete {
        let at = under(path!["resources", i, "complete"], path![var.as_str()]);
        if !args.contains(var.as_str()) {
            c.report(
                &at,
                subject.clone(),
                format!(
                    "`{var}` is not a variable of this URI template; its variables are: {}.",
                    if vars.is_empty() {
                        "(none)".to_owned()
                    } else {
                        vars.join(", ")
                    }
                ),
            );
            continue;
        }
        check_completion(c, manifest, &at, subject.clone(), completion, &args);
    }
}

/// Which keys each content type takes.
fn takes(kind: ContentKind) -> &'static [&'static str] {
    match kind {
        ContentKind::Text => &["text"],
        ContentKind::Image | ContentKind::Audio => &["data", "mime_type"],
        ContentKind::Resource => &["uri", "mime_type", "text", "data"],
    }
}

fn check_content(
    c: &mut Checker<'_>,
    at: &[Step],
    subject: Option<String>,
    content: &Content,
    reads: &dyn Fn(&str) -> bool,
    readable: &str,
) {
    let kind = content.kind.as_str();
    let given = [
        ("text", &content.text),
        ("data", &content.data),
        ("mime_type", &content.mime_type),
        ("uri", &content.uri),
    ];
    let needed: &[&str] = match content.kind {
        ContentKind::Text => &["text"],
        ContentKind::Image | ContentKind::Audio => &["data", "mime_type"],
        ContentKind::Resource => &["uri", "mime_type"],
    };
    for field in needed {
        if given
            .iter()
            .any(|(name, value)| name == field && value.is_none())
        {
            c.report(
                at,
                subject.clone(),
                format!("a `{kind}` block needs `{field}`."),
            );
        }
    }
    for (name, value) in given {
        if value.is_some() && !takes(content.kind).contains(&name) {
            c.report(
                &under(at, path![name]),
                subject.clone(),
                format!(
                    "`{name}` has no place in a `{kind}` block; it takes: {}.",
                    takes(content.kind).join(", ")
                ),
            );
        }
    }
    if content.kind == ContentKind::Resource {
        match (&content.text, &content.data) {
            (Some(_), Some(_)) => c.report(
                &under(at, path!["data"]),
                subject.clone(),
                "an embedded resource has `text` or `data` (base64), not both. Keep one."
                    .to_owned(),
            ),
            (None, None) => c.report(
                at,
                subject.clone(),
                "an embedded resource needs `text` or `data` (base64).".to_owned(),
            ),
            _ => {}
        }
    }
    for (name, value) in given {
        let Some(template) = value else { continue };
        let field_at = under(at, path![name]);
        match template_variables(template) {
            Err(e) => c.report(
                &field_at,
                subject.clone(),
                format!("template does not parse: {e}."),
            ),
            Ok(vars) => {
                for var in vars.into_iter().filter(|v| !reads(v)) {
                    c.report(
                        &field_at,
                        subject.clone(),
                        format!("template uses `{var}`, which is not defined here: {readable}"),
                    );
                }
            }
        }
    }
}
