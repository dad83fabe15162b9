//! Canonical JSON: the registry's published schemas and the contract files must agree byte for
//! byte, so both are written by this one function.

use serde_json::Value;

/// Sorted-key, compact JSON.
pub fn canonical_json(value: &Value) -> String {
    serde_json::to_string(&sort_keys(value)).unwrap_or_default()
}

/// A copy of `value` with every object's keys sorted.
pub fn sort_keys(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.clone(), sort_keys(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sort_keys).collect()),
        other => other.clone(),
    }
}
