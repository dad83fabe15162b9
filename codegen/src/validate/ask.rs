//! A tool's `ask:` (questions for the client before it runs) and a mutation's `confirm:` (the
//! question for the human before a real run): well-formed requests a client can answer.

use super::Checker;
use super::paths::walk;
use crate::checker::template_variables;
use crate::locate::Step;
use crate::model::{Access, Ask, Choose, Manifest};
use nexus_mcp_registry::spec::{CHOICE_KEY, CONFIRM_KEY};
use serde_json::Value;
use std::collections::BTreeMap;
use std::collections::BTreeSet;

/// The types an elicitation form field may have (MCP `PrimitiveSchemaDefinition`, plus the
/// multi-select `array` of enum items of SEP-1330).
const FORM_TYPES: [&str; 5] = ["string", "number", "integer", "boolean", "array"];

pub(super) fn check(c: &mut Checker<'_>, manifest: &Manifest) {
    for (i, tool) in manifest.tools.iter().enumerate() {
        let subject = Some(format!("tool `{}`", tool.name));
        let inputs: BTreeSet<&str> = crate::schema::properties(&tool.input)
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        let reads = Reads {
            prefix: "input",
            names: inputs,
        };
        check_rounds(
            c,
            &[Step::from("tools"), Step::from(i)],
            &subject,
            &reads,
            &tool.ask,
        );
        if let Some(m) = &tool.mutation
            && let Some(confirm) = &m.confirm
        {
            let at = [
                Step::from("tools"),
                Step::from(i),
                Step::from("mutation"),
                Step::from("confirm"),
            ];
            if m.require_true.is_empty() {
                c.report(&at, subject.clone(), "`confirm` needs `require_true`: a client that cannot ask its human falls back to those flags. Add the confirmation flag to `require_true`.".to_owned());
            }
            if tool.ask.iter().any(|round| round.contains_key(CONFIRM_KEY)) {
                c.report(&at, subject.clone(), format!("question key `{CONFIRM_KEY}` is the confirmation's own; rename that question."));
            }
            check_template(c, &at, subject.clone(), &reads, confirm);
        }
        if let Some(choose) = &tool.choose {
            check_choose(c, manifest, i, &subject, &reads, choose);
        }
    }
    for (i, prompt) in manifest.prompts.iter().enumerate() {
        let subject = Some(format!("prompt `{}`", prompt.name));
        let reads = Reads {
            prefix: "args",
            names: prompt.arguments.iter().map(|a| a.name.as_str()).collect(),
        };
        check_rounds(
            c,
            &[Step::from("prompts"), Step::from(i)],
            &subject,
            &reads,
            &prompt.ask,
        );
    }
}

/// A `choose:` re-runs a read tool with one more input: the matches are an output array whose
/// items carry `by`, and `by` is an input.
fn check_choose(
    c: &mut Checker<'_>,
    manifest: &Manifest,
    i: usize,
    subject: &Option<String>,
    reads: &Reads<'_>,
    choose: &Choose,
) {
    let tool = &manifest.tools[i];
    let at = [Step::from("tools"), Step::from(i), Step::from("choose")];
    if tool.mutation.is_some() || tool.access != Access::Read {
        c.report(&at, subject.clone(), "`choose` re-runs the tool with the human's pick, so it is only for `access: read` tools without `mutation`; remove it.".to_owned());
    }
    if tool.ask.iter().any(|round| round.contains_key(CHOICE_KEY)) {
        c.report(
            &at,
            subject.clone(),
            format!("question key `{CHOICE_KEY}` is the choice's own; rename that question."),
        );
    }
    if let Err(miss) = walk(
        &tool.output,
        &[choose.from.as_str(), "*", choose.by.as_str()],
        &manifest.types,
    ) {
        c.report(
            &[&at[..], &[Step::from("from")]].concat(),
            subject.clone(),
            format!(
                "`from: {}` with `by: {}` needs an output array `{}` whose items have `{}`: {}",
                choose.from,
                choose.by,
                choose.from,
                choose.by,
                miss.describe()
            ),
        );
    }
    if !reads.names.contains(choose.by.as_str()) {
        c.report(&[&at[..], &[Step::from("by")]].concat(), subject.clone(), format!("`by: {}` is not an input of the tool: the pick is passed back as that input. Declare it under `input.properties`.", choose.by));
    }
    check_template_with(
        c,
        &[&at[..], &[Step::from("message")]].concat(),
        subject.clone(),
        reads,
        &["total"],
        &choose.message,
    );
    let item_fields = item_fields(manifest, i, &choose.from);
    let label_reads = Reads {
        prefix: "item",
        names: item_fields.iter().map(String::as_str).collect(),
    };
    check_template_with(
        c,
        &[&at[..], &[Step::from("label")]].concat(),
        subject.clone(),
        &label_reads,
        &[],
        &choose.label,
    );
}

/// The field names of the items of output array `from` (empty when it is not one).
fn item_fields(manifest: &Manifest, i: usize, from: &str) -> Vec<String> {
    let output = &manifest.tools[i].output;
    let items = crate::schema::properties(output)
        .into_iter()
        .find(|(k, _)| *k == from)
        .and_then(|(_, p)| p.get("items"));
    let Some(items) = items else {
        return Vec::new();
    };
    let items = items
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix(crate::schema::TYPE_REF_PREFIX))
        .and_then(|name| manifest.types.get(name))
        .unwrap_or(items);
    crate::schema::properties(items)
        .into_iter()
        .map(|(k, _)| k.to_owned())
        .collect()
}

/// What a question's text may read: `<prefix>.<name>`.
struct Reads<'a> {
    prefix: &'a str,
    names: BTreeSet<&'a str>,
}

fn check_rounds(
    c: &mut Checker<'_>,
    at: &[Step],
    subject: &Option<String>,
    reads: &Reads<'_>,
    rounds: &[BTreeMap<String, Ask>],
) {
    let mut seen = BTreeSet::new();
    for (r, round) in rounds.iter().enumerate() {
        let at = [at, &[Step::from("ask"), Step::from(r)]].concat();
        if round.is_empty() {
            c.report(&at, subject.clone(), "an `ask:` round needs at least one question (`key: {elicit: …}`); remove the empty round.".to_owned());
        }
        for (key, ask) in round {
            let at = [&at[..], &[Step::from(key.as_str())]].concat();
            if !is_key(key) {
                c.report(&at, subject.clone(), format!("question key `{key}` must be letters, digits and `_`, starting with a letter (templates read it as `answers.{key}`)."));
            }
            if !seen.insert(key.as_str()) {
                c.report(
                    &at,
                    subject.clone(),
                    format!("question key `{key}` is used twice; each answer needs its own key."),
                );
            }
            check_question(c, &at, subject.clone(), reads, ask);
        }
    }
}

fn is_key(key: &str) -> bool {
    key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn check_question(
    c: &mut Checker<'_>,
    at: &[Step],
    subject: Option<String>,
    reads: &Reads<'_>,
    ask: &Ask,
) {
    let kinds = [
        ask.elicit.is_some(),
        ask.sample.is_some(),
        ask.roots.is_some(),
    ];
    if kinds.iter().filter(|k| **k).count() != 1 {
        c.report(at, subject, "a question is exactly one of `elicit: {message, schema}`, `sample: {prompt, max_tokens}` or `roots: {}`.".to_owned());
        return;
    }
    if let Some(e) = &ask.elicit {
        let at = [at, &[Step::from("elicit")]].concat();
        check_template(c, &at, subject.clone(), reads, &e.message);
        check_form(
            c,
            &[&at[..], &[Step::from("schema")]].concat(),
            subject,
            &e.schema,
        );
    } else if let Some(s) = &ask.sample {
        let at = [at, &[Step::from("sample")]].concat();
        check_template(c, &at, subject.clone(), reads, &s.prompt);
        if s.max_tokens == 0 {
            c.report(&at, subject, "`max_tokens` must be at least 1.".to_owned());
        }
    }
}

/// An elicitation form: an object whose properties are primitives (MCP forms are flat).
fn check_form(c: &mut Checker<'_>, at: &[Step], subject: Option<String>, schema: &Value) {
    let properties = schema.get("properties").and_then(Value::as_object);
    let Some(properties) =
        properties.filter(|_| schema.get("type") == Some(&Value::from("object")))
    else {
        c.report(at, subject, "an elicitation schema is `type: object` with `properties:` (MCP forms are flat objects of strings, numbers, integers and booleans).".to_owned());
        return;
    };
    for (name, property) in properties {
        let ty = property
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let items = property.get("items");
        let choices = items.is_some_and(|i| i.get("enum").is_some() || i.get("anyOf").is_some());
        if !FORM_TYPES.contains(&ty) || (ty == "array" && !choices) {
            c.report(at, subject.clone(), format!("form field `{name}` has type `{ty}`; an elicitation form field is a string, number, integer, boolean, or an array whose `items` list choices (`enum` or `anyOf`)."));
        }
    }
}

/// A question's text reads only the tool's input (a prompt's arguments).
fn check_template(
    c: &mut Checker<'_>,
    at: &[Step],
    subject: Option<String>,
    reads: &Reads<'_>,
    template: &str,
) {
    check_template_with(c, at, subject, reads, &[], template);
}

/// A template reads only `<prefix>.<name>` of `reads`, and the plain `names`.
fn check_template_with(
    c: &mut Checker<'_>,
    at: &[Step],
    subject: Option<String>,
    reads: &Reads<'_>,
    names: &[&str],
    template: &str,
) {
    match template_variables(template) {
        Err(e) => c.report(
            at,
            subject,
            format!("template `{template}` does not parse: {e}."),
        ),
        Ok(vars) => {
            for var in vars {
                let field = var
                    .strip_prefix(reads.prefix)
                    .and_then(|rest| rest.strip_prefix('.'))
                    .map(|f| f.split('.').next().unwrap_or_default());
                if !field.is_some_and(|f| reads.names.contains(f)) && !names.contains(&var.as_str())
                {
                    let also: String = names.iter().map(|n| format!(" and `{n}`")).collect();
                    c.report(at, subject.clone(), format!("template uses `{var}`; a question can only read `{}.<name>` of what it belongs to{also}.", reads.prefix));
                }
            }
        }
    }
}
