//! A `default:` is published to clients and applied by the runtime before a tool runs, so it
//! must satisfy its own property's schema: `limit: {maximum: 50, default: 100}` would hand every
//! call an argument the tool itself refuses.

use super::Checker;
use crate::locate::Step;
use crate::model::Manifest;
use crate::schema;
use serde_json::Value;

pub(super) fn check(c: &mut Checker<'_>, manifest: &Manifest) {
    for (name, ty) in &manifest.types {
        let at = [Step::from("types"), Step::from(name.as_str())];
        object(c, manifest, &at, Some(format!("type `{name}`")), ty);
    }
    for (i, tool) in manifest.tools.iter().enumerate() {
        for (key, schema) in [("input", &tool.input), ("output", &tool.output)] {
            let at = [Step::from("tools"), Step::from(i), Step::from(key)];
            object(
                c,
                manifest,
                &at,
                Some(format!("tool `{}`", tool.name)),
                schema,
            );
        }
    }
}

fn object(
    c: &mut Checker<'_>,
    manifest: &Manifest,
    at: &[Step],
    subject: Option<String>,
    schema: &Value,
) {
    for (prop, prop_schema) in schema::properties(schema) {
        let Some(default) = prop_schema.get("default") else {
            continue;
        };
        let published = schema::publish(prop_schema, &manifest.types);
        // An invalid schema is reported by the JSON Schema check; nothing to add here.
        let Ok(validator) = jsonschema::draft202012::new(&published) else {
            continue;
        };
        if let Some(e) = validator.iter_errors(default).next() {
            let mut here = at.to_vec();
            here.extend([
                Step::from("properties"),
                Step::from(prop),
                Step::from("default"),
            ]);
            c.report(
                &here,
                subject.clone(),
                format!("the default of `{prop}` ({default}) breaks its own schema: {e}. Fix the default or the schema."),
            );
        }
    }
}
