//! `envelope:` entries are `name: {description, schema}`; names must not collide with what the
//! runtime adds itself (`truncation`, `continued_from`) nor with a tool's own output properties.

use super::Checker;
use crate::locate::Step;
use crate::model::Manifest;
use crate::schema;
use nexus_mcp_registry::spec::CONTINUED_KEY;
use serde_json::Value;

pub(super) fn check(c: &mut Checker<'_>, manifest: &Manifest) {
    for (name, entry) in &manifest.envelope {
        let at = [Step::from("envelope"), Step::from(name.as_str())];
        let subject = Some(format!("envelope field `{name}`"));
        if name == "truncation" || name == CONTINUED_KEY {
            c.report(
                &at,
                subject.clone(),
                format!(
                    "`{name}` is added to {} by the runtime. Pick another name.",
                    if name == "truncation" {
                        "every result"
                    } else {
                        "paged results"
                    }
                ),
            );
        }
        let keys_ok = entry.as_object().is_some_and(|o| {
            o.keys().all(|k| k == "description" || k == "schema")
                && o.get("description").is_some_and(Value::is_string)
                && o.get("schema").is_some_and(Value::is_object)
        });
        if !keys_ok {
            c.report(&at, subject.clone(), "an envelope field is `{description: <text>, schema: <JSON Schema object>}` and nothing else.".to_owned());
            continue;
        }
        if let Some(field) = entry.get("schema") {
            let mut schema_at = at.to_vec();
            schema_at.push(Step::from("schema"));
            super::check_refs(c, manifest, &schema_at, subject.clone(), field);
            super::check_json_schema(c, manifest, &schema_at, subject.clone(), field);
        }
        for (i, tool) in manifest.tools.iter().enumerate() {
            if schema::properties(&tool.output)
                .iter()
                .any(|(p, _)| p == name)
            {
                c.report(
                    &[Step::from("tools"), Step::from(i), Step::from("output"), Step::from("properties"), Step::from(name.as_str())],
                    Some(format!("tool `{}`", tool.name)),
                    format!("output property `{name}` is the surface's envelope field: the runtime adds it to every result. Remove it from the output."),
                );
            }
        }
    }
}
