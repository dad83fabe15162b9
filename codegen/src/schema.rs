//! JSON Schema handling: shared-type references, the published form of each schema, and the
//! `truncation` field every tool result may carry.

use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};

/// The prefix spec authors use to reference a shared type.
pub const TYPE_REF_PREFIX: &str = "#/types/";
const DEFS_REF_PREFIX: &str = "#/$defs/";

/// Names of shared types referenced anywhere inside `schema` (not transitively).
pub fn referenced_types(schema: &Value) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    walk_refs(schema, &mut |r| {
        if let Some(name) = r.strip_prefix(TYPE_REF_PREFIX) {
            found.insert(name.to_owned());
        }
    });
    found
}

/// Every `$ref` string inside `schema`.
pub fn all_refs(schema: &Value) -> Vec<String> {
    let mut refs = Vec::new();
    walk_refs(schema, &mut |r| refs.push(r.to_owned()));
    refs
}

fn walk_refs(schema: &Value, visit: &mut impl FnMut(&str)) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("$ref", Value::String(r)) => visit(r),
                    _ => walk_refs(value, visit),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| walk_refs(v, visit)),
        _ => {}
    }
}

/// The schema clients see: `#/types/X` becomes `#/$defs/X`, with every type it needs
/// (transitively) under `$defs`, so each published schema stands on its own.
pub fn publish(schema: &Value, types: &BTreeMap<String, Value>) -> Value {
    let mut needed = BTreeSet::new();
    let mut queue: Vec<String> = referenced_types(schema).into_iter().collect();
    while let Some(name) = queue.pop() {
        if needed.insert(name.clone())
            && let Some(ty) = types.get(&name)
        {
            queue.extend(referenced_types(ty));
        }
    }
    let mut published = rewrite_refs(schema);
    if !needed.is_empty()
        && let Value::Object(map) = &mut published
    {
        let defs: Map<String, Value> = needed
            .into_iter()
            .filter_map(|name| types.get(&name).map(|t| (name, rewrite_refs(t))))
            .collect();
        map.insert("$defs".to_owned(), Value::Object(defs));
    }
    published
}

fn rewrite_refs(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| {
                    let value = match (key.as_str(), value) {
                        ("$ref", Value::String(r)) => match r.strip_prefix(TYPE_REF_PREFIX) {
                            Some(name) => Value::String(format!("{DEFS_REF_PREFIX}{name}")),
                            None => value.clone(),
                        },
                        _ => rewrite_refs(value),
                    };
                    (key.clone(), value)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(rewrite_refs).collect()),
        other => other.clone(),
    }
}

/// The `truncation` block the runtime adds to any result the budget cut; every surface has it
/// (the surface's own envelope fields are declared in its manifest: envelope.rs).
pub fn truncation_schema() -> Value {
    json!({
        "type": "object",
        "description": "Present when the result was cut to fit its budget; nothing is ever cut silently.",
        "properties": {
            "truncated": {"type": "boolean"},
            "cuts": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "path": {"type": "string"},
                        "kept": {"type": "integer"},
                        "total": {"type": "integer"}
                    },
                    "required": ["path", "kept", "total"]
                }
            },
            "strings_shortened": {"type": "integer"},
            "next_cursor": {"type": ["string", "null"]},
            "note": {"type": "string"}
        },
        "required": ["truncated"]
    })
}

/// The block a page reached with a cursor carries when its tool pages `also` lists
/// (registry's `CONTINUED_KEY`).
pub fn continued_schema() -> Value {
    json!({
        "type": "object",
        "description": "On a page reached with a cursor: for each list, how many of its items earlier pages showed. This page's items follow them; an empty list was shown in full before.",
        "additionalProperties": {"type": "integer", "minimum": 0}
    })
}

/// The declared properties of an object schema, in declaration order.
pub fn properties(schema: &Value) -> Vec<(&str, &Value)> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| props.iter().map(|(k, v)| (k.as_str(), v)).collect())
        .unwrap_or_default()
}

/// The `required` list of an object schema.
pub fn required(schema: &Value) -> BTreeSet<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// The primary JSON type of a property schema, following `#/types/` refs.
pub fn primary_type<'a>(schema: &'a Value, types: &'a BTreeMap<String, Value>) -> Option<&'a str> {
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        let name = r.strip_prefix(TYPE_REF_PREFIX)?;
        return primary_type(types.get(name)?, types);
    }
    match schema.get("type")? {
        Value::String(t) => Some(t),
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}
