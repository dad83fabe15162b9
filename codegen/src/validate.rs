//! Semantic checks that serde cannot express. Each problem names where it is, what is wrong and
//! how to fix it; all problems of a manifest are reported at once.

use crate::checker::{Checker, Fields, check_completion, check_nexus, is_tool_name};
pub use crate::checker::{path_params, template_variables};
use crate::error::ManifestError;
use crate::locate::{Locator, Step};
use crate::model::{Access, HandlerKind, Manifest, Tool};
use crate::schema;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

macro_rules! path {
    ($($step:expr),* $(,)?) => { &[$(Step::from($step)),*] };
}

mod ask;
mod defaults;
mod envelope;
mod mutation_text;
mod naming;
mod paths;
mod unused;

/// Checks one parsed manifest; `source` is its text, used only to locate problems.
pub fn check(file: &Path, source: &str, manifest: &Manifest) -> Vec<ManifestError> {
    let mut c = Checker {
        file: file.to_owned(),
        locator: Locator::new(source),
        errors: Vec::new(),
    };
    check_surface(&mut c, file, manifest);
    check_scopes(&mut c, manifest);
    check_types(&mut c, manifest);
    let mut seen = BTreeSet::new();
    for (i, tool) in manifest.tools.iter().enumerate() {
        if !seen.insert(tool.name.as_str()) {
            c.report(
                path!["tools", i, "name"],
                Some(format!("tool `{}`", tool.name)),
                "duplicate tool name. Tool names must be unique within a surface: rename or remove one of them.".to_owned(),
            );
        }
        check_tool(&mut c, manifest, i, tool);
    }
    check_prompts_and_resources(&mut c, manifest);
    crate::validate_capabilities::check(&mut c, manifest);
    crate::validate_resources::check(&mut c, manifest);
    naming::check(&mut c, manifest);
    envelope::check(&mut c, manifest);
    defaults::check(&mut c, manifest);
    // A tool already in error (a misspelt template variable) would only get follow-up noise.
    let failed: BTreeSet<String> = c.errors.iter().filter_map(|e| e.subject.clone()).collect();
    unused::check(&mut c, manifest, &failed);
    paths::check(&mut c, manifest);
    mutation_text::check(&mut c, manifest);
    ask::check(&mut c, manifest);
    // The tool list is only measured once the tools themselves are sound.
    if c.errors.is_empty()
        && let Some(problem) = crate::budget::over_budget(manifest)
    {
        c.report(path!["server", "tool_list_budget"], None, problem);
    }
    c.errors
}

fn check_surface(c: &mut Checker<'_>, file: &Path, manifest: &Manifest) {
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if manifest.surface != stem {
        c.report(
            path!["surface"],
            None,
            format!(
                "surface is `{}` but the file is named `{stem}.yaml`. Name the file after its surface (the contract lives in contract/<surface>/).",
                manifest.surface
            ),
        );
    }
    // The registry names the surface from `surface`; a second name would let the two drift.
    if manifest.server.name != manifest.surface {
        c.report(
            path!["server", "name"],
            None,
            format!(
                "server.name is `{}` but surface is `{}`. They name the same thing: make server.name `{}`.",
                manifest.server.name, manifest.surface, manifest.surface
            ),
        );
    }
    if let Some(param) = &manifest.server.repository_binding {
        check_repository_binding(c, manifest, param);
    }
    if manifest.server.result_budget < 256 {
        c.report(
            path!["server", "result_budget"],
            None,
            "result_budget is below 256 characters: no useful answer fits. Use the default 8000 unless you have a reason.".to_owned(),
        );
    }
}

fn check_scopes(c: &mut Checker<'_>, manifest: &Manifest) {
    let mut seen = BTreeSet::new();
    for (i, scope) in manifest.scopes.iter().enumerate() {
        if !seen.insert(scope.name.as_str()) {
            c.report(
                path!["scopes", i, "name"],
                Some(format!("scope `{}`", scope.name)),
                "duplicate scope name. Each scope is declared once.".to_owned(),
            );
        }
        if scope.modes.is_empty() {
            c.report(
                path!["scopes", i, "modes"],
                Some(format!("scope `{}`", scope.name)),
                "modes is empty, so no tool of this scope could ever be served. List local_stdio and/or remote_http.".to_owned(),
            );
        }
    }
}

fn check_types(c: &mut Checker<'_>, manifest: &Manifest) {
    for (name, ty) in &manifest.types {
        let subject = Some(format!("type `{name}`"));
        if !is_pascal_case(name) {
            c.report(
                path!["types", name.as_str()],
                subject.clone(),
                "shared type names are PascalCase (they become Rust type names), e.g. GraphSelector.".to_owned(),
            );
        }
        check_refs(
            c,
            manifest,
            path!["types", name.as_str()],
            subject.clone(),
            ty,
        );
        check_json_schema(c, manifest, path!["types", name.as_str()], subject, ty);
    }
}

fn check_tool(c: &mut Checker<'_>, manifest: &Manifest, i: usize, tool: &Tool) {
    let subject = Some(format!("tool `{}`", tool.name));
    if !is_tool_name(&tool.name) {
        c.report(
            path!["tools", i, "name"],
            subject.clone(),
            "tool names must match ^[a-z][a-z0-9_]{0,63}$ (lower snake case, at most 64 characters), e.g. kg_file_context.".to_owned(),
        );
    }
    match manifest.scopes.iter().find(|s| s.name == tool.scope) {
        None => {
            let known: Vec<&str> = manifest.scopes.iter().map(|s| s.name.as_str()).collect();
            c.report(
                path!["tools", i, "scope"],
                subject.clone(),
                format!(
                    "unknown scope `{}`. Declare it under `scopes:` or use one of: {}.",
                    tool.scope,
                    known.join(", ")
                ),
            );
        }
        Some(scope) => {
            for mode in tool.modes.iter().flatten() {
                if !scope.modes.contains(mode) {
                    c.report(
                        path!["tools", i, "modes"],
                        subject.clone(),
                        format!(
                            "mode `{}` is not allowed by scope `{}`. A tool's modes can only narrow its scope's modes.",
                            mode.as_str(),
                            scope.name
                        ),
                    );
                }
            }
        }
    }
    for (key, schema) in [("input", &tool.input), ("output", &tool.output)] {
        if schema.get("type").and_then(Value::as_str) != Some("object") {
            c.report(
                path!["tools", i, key],
                subject.clone(),
                format!("{key} must be a JSON Schema with `type: object` (MCP requires object-typed tool schemas)."),
            );
        }
        check_refs(c, manifest, path!["tools", i, key], subject.clone(), schema);
        check_json_schema(c, manifest, path!["tools", i, key], subject.clone(), schema);
    }
    let inputs: BTreeMap<&str, &Value> = schema::properties(&tool.input).into_iter().collect();
    let required = schema::required(&tool.input);
    check_mapping(c, i, tool, &inputs, &required);
    check_pagination(c, i, tool, &inputs);
    check_mutation(c, manifest, i, tool, &inputs);
}

fn check_mapping(
    c: &mut Checker<'_>,
    i: usize,
    tool: &Tool,
    inputs: &BTreeMap<&str, &Value>,
    required: &BTreeSet<&str>,
) {
    let subject = Some(format!("tool `{}`", tool.name));
    let Some(nexus) = &tool.nexus else {
        if tool.handler == HandlerKind::Mapped {
            c.report(
                path!["tools", i, "handler"],
                subject,
                "a mapped tool needs a `nexus:` mapping (method, path, query/body). Add one, or set `handler: custom` and implement the tool in Rust.".to_owned(),
            );
        }
        return;
    };
    let fields = Fields {
        prefix: "input",
        names: inputs.keys().copied().collect(),
        required: required.clone(),
        a_field: "an input field",
        add_to: "the input properties",
        when_missing: "has no value when the input omits it. Add `{}` to the input's `required` list.",
        answers: tool
            .ask
            .iter()
            .flat_map(|round| round.keys().map(String::as_str))
            .collect(),
    };
    let at = [Step::from("tools"), Step::from(i), Step::from("nexus")];
    check_nexus(c, &at, subject, nexus, &fields);
}

fn check_pagination(c: &mut Checker<'_>, i: usize, tool: &Tool, inputs: &BTreeMap<&str, &Value>) {
    let Some(p) = &tool.pagination else { return };
    if !inputs.contains_key(p.cursor.as_str()) {
        c.report(
            path!["tools", i, "pagination", "cursor"],
            Some(format!("tool `{}`", tool.name)),
            format!(
                "pagination cursor `{}` is not an input field. Add it as an optional string input.",
                p.cursor
            ),
        );
    }
}

/// `server.repository_binding` names a query parameter the engine adds to every backend request
/// of a restricted caller; no tool may set it itself, or a caller could widen its own view.
fn check_repository_binding(c: &mut Checker<'_>, manifest: &Manifest, param: &str) {
    let at = path!["server", "repository_binding"];
    if param.is_empty()
        || !param
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '-')
    {
        c.report(
            at,
            None,
            format!("repository_binding `{param}` is not a query parameter name. Use letters, digits, `_` or `-` (e.g. `visible`)."),
        );
        return;
    }
    for (i, tool) in manifest.tools.iter().enumerate() {
        if let Some(nexus) = &tool.nexus
            && nexus.query.contains_key(param)
        {
            c.report(
                path!["tools", i, "nexus", "query", param],
                Some(format!("tool `{}`", tool.name)),
                format!("`{param}` is the surface's repository_binding: the engine sets it from the caller's key, so a tool must not send it. Remove it from `query:`."),
            );
        }
    }
}

fn check_mutation(
    c: &mut Checker<'_>,
    manifest: &Manifest,
    i: usize,
    tool: &Tool,
    inputs: &BTreeMap<&str, &Value>,
) {
    let subject = Some(format!("tool `{}`", tool.name));
    let Some(m) = &tool.mutation else {
        if matches!(tool.access, Access::Write | Access::Destructive) {
            c.report(
                path!["tools", i, "access"],
                subject,
                format!(
                    "a {} tool must declare `mutation:` with a dry-run switch defaulting to true (`dry_run: {{param: dry_run, default: true}}`) or a paired dry-run tool plus a confirmation parameter (`paired_dry_run_tool` and `require_true`).",
                    tool.access.as_str()
                ),
            );
        }
        return;
    };
    if matches!(tool.access, Access::Read | Access::Append) {
        c.report(
            path!["tools", i, "mutation"],
            subject.clone(),
            format!("a{} {} tool cannot declare `mutation:`. Set `access: write` (or destructive) if it changes anything beyond adding a record.", if tool.access == Access::Append { "n" } else { "" }, tool.access.as_str()),
        );
    }
    let is_bool = |name: &str| {
        inputs
            .get(name)
            .and_then(|s| s.get("type"))
            .and_then(Value::as_str)
            == Some("boolean")
    };
    match (&m.dry_run, &m.paired_dry_run_tool) {
        (Some(dry), _) => {
            let at = path!["tools", i, "mutation", "dry_run"];
            if !dry.default {
                c.report(at, subject.clone(), "the dry-run switch must default to true: a tool never mutates unless asked to. Set `default: true`.".to_owned());
            }
            if !is_bool(&dry.param) {
                c.report(at, subject.clone(), format!("dry-run switch `{}` must be a boolean input field.", dry.param));
            } else if inputs.get(dry.param.as_str()).and_then(|s| s.get("default")) != Some(&Value::Bool(true)) {
                c.report(at, subject.clone(), format!("input `{}` must declare `default: true` so clients see the safe default.", dry.param));
            }
        }
        (None, Some(paired)) => match manifest.tools.iter().find(|t| &t.name == paired) {
            Some(t) if t.access == Access::Read => {
                if m.require_true.is_empty() {
                    c.report(path!["tools", i, "mutation"], subject.clone(), "a tool with a paired dry-run tool also needs a confirmation parameter: list it in `require_true`.".to_owned());
                }
            }
            Some(_) => c.report(path!["tools", i, "mutation", "paired_dry_run_tool"], subject.clone(), format!("paired dry-run tool `{paired}` must be `access: read`.")),
            None => c.report(path!["tools", i, "mutation", "paired_dry_run_tool"], subject.clone(), format!("paired dry-run tool `{paired}` is not declared in this manifest.")),
        },
        (None, None) => c.report(
            path!["tools", i, "mutation"],
            subject.clone(),
            "declare a dry-run switch defaulting to true (`dry_run: {param: dry_run, default: true}`) or a paired dry-run tool (`paired_dry_run_tool`) with a confirmation parameter in `require_true`.".to_owned(),
        ),
    }
    for (k, name) in m.require_true.iter().enumerate() {
        if !is_bool(name) {
            c.report(
                path!["tools", i, "mutation", "require_true", k],
                subject.clone(),
                format!("`{name}` must be a boolean input field to be required true."),
            );
        }
    }
    for (key, param) in [("plan_param", &m.plan_param)] {
        if let Some(p) = param
            && !inputs.contains_key(p.as_str())
        {
            c.report(
                path!["tools", i, "mutation", key],
                subject.clone(),
                format!("`{p}` is not an input field of this tool."),
            );
        }
    }
    if let Some(f) = &m.follow_up
        && !manifest.tools.iter().any(|t| &t.name == f)
    {
        c.report(
            path!["tools", i, "mutation", "follow_up"],
            subject,
            format!("follow-up tool `{f}` is not declared in this manifest."),
        );
    }
}

fn check_prompts_and_resources(c: &mut Checker<'_>, manifest: &Manifest) {
    let mut seen = BTreeSet::new();
    for (i, prompt) in manifest.prompts.iter().enumerate() {
        let subject = Some(format!("prompt `{}`", prompt.name));
        if !seen.insert(prompt.name.as_str()) {
            c.report(
                path!["prompts", i, "name"],
                subject.clone(),
                "duplicate prompt name.".to_owned(),
            );
        }
        let args: BTreeSet<&str> = prompt.arguments.iter().map(|a| a.name.as_str()).collect();
        for (j, arg) in prompt.arguments.iter().enumerate() {
            if let Some(complete) = &arg.complete {
                let at = [
                    Step::from("prompts"),
                    Step::from(i),
                    Step::from("arguments"),
                    Step::from(j),
                    Step::from("complete"),
                ];
                let subject = Some(format!("prompt `{}`, argument `{}`", prompt.name, arg.name));
                check_completion(c, manifest, &at, subject, complete, &args);
            }
        }
        check_text_template(
            c,
            path!["prompts", i, "template"],
            subject,
            &prompt.template,
            |v| {
                v.strip_prefix("args.").is_some_and(|a| args.contains(a))
                    || crate::validate_resources::reads_call_result(prompt, v)
                    || crate::validate_resources::reads_answer(prompt, v)
            },
        );
    }
    let mut seen = BTreeSet::new();
    for (i, resource) in manifest.resources.iter().enumerate() {
        let subject = Some(format!("resource `{}`", resource.uri));
        if !seen.insert(resource.uri.as_str()) {
            c.report(
                path!["resources", i, "uri"],
                subject.clone(),
                "duplicate resource uri.".to_owned(),
            );
        }
        if !resource.uri.contains("://") {
            c.report(
                path!["resources", i, "uri"],
                subject.clone(),
                "a resource uri needs a scheme, e.g. nexus-code-kg://guide/cycle.".to_owned(),
            );
        }
        check_text_template(
            c,
            path!["resources", i, "template"],
            subject,
            &resource.template,
            |v| crate::validate_resources::resource_template_reads(resource, v),
        );
    }
}

pub(crate) fn check_text_template(
    c: &mut Checker<'_>,
    at: &[Step],
    subject: Option<String>,
    template: &str,
    allowed: impl Fn(&str) -> bool,
) {
    match template_variables(template) {
        Err(e) => c.report(at, subject, format!("template does not parse: {e}.")),
        Ok(vars) => {
            for var in vars {
                if !(var.starts_with("server.") || var == "server" || allowed(&var)) {
                    c.report(at, subject.clone(), format!("template uses `{var}`, which is not defined. Prompts can read `args.<declared argument>`, `server.<key>` and, with `call:`, `result`; resources `server.<key>`, `args.<URI variable>` and, with `nexus:`, `result`."));
                }
            }
        }
    }
}

fn check_refs(
    c: &mut Checker<'_>,
    manifest: &Manifest,
    at: &[Step],
    subject: Option<String>,
    schema: &Value,
) {
    let mut refs = Vec::new();
    refs_with_paths(schema, &mut at.to_vec(), &mut refs);
    for (ref_at, r) in refs {
        match r.strip_prefix(schema::TYPE_REF_PREFIX) {
            Some(name) if manifest.types.contains_key(name) => {}
            // A schema's own `$defs` (JSON Schema 2020-12), published as written.
            None if r
                .strip_prefix("#/$defs/")
                .is_some_and(|name| schema.get("$defs").and_then(|d| d.get(name)).is_some()) => {}
            Some(name) => {
                let known: Vec<&str> = manifest.types.keys().map(String::as_str).collect();
                c.report(&ref_at, subject.clone(), format!("unknown type `{name}` in `$ref: {r}`. Declare it under `types:` or use one of: {}.", known.join(", ")));
            }
            None => c.report(
                &ref_at,
                subject.clone(),
                format!(
                    "`$ref: {r}` is not supported: reference shared types as `#/types/<Name>`, or this schema's own `$defs` as `#/$defs/<name>`."
                ),
            ),
        }
    }
}

/// Every `$ref` inside `schema` with the path of its `$ref` key (under `at`), so that a bad
/// reference is reported where it is written rather than at the top of the schema.
fn refs_with_paths(schema: &Value, at: &mut Vec<Step>, found: &mut Vec<(Vec<Step>, String)>) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                at.push(Step::Key(key.clone()));
                match (key.as_str(), value) {
                    ("$ref", Value::String(r)) => found.push((at.clone(), r.clone())),
                    _ => refs_with_paths(value, at, found),
                }
                at.pop();
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                at.push(Step::Index(i));
                refs_with_paths(item, at, found);
                at.pop();
            }
        }
        _ => {}
    }
}

fn check_json_schema(
    c: &mut Checker<'_>,
    manifest: &Manifest,
    at: &[Step],
    subject: Option<String>,
    schema: &Value,
) {
    let published = schema::publish(schema, &manifest.types);
    // Always 2020-12 (what MCP clients assume), whatever `$schema` says: auto-detection would
    // check a schema declaring another draft by that draft's rules.
    let meta = jsonschema::draft202012::meta::validator();
    // Errors inside `$defs` belong to a shared type, which is checked (and reported) on its own.
    let first = meta
        .iter_errors(&published)
        .find(|e| !e.instance_path().to_string().starts_with("/$defs/"));
    if let Some(e) = first {
        let pointer = e.instance_path().to_string();
        let mut error_at = at.to_vec();
        error_at.extend(
            pointer
                .split('/')
                .skip(1)
                .map(|token| Step::Key(token.replace("~1", "/").replace("~0", "~"))),
        );
        c.report(
            &error_at,
            subject,
            format!("not a valid JSON Schema 2020-12: {e} (at {pointer})."),
        );
    }
}

fn is_pascal_case(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|ch| ch.is_ascii_uppercase())
        && name.chars().all(|ch| ch.is_ascii_alphanumeric())
}
