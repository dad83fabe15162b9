//! `response.pick` and `response.exclude` paths are checked against the tool's output schema, so
//! a typo (`items.*.finding_idd`) fails the build instead of silently dropping a field. `pick`
//! paths must exist; an `exclude` path removes its last step, so only its parent must exist
//! (the output describes the result after exclusion). The lists a cursor pages (`pagination.items`
//! and `pagination.also`) must be arrays of the output. A schema without `properties`, `items`
//! or `additionalProperties` is open: paths below it are not checked.

use super::Checker;
use crate::locate::Step;
use crate::model::Manifest;
use crate::schema::TYPE_REF_PREFIX;
use serde_json::Value;
use std::collections::BTreeMap;

pub(super) fn check(c: &mut Checker<'_>, manifest: &Manifest) {
    for (i, tool) in manifest.tools.iter().enumerate() {
        for (key, paths) in [
            ("pick", &tool.response.pick),
            ("exclude", &tool.response.exclude),
        ] {
            for (k, path) in paths.iter().enumerate() {
                let segments: Vec<&str> = path.split('.').collect();
                let checked = if key == "exclude" {
                    &segments[..segments.len().saturating_sub(1)]
                } else {
                    &segments[..]
                };
                if let Err(miss) = walk(&tool.output, checked, &manifest.types) {
                    c.report(
                        &[
                            Step::from("tools"),
                            Step::from(i),
                            Step::from("response"),
                            Step::from(key),
                            Step::from(k),
                        ],
                        Some(format!("tool `{}`", tool.name)),
                        miss.message(key, path),
                    );
                }
            }
        }
        check_paged_lists(c, manifest, i);
    }
}

/// `pagination.items` and every `pagination.also` list name distinct arrays of the output: the
/// engine drops shown items from them and counts what it cut, so a typo would page nothing.
fn check_paged_lists(c: &mut Checker<'_>, manifest: &Manifest, i: usize) {
    let tool = &manifest.tools[i];
    let Some(p) = &tool.pagination else { return };
    let lists = std::iter::once(("items", None, &p.items))
        .chain(p.also.iter().enumerate().map(|(k, l)| ("also", Some(k), l)));
    let mut seen = Vec::new();
    for (key, k, list) in lists {
        let mut at = vec![
            Step::from("tools"),
            Step::from(i),
            Step::from("pagination"),
            Step::from(key),
        ];
        at.extend(k.map(Step::from));
        let subject = Some(format!("tool `{}`", tool.name));
        let segments: Vec<&str> = list.split('.').collect();
        let message = if seen.contains(&list) {
            Some(format!(
                "list `{list}` is paged twice; name each list once in `items` or `also`."
            ))
        } else {
            let problem = match walk(&tool.output, &segments, &manifest.types) {
                Err(miss) => Some(miss.describe()),
                Ok(()) if !is_array(&tool.output, &segments, &manifest.types) => {
                    Some(format!("`{list}` is declared, but not as an array"))
                }
                Ok(()) => None,
            };
            problem.map(|problem| format!("paged list `{list}` must be an array of the output: {problem}. Fix the name, or declare it in `output` as an array."))
        };
        if let Some(message) = message {
            c.report(&at, subject, message);
        }
        seen.push(list);
    }
}

/// Whether the declared property at `segments` (which [`walk`] found) may be an array; an open
/// schema on the way may.
fn is_array(schema: &Value, segments: &[&str], types: &BTreeMap<String, Value>) -> bool {
    branches(schema, types)
        .into_iter()
        .any(|branch| match segments.split_first() {
            None => {
                branch.get("items").is_some()
                    || crate::schema::primary_type(branch, types) == Some("array")
            }
            Some((step, rest)) => match branch.get("properties").and_then(|p| p.get(*step)) {
                Some(next) => is_array(next, rest, types),
                None => branch.get("properties").is_none(),
            },
        })
}

/// Where a path left the schema.
pub(super) struct Miss {
    /// The path up to and including the missing step.
    at: String,
    /// Names that exist at that level, nearest first.
    nearest: Vec<String>,
}

impl Miss {
    fn message(&self, key: &str, path: &str) -> String {
        format!(
            "{key} path `{path}`: {}. Fix the path, or declare the field in `output`.",
            self.describe()
        )
    }

    /// Where the path left the schema and what exists there.
    pub(super) fn describe(&self) -> String {
        let hint = if self.nearest.is_empty() {
            "it has no named fields there".to_owned()
        } else {
            format!("nearest existing: {}", self.nearest.join(", "))
        };
        format!("`{}` is not in the output schema ({hint})", self.at)
    }
}

fn resolve<'a>(schema: &'a Value, types: &'a BTreeMap<String, Value>) -> &'a Value {
    match schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix(TYPE_REF_PREFIX))
        .and_then(|name| types.get(name))
    {
        Some(target) => resolve(target, types),
        None => schema,
    }
}

/// The branches a value may take: `anyOf`/`oneOf` alternatives (nullable refs), or itself.
fn branches<'a>(schema: &'a Value, types: &'a BTreeMap<String, Value>) -> Vec<&'a Value> {
    let schema = resolve(schema, types);
    let alternatives: Vec<&Value> = ["anyOf", "oneOf"]
        .iter()
        .filter_map(|k| schema.get(*k).and_then(Value::as_array))
        .flatten()
        .map(|s| resolve(s, types))
        .filter(|s| s.get("type").and_then(Value::as_str) != Some("null"))
        .collect();
    if alternatives.is_empty() {
        vec![schema]
    } else {
        alternatives
    }
}

pub(super) fn walk(
    schema: &Value,
    segments: &[&str],
    types: &BTreeMap<String, Value>,
) -> Result<(), Miss> {
    let Some((step, rest)) = segments.split_first() else {
        return Ok(());
    };
    let mut names = Vec::new();
    let mut last_miss = None;
    for branch in branches(schema, types) {
        let props = branch.get("properties").and_then(Value::as_object);
        let items = branch.get("items").filter(|i| i.is_object());
        let map = branch.get("additionalProperties").filter(|a| a.is_object());
        let next = if *step == "*" {
            items.or(map)
        } else {
            props.and_then(|p| p.get(*step)).or(map)
        };
        if props.is_none() && items.is_none() && map.is_none() {
            return Ok(()); // open schema
        }
        match next {
            Some(next) => match walk(next, rest, types) {
                Ok(()) => return Ok(()),
                Err(mut miss) => {
                    miss.at = format!("{step}.{}", miss.at);
                    last_miss = Some(miss);
                }
            },
            None => {
                names.extend(props.into_iter().flat_map(|p| p.keys().cloned()));
                if items.is_some() {
                    names.push("*".to_owned());
                }
            }
        }
    }
    if let Some(miss) = last_miss {
        return Err(miss);
    }
    names.sort_by_key(|n| (distance(n, step), n.clone()));
    names.dedup();
    names.truncate(3);
    Err(Miss {
        at: (*step).to_owned(),
        nearest: names,
    })
}

/// Levenshtein distance, for "did you mean".
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}
