//! A tool's `ask:` (questions for the client before it runs) and a mutation's `confirm:` (the
//! question for the human before a real run): well-formed requests a client can answer.

use super::Checker;
use crate::checker::template_variables;
use crate::locate::Step;
use crate::model::{Ask, Manifest};
use nexus_mcp_registry::spec::CONFIRM_KEY;
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
                if !field.is_some_and(|f| reads.names.contains(f)) {
                    c.report(at, subject.clone(), format!("template uses `{var}`; a question can only read `{}.<name>` of what it belongs to.", reads.prefix));
                }
            }
        }
    }
}
