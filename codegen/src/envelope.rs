//! The surface envelope: `envelope: {name: {description, schema}}` in a manifest declares fields
//! the runtime may add to every result of that surface (code-kg's `freshness`). Each is added,
//! optional, to every output schema of the surface, after the universal `truncation`.

use crate::schema;
use serde_json::{Map, Value};

/// The declared envelope fields, in order: `(name, description, schema)`. Entries that are not
/// well formed are skipped here; validate/envelope.rs reports them.
pub fn fields(envelope: &Map<String, Value>) -> Vec<(&str, &str, &Value)> {
    envelope
        .iter()
        .filter_map(|(name, entry)| {
            let description = entry.get("description")?.as_str()?;
            let schema = entry.get("schema").filter(|s| s.is_object())?;
            Some((name.as_str(), description, schema))
        })
        .collect()
}

/// `output` with the surface's envelope fields and `truncation` declared as optional properties,
/// so the published contract is honest about what clients receive.
pub fn with_envelope(output: &Value, envelope: &Map<String, Value>) -> Value {
    let mut output = output.clone();
    if let Value::Object(map) = &mut output {
        let properties = map
            .entry("properties")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(props) = properties {
            for (name, description, field) in fields(envelope) {
                let mut field = field.clone();
                if let Value::Object(f) = &mut field {
                    f.entry("description")
                        .or_insert_with(|| Value::String(description.to_owned()));
                }
                props.insert(name.to_owned(), field);
            }
            props.insert("truncation".to_owned(), schema::truncation_schema());
        }
    }
    output
}
