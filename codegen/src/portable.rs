//! Published schemas every client can read: no `type: [T, "null"]` (several clients and
//! validators reject type arrays; `anyOf` says the same portably), and input schemas without
//! `$defs` (a model reads each tool's input; repeating the same definitions in every tool costs
//! context for nothing, so shared input types are inlined where they are used).

use crate::schema::{self, TYPE_REF_PREFIX};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// Annotation keywords that stay on the outer schema when a nullable type becomes an `anyOf`.
const ANNOTATIONS: [&str; 5] = ["description", "title", "default", "examples", "deprecated"];

/// The published input schema: shared types inlined (falling back to `$defs` for a recursive
/// type), nullable types as `anyOf`.
pub fn input(schema: &Value, types: &BTreeMap<String, Value>) -> Value {
    let published =
        inline(schema, types, &mut Vec::new()).unwrap_or_else(|| schema::publish(schema, types));
    nullable_as_any_of(&published)
}

/// The published output schema: shared types under `$defs`, nullable types as `anyOf`.
pub fn output(schema: &Value, types: &BTreeMap<String, Value>) -> Value {
    nullable_as_any_of(&schema::publish(schema, types))
}

/// `schema` with every `#/types/X` replaced by X's schema (the referencing schema's own keys
/// win); `None` when a type references itself.
fn inline(
    schema: &Value,
    types: &BTreeMap<String, Value>,
    stack: &mut Vec<String>,
) -> Option<Value> {
    match schema {
        Value::Object(map) => {
            let target = map
                .get("$ref")
                .and_then(Value::as_str)
                .and_then(|r| r.strip_prefix(TYPE_REF_PREFIX));
            let mut out = Map::new();
            if let Some(name) = target {
                if stack.iter().any(|s| s == name) {
                    return None;
                }
                let ty = types.get(name)?;
                stack.push(name.to_owned());
                let inlined = inline(ty, types, stack);
                stack.pop();
                if let Value::Object(fields) = inlined? {
                    out.extend(fields);
                }
            }
            for (key, value) in map {
                if key == "$ref" && target.is_some() {
                    continue;
                }
                out.insert(key.clone(), inline(value, types, stack)?);
            }
            Some(Value::Object(out))
        }
        Value::Array(items) => items
            .iter()
            .map(|v| inline(v, types, stack))
            .collect::<Option<Vec<_>>>()
            .map(Value::Array),
        other => Some(other.clone()),
    }
}

/// Rewrites `{type: [T, "null"], ...}` as `{anyOf: [{type: T, ...}, {type: "null"}]}`, with
/// annotations kept outside and `null` taken out of an `enum`.
pub fn nullable_as_any_of(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let map: Map<String, Value> = map
                .iter()
                .map(|(k, v)| (k.clone(), nullable_as_any_of(v)))
                .collect();
            let Some(Value::Array(kinds)) = map.get("type") else {
                return Value::Object(map);
            };
            let nullable = kinds.iter().any(|t| t == "null");
            let others: Vec<Value> = kinds.iter().filter(|t| *t != "null").cloned().collect();
            let mut outer = Map::new();
            let mut inner = Map::new();
            for (key, value) in &map {
                if ANNOTATIONS.contains(&key.as_str()) {
                    outer.insert(key.clone(), value.clone());
                } else if key == "enum" {
                    let values: Vec<Value> = value
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter(|v| !v.is_null())
                        .cloned()
                        .collect();
                    inner.insert(key.clone(), Value::Array(values));
                } else if key != "type" {
                    inner.insert(key.clone(), value.clone());
                }
            }
            let mut branches: Vec<Value> = others
                .into_iter()
                .map(|kind| {
                    let mut branch = Map::new();
                    branch.insert("type".to_owned(), kind);
                    branch.extend(inner.clone());
                    Value::Object(branch)
                })
                .collect();
            if nullable {
                branches.push(json!({"type": "null"}));
            }
            if branches.len() == 1 {
                // `type: [T]`: just T.
                let mut single = outer;
                if let Some(Value::Object(branch)) = branches.pop() {
                    single.extend(branch);
                }
                return Value::Object(single);
            }
            outer.insert("anyOf".to_owned(), Value::Array(branches));
            Value::Object(outer)
        }
        Value::Array(items) => Value::Array(items.iter().map(nullable_as_any_of).collect()),
        other => other.clone(),
    }
}

/// Paths (JSON pointers) of every `type` array left in `schema`; empty for a portable schema.
pub fn type_arrays(schema: &Value) -> Vec<String> {
    fn walk(value: &Value, at: &str, found: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (key, v) in map {
                    let here = format!("{at}/{key}");
                    if key == "type" && v.is_array() {
                        found.push(here.clone());
                    }
                    walk(v, &here, found);
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    walk(v, &format!("{at}/{i}"), found);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk(schema, "", &mut found);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nullable_type_becomes_any_of() {
        let schema = json!({"type": ["string", "null"], "description": "d", "enum": ["a", null], "maxLength": 3});
        assert_eq!(
            nullable_as_any_of(&schema),
            json!({"description": "d", "anyOf": [{"type": "string", "enum": ["a"], "maxLength": 3}, {"type": "null"}]})
        );
        let nested = json!({"properties": {"x": {"type": ["integer", "null"]}}});
        assert_eq!(
            nullable_as_any_of(&nested),
            json!({"properties": {"x": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}})
        );
        assert!(type_arrays(&nullable_as_any_of(&nested)).is_empty());
    }

    #[test]
    fn input_types_are_inlined_with_local_keys_winning() {
        let types: BTreeMap<String, Value> = [
            (
                "Id".to_owned(),
                json!({"type": "string", "description": "An id."}),
            ),
            (
                "Ids".to_owned(),
                json!({"type": "array", "items": {"$ref": "#/types/Id"}}),
            ),
        ]
        .into();
        let schema = json!({"type": "object", "properties": {
            "id": {"$ref": "#/types/Id", "description": "Mine."},
            "ids": {"$ref": "#/types/Ids"}}});
        assert_eq!(
            input(&schema, &types),
            json!({"type": "object", "properties": {
                "id": {"type": "string", "description": "Mine."},
                "ids": {"type": "array", "items": {"type": "string", "description": "An id."}}}})
        );
    }

    #[test]
    fn recursive_input_types_keep_defs() {
        let types: BTreeMap<String, Value> =
            [("Tree".to_owned(), json!({"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/types/Tree"}}}}))].into();
        let schema = json!({"type": "object", "properties": {"tree": {"$ref": "#/types/Tree"}}});
        assert!(input(&schema, &types).get("$defs").is_some());
    }
}
