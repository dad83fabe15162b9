//! Schema defaults, applied to validated arguments before the manifest's mutation rules, its
//! mapping or a custom handler see them: a default a client was shown is the value the backend
//! gets. Top-level properties and, inside a given (or defaulted) object or array, the
//! properties its schema declares; `anyOf`/`oneOf` branches are left alone (which branch
//! applies is the caller's choice).

use serde_json::Value;

/// Deeper than any manifest schema; guards against a schema that refers to itself.
const MAX_DEPTH: usize = 32;

/// Fills in every absent property whose schema declares a `default`. `schema` is the tool's
/// published input schema (shared types under `$defs`).
pub fn apply(schema: &Value, arguments: &mut Value) {
    fill(schema, schema, arguments, 0);
}

/// `schema` with its local `$ref`s followed.
fn resolve<'a>(root: &'a Value, mut schema: &'a Value) -> &'a Value {
    for _ in 0..MAX_DEPTH {
        let Some(target) = schema
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix('#'))
            .and_then(|pointer| root.pointer(pointer))
        else {
            break;
        };
        schema = target;
    }
    schema
}

fn fill(root: &Value, schema: &Value, value: &mut Value, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let resolved = resolve(root, schema);
    match value {
        Value::Object(map) => {
            let Some(properties) = resolved.get("properties").and_then(Value::as_object) else {
                return;
            };
            for (name, property) in properties {
                match map.get_mut(name) {
                    Some(present) => fill(root, property, present, depth + 1),
                    None => {
                        // A default next to a `$ref` wins over the referenced type's own.
                        let default = property
                            .get("default")
                            .or_else(|| resolve(root, property).get("default"));
                        if let Some(default) = default {
                            let mut default = default.clone();
                            fill(root, property, &mut default, depth + 1);
                            map.insert(name.clone(), default);
                        }
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = resolved.get("items") {
                for v in items {
                    fill(root, item, v, depth + 1);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn applied(schema: Value, arguments: Value) -> Value {
        let mut arguments = arguments;
        apply(&schema, &mut arguments);
        arguments
    }

    #[test]
    fn absent_properties_get_their_default_and_given_ones_stay() {
        let schema = json!({"type": "object", "properties": {
            "depth": {"type": "integer", "default": 3},
            "latest": {"$ref": "#/$defs/Latest", "default": true},
            "mode": {"$ref": "#/$defs/Mode"},
            "name": {"type": "string"}
        }, "$defs": {"Latest": {"type": "boolean"}, "Mode": {"type": "string", "default": "fast"}}});
        assert_eq!(
            applied(schema.clone(), json!({})),
            json!({"depth": 3, "latest": true, "mode": "fast"})
        );
        assert_eq!(
            applied(schema, json!({"depth": 1, "latest": null, "name": "x"})),
            json!({"depth": 1, "latest": null, "mode": "fast", "name": "x"}),
            "a given value, null included, is the caller's"
        );
    }

    #[test]
    fn nested_objects_and_array_items_get_their_declared_defaults() {
        let schema = json!({"type": "object", "properties": {
            "filter": {"type": "object", "properties": {"limit": {"type": "integer", "default": 10}}},
            "sort": {"type": "object", "default": {}, "properties": {"order": {"type": "string", "default": "asc"}}},
            "items": {"type": "array", "items": {"type": "object", "properties": {"weight": {"type": "number", "default": 1}}}},
            "choice": {"anyOf": [{"type": "object", "properties": {"x": {"default": 1}}}]}
        }});
        assert_eq!(
            applied(
                schema,
                json!({"filter": {}, "items": [{}, {"weight": 2}], "choice": {}})
            ),
            json!({"filter": {"limit": 10}, "sort": {"order": "asc"}, "items": [{"weight": 1}, {"weight": 2}], "choice": {}})
        );
    }

    #[test]
    fn a_self_referencing_schema_ends() {
        let schema = json!({"$ref": "#", "properties": {"a": {"$ref": "#/properties/a"}}});
        let out = applied(schema, json!({"a": {}}));
        assert_eq!(out, json!({"a": {}}));
    }
}
