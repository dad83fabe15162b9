//! Schema defaults are applied to the arguments before the mapping sees them (runtime
//! `call/defaults.rs`), so a default its own property schema rejects would send the backend a
//! value no client could: refused at build time.

use crate::locate::Step;
use crate::model::Manifest;
use crate::schema;
use crate::validate::Checker;
use serde_json::{Value, json};

pub(crate) fn check(c: &mut Checker<'_>, manifest: &Manifest) {
    for (i, tool) in manifest.tools.iter().enumerate() {
        let published = schema::publish(&tool.input, &manifest.types);
        let defs = published.get("$defs").cloned().unwrap_or_else(|| json!({}));
        for (name, property) in schema::properties(&published) {
            let Some(default) = property.get("default") else {
                continue;
            };
            let mut standalone = property.clone();
            if let Value::Object(map) = &mut standalone {
                map.insert("$defs".to_owned(), defs.clone());
            }
            // A schema that does not compile is reported by the JSON Schema check already.
            let Ok(validator) = jsonschema::draft202012::new(&standalone) else {
                continue;
            };
            if let Some(e) = validator.iter_errors(default).next() {
                c.report(
                    &[
                        Step::from("tools"),
                        Step::from(i),
                        Step::from("input"),
                        Step::from("properties"),
                        Step::from(name),
                        Step::from("default"),
                    ],
                    Some(format!("tool `{}`", tool.name)),
                    format!(
                        "the default of `{name}` breaks its own schema ({e}). It is sent to the backend whenever a client omits `{name}`: fix the default or the schema."
                    ),
                );
            }
        }
    }
}
