//! The served OpenAPI document: the core fragment (the document's head, shared responses and
//! schemas) with every domain's `paths` and `components` merged in, in domain order.

use crate::core::Domain;
use serde_json::{Map, Value};

/// Merges the domains' fragments into one document, serialised as the API serves it.
pub fn document(domains: &[&Domain]) -> Result<String, String> {
    let mut doc = Value::Object(Map::new());
    for d in domains {
        let fragment: Value = serde_json::from_str(d.openapi).map_err(|e| {
            format!(
                "the OpenAPI fragment of domain `{}` is not JSON: {e}",
                d.name
            )
        })?;
        merge(&mut doc, fragment, d.name, "")?;
    }
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(
        &mut out,
        serde_json::ser::PrettyFormatter::with_indent(b" "),
    );
    serde::Serialize::serialize(&doc, &mut ser).map_err(|e| e.to_string())?;
    String::from_utf8(out).map_err(|e| e.to_string())
}

/// The containers domains add to: the document, `paths`, `components` and each kind of
/// component (`schemas`, `responses`, ...).
fn mergeable(at: &str) -> bool {
    matches!(at, "" | "/paths" | "/components")
        || at
            .strip_prefix("/components/")
            .is_some_and(|kind| !kind.contains('/'))
}

/// Adds `from` into `into`: objects merge key by key, anything else defined twice is an error
/// (two domains serving one path, or one schema name with two meanings).
fn merge(into: &mut Value, from: Value, domain: &str, at: &str) -> Result<(), String> {
    match (into, from) {
        (Value::Object(into), Value::Object(from)) => {
            for (k, v) in from {
                let here = format!("{at}/{k}");
                match into.get_mut(&k) {
                    None => {
                        into.insert(k, v);
                    }
                    Some(existing) if mergeable(&here) => merge(existing, v, domain, &here)?,
                    Some(_) => {
                        return Err(format!(
                            "domain `{domain}` defines OpenAPI `{here}` a second time; give it another name"
                        ));
                    }
                }
            }
            Ok(())
        }
        _ => Err(format!(
            "domain `{domain}` defines OpenAPI `{at}` a second time; give it another name"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn domain(name: &'static str, openapi: &'static str) -> Domain {
        Domain {
            name,
            versions: 0..=0,
            migrations: &[],
            openapi,
            routes: &[],
        }
    }

    #[test]
    fn fragments_merge_in_order_and_a_path_or_schema_defined_twice_is_refused() {
        let head = domain(
            "core",
            r#"{"openapi": "3.1.0", "paths": {"/a": {}}, "components": {"schemas": {"E": {}}}}"#,
        );
        let more = domain(
            "more",
            r#"{"paths": {"/b": {}}, "components": {"schemas": {"F": {}}, "responses": {"R": {}}}}"#,
        );
        let doc: Value = serde_json::from_str(&document(&[&head, &more]).unwrap()).unwrap();
        let paths: Vec<&String> = doc["paths"].as_object().unwrap().keys().collect();
        assert_eq!(paths, ["/a", "/b"]);
        let schemas: Vec<&String> = doc["components"]["schemas"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(schemas, ["E", "F"]);
        let twice = domain("twice", r#"{"paths": {"/a": {"get": {}}}}"#);
        let err = document(&[&head, &twice]).unwrap_err();
        assert!(
            err.contains("`twice`") && err.contains("/paths//a"),
            "{err}"
        );
        let schema_twice = domain("s", r#"{"components": {"schemas": {"E": {}}}}"#);
        assert!(
            document(&[&head, &schema_twice])
                .unwrap_err()
                .contains("/components/schemas/E")
        );
    }
}
