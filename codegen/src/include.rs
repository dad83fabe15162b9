//! `include: [TypeName]` inside a tool's `input` or `output`: the properties (and `required`) of
//! shared object types spliced into the schema, so a group of inputs (the graph selector) or a
//! shared result shape (the action packet) is written once. Runs before validation; what it
//! splices is then checked like any other property.

use crate::error::ManifestError;
use crate::locate::{Locator, Step};
use crate::model::Manifest;
use serde_json::{Map, Value};
use std::path::Path;

pub const KEY: &str = "include";

/// Splices every `include:` of `manifest` in place, recording the included names per tool.
pub fn expand(file: &Path, source: &str, manifest: &mut Manifest) -> Vec<ManifestError> {
    let locator = Locator::new(source);
    let mut errors = Vec::new();
    let types = manifest.types.clone();
    for (i, tool) in manifest.tools.iter_mut().enumerate() {
        for key in ["input", "output"] {
            let schema = if key == "input" {
                &mut tool.input
            } else {
                &mut tool.output
            };
            let mut report = |tail: &[Step], message: String| {
                let mut at = vec![Step::from("tools"), Step::from(i), Step::from(key)];
                at.extend_from_slice(tail);
                let (line, column) = locator.position(&at);
                errors.push(ManifestError {
                    file: file.to_owned(),
                    line,
                    column,
                    subject: Some(format!("tool `{}`", tool.name)),
                    message,
                });
            };
            let names = splice(schema, &types, &mut report);
            if key == "input" {
                tool.includes.input = names;
            } else {
                tool.includes.output = names;
            }
        }
    }
    errors
}

/// Splices the includes of one schema; answers the names that were spliced.
fn splice(
    schema: &mut Value,
    types: &std::collections::BTreeMap<String, Value>,
    report: &mut impl FnMut(&[Step], String),
) -> Vec<String> {
    let Some(map) = schema.as_object_mut() else {
        return Vec::new();
    };
    let Some(list) = map.remove(KEY) else {
        return Vec::new();
    };
    let Some(list) = list.as_array() else {
        report(
            &[Step::from(KEY)],
            "`include` is a list of shared type names, e.g. `include: [GraphSelector]`.".to_owned(),
        );
        return Vec::new();
    };
    let mut spliced = Map::new();
    let mut required: Vec<Value> = Vec::new();
    let mut names = Vec::new();
    for (k, entry) in list.iter().enumerate() {
        let at = [Step::from(KEY), Step::from(k)];
        let Some(name) = entry.as_str() else {
            report(
                &at,
                "`include` entries are shared type names (strings).".to_owned(),
            );
            continue;
        };
        let ty = types.get(name);
        let Some(props) = ty
            .and_then(|t| t.get("properties"))
            .and_then(Value::as_object)
        else {
            let objects: Vec<&str> = types
                .iter()
                .filter(|(_, t)| t.get("properties").is_some())
                .map(|(n, _)| n.as_str())
                .collect();
            report(
                &at,
                format!(
                    "`include: {name}` needs a shared object type with `properties`. Use one of: {}.",
                    objects.join(", ")
                ),
            );
            continue;
        };
        for (prop, value) in props {
            if spliced.insert(prop.clone(), value.clone()).is_some() {
                report(
                    &at,
                    format!("property `{prop}` comes from two included types. Include it once."),
                );
            }
        }
        required.extend(
            ty.and_then(|t| t.get("required"))
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
        );
        names.push(name.to_owned());
    }
    let own = map
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for prop in own.keys() {
        if spliced.contains_key(prop) {
            report(
                &[Step::from("properties"), Step::from(prop.as_str())],
                format!(
                    "property `{prop}` is also declared by an included type ({}). Remove one of them.",
                    names.join(", ")
                ),
            );
        }
    }
    // Included properties first, in include order, then the tool's own.
    spliced.extend(own);
    map.insert("properties".to_owned(), Value::Object(spliced));
    if !required.is_empty() {
        let mut all = required;
        for r in map
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !all.contains(r) {
                all.push(r.clone());
            }
        }
        map.insert("required".to_owned(), Value::Array(all));
    }
    names
}
