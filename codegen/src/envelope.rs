//! The surface envelope: `envelope: {name: {description, schema}}` in a manifest declares fields
//! the runtime may add to every result of that surface (code-kg's `freshness`). Each is added,
//! optional, to every output schema of the surface, after the universal `truncation`.

use crate::model::Tool;
use crate::schema;
use nexus_mcp_registry::spec::CONTINUED_KEY;
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

/// `tool`'s output with the surface's envelope fields and `truncation` declared as optional properties
/// (and `continued_from` when the tool pages several lists), so the published contract is honest
/// about what clients receive.
pub fn with_envelope(tool: &Tool, envelope: &Map<String, Value>) -> Value {
    let pages_also = tool.pagination.as_ref().is_some_and(|p| !p.also.is_empty());
    let mut output = tool.output.clone();
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
            if pages_also {
                props.insert(CONTINUED_KEY.to_owned(), schema::continued_schema());
            }
        }
    }
    output
}
